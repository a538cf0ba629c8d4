// Figures of issue 10: what the account settings page costs. Uses the demo as built (node scripts/build-ui.mjs),
//  1. the gzipped size of what the settings page loads beyond the sign-in page (its lazy JS chunks and its CSS),
//     as Chromium requests it: every asset fetched for /handler/account-settings#profile that the sign-in page
//     did not fetch (plus, listed apart, the chunks that load only when used: the QR code for MFA);
//  2. the median time in Chromium from opening #profile to the page showing the user's data (their display name
//     in the User name row), over 20 loads on loopback: warm (same tab, browser cache) and cold (new context).
// Writes its section of bench/RESULTS.md. Run: node_modules/.bin/bun bench/account-settings-figures.ts [--loads N]
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../account-kit/test/support/browser';
import { startService } from '../service/test/support/service';
import { newProject, signUp } from '../service/test/support/projects';

const ROOT = join(import.meta.dir, '..');
const DIST = join(ROOT, 'account-kit/demo/dist');
const LOADS = Number(process.argv[process.argv.indexOf('--loads') + 1]) || 20;
const START = '<!-- account-settings-figures:start -->';
const END = '<!-- account-settings-figures:end -->';

const gz = (file: string) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;
const raw = (file: string) => readFileSync(join(DIST, file)).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };

const loadStart = loadavg().map((x) => x.toFixed(2)).join(' ');
// BENCH_SERVICE_URL: measure a service that is already running (a busy machine may need minutes to start one).
const svc = process.env.BENCH_SERVICE_URL
  ? { url: process.env.BENCH_SERVICE_URL, stop: async () => {} }
  : await startService({ startTimeoutMs: 180_000, env: { GATEHOUSE_RATE_LIMITS: 'off' } });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS });
try {
  const project = await newProject(svc as Parameters<typeof newProject>[0], { config: { credential_enabled: true, magic_link_enabled: false, allow_user_api_keys: true, client_team_creation_enabled: true } });
  const user = await signUp(project);
  const NAME = 'Bench Person';
  await project.server.patch(`/users/${user.userId}`, { display_name: NAME });

  const context = await browser.newContext({ baseURL: svc.url, viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(120_000);
  const page = await context.newPage();
  const assets = (p: Page) => {
    const seen: string[] = [];
    p.on('request', (r) => { const u = new URL(r.url()); if (u.pathname.startsWith('/assets/')) seen.push(u.pathname.slice(1)); });
    return seen;
  };
  const seen = assets(page);
  await page.goto(`/?project_id=${project.id}&publishable_client_key=${project.keys.publishableClientKey}`);
  await page.goto('/handler/sign-in');
  await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
  const signInAssets = new Set(seen);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL((u) => u.pathname === '/');
  const beforeSettings = new Set(seen);
  await page.goto('/handler/account-settings#profile');
  await page.getByTestId('editable-value').filter({ hasText: NAME }).waitFor();
  const settingsAssets = [...new Set(seen)].filter((f) => !signInAssets.has(f) && !beforeSettings.has(f) || (!signInAssets.has(f) && /account-settings/.test(f)));
  // Opening Emails & Auth and starting MFA enrolment loads the QR code chunk on demand.
  const beforeMfa = new Set(seen);
  await page.goto('/handler/account-settings#auth');
  await page.getByRole('button', { name: 'Enable MFA' }).click();
  await page.getByRole('img', { name: 'TOTP multi-factor authentication QR code' }).waitFor();
  const onDemand = [...new Set(seen)].filter((f) => !beforeMfa.has(f) && !settingsAssets.includes(f) && !signInAssets.has(f));

  // Warm: the same tab, reloading #profile (browser cache, session cookie in place).
  const warm: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    await page.goto('about:blank');
    const t0 = performance.now();
    await page.goto('/handler/account-settings#profile');
    await page.getByTestId('editable-value').filter({ hasText: NAME }).waitFor();
    warm.push(performance.now() - t0);
  }
  // Cold: a new context each time (no HTTP cache), signed in through the stored cookies.
  const state = await context.storageState();
  const cold: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    const c = await browser.newContext({ baseURL: svc.url, viewport: { width: 1280, height: 800 }, storageState: state });
    c.setDefaultTimeout(120_000);
    const p = await c.newPage();
    const t0 = performance.now();
    await p.goto('/handler/account-settings#profile');
    await p.getByTestId('editable-value').filter({ hasText: NAME }).waitFor();
    cold.push(performance.now() - t0);
    await c.close();
  }

  const js = settingsAssets.filter((f) => f.endsWith('.js'));
  const css = settingsAssets.filter((f) => f.endsWith('.css'));
  const sum = (fs: string[], f: (x: string) => number) => fs.reduce((s, x) => s + f(x), 0);
  const row = (f: string) => `| \`${f}\` | ${kb(raw(f))} | ${kb(gz(f))} |`;
  const md = [
    START,
    '## Account settings page (issue 10)',
    '',
    `${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model.split(' ').slice(0, 2).join(' ')} · Chromium (Debian) headless via playwright-core · service on loopback (PGlite) · load average at start ${loadStart}, at end ${loadavg().map((x) => x.toFixed(2)).join(' ')}`,
    '',
    'What `/handler/account-settings#profile` loads beyond what the sign-in page already loaded (gzip level 9), and the time from',
    'opening `#profile` (navigation start) to the User name row showing the user\'s display name.',
    '',
    '| figure | value |',
    '|---|---|',
    `| settings lazy chunk(s), JS, gzipped | **${kb(sum(js, gz))}** (${js.length} file${js.length === 1 ? '' : 's'}; raw ${kb(sum(js, raw))}) |`,
    `| settings stylesheet, gzipped | **${kb(sum(css, gz))}** (raw ${kb(sum(css, raw))}) |`,
    `| loaded on demand (MFA enrolment: QR code), gzipped | ${kb(sum(onDemand, gz))} |`,
    `| median open #profile → user's data shown, ${LOADS} warm loads (same tab) | **${median(warm).toFixed(0)} ms** (min ${Math.min(...warm).toFixed(0)}, max ${Math.max(...warm).toFixed(0)}) |`,
    `| median open #profile → user's data shown, ${LOADS} cold loads (new context, no cache) | **${median(cold).toFixed(0)} ms** (min ${Math.min(...cold).toFixed(0)}, max ${Math.max(...cold).toFixed(0)}) |`,
    '',
    '| file | raw | gzip |',
    '|---|---|---|',
    ...[...js, ...css].map(row),
    ...onDemand.map((f) => row(f).replace(/^\| `/, '| (on demand) `')),
    END,
  ].join('\n');
  console.log(md);
  const resultsPath = join(ROOT, 'bench/RESULTS.md');
  const results = readFileSync(resultsPath, 'utf8');
  const s = results.indexOf(START);
  const e = results.indexOf(END);
  writeFileSync(resultsPath, s >= 0 && e > s ? results.slice(0, s) + md + results.slice(e + END.length) : results.trimEnd() + '\n\n' + md + '\n');
} finally {
  await browser.close();
  await svc.stop();
}
