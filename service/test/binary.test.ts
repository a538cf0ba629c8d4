// Own CI step: builds and runs the binary (minutes); `npm test` leaves it out, .ci/run runs it in a step of its own.
// The one binary (issue 29, README "One binary"): dist/gatehouse, copied alone into an empty directory and run with
// an environment holding neither node nor bun, starts on its embedded database as `npm start` does (a person signs
// up on its demo page in Chromium, an owner reads that user in its console), on PostgreSQL with DATABASE_URL, and
// answers `migrate` and `version`. It builds the binary (about a minute with the front ends), so `npm test` leaves it
// out (scripts/test.sh); .ci/run builds it with `npm run build:binary` and runs this file with GATEHOUSE_BINARY set.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Subprocess } from 'bun';
import { failOnBrowserErrors, screenshot, sharedBrowser } from '../../account-kit/test/support/browser';
import { signUpOwner } from '../../desktop/test/support/console';
import { clientApi, uniqueEmail } from './support/service';
import { DEMO_DEV_KEYS, DEMO_PROJECT_ID } from '../src/dev-keys';
import { startSmtpFixture } from './support/smtp';
import { isolatedDatabase } from './support/isolated-database';
import pkg from '../../package.json';

setDefaultTimeout(300_000);
failOnBrowserErrors();

const ROOT = resolve(import.meta.dir, '../..');
// No node and no bun on this PATH (checked below): whatever the binary needs, it holds.
const NO_RUNTIME_PATH = '/usr/bin/nonexistent';

function built(): string {
  const given = process.env.GATEHOUSE_BINARY;
  if (given) return resolve(ROOT, given);
  const r = Bun.spawnSync(['node', 'scripts/build-binary.mjs'], { cwd: ROOT, stdout: 'inherit', stderr: 'inherit' });
  if (r.exitCode !== 0) throw new Error(`npm run build:binary failed (exit ${r.exitCode})`);
  return join(ROOT, 'dist/gatehouse');
}

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-binary-'));
const home = mkdtempSync(join(tmpdir(), 'gatehouse-binary-home-'));
copyFileSync(built(), join(dir, 'gatehouse'));
const binary = join(dir, 'gatehouse');
const mailbox = await startSmtpFixture();
const running: Subprocess[] = [];
afterAll(async () => {
  for (const p of running) p.kill('SIGKILL');
  await mailbox.stop();
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/** The environment of `env -i PATH=/usr/bin/nonexistent HOME=… …`: nothing but what is named. */
function environment(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: NO_RUNTIME_PATH, HOME: home, PORT: '0', GATEHOUSE_DEV_OIDC: 'false', GATEHOUSE_RATE_LIMITS: 'off', SMTP_URL: mailbox.url, ...extra };
}

/** Runs a command of the binary to its end. */
async function command(args: string[], extra: Record<string, string> = {}) {
  const p = Bun.spawn([binary, ...args], { cwd: dir, env: environment(extra), stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, code };
}

/**
 * Starts `./gatehouse` (serve) and waits for its listening line (how long that took, in seconds) and the last line of
 * its start (API docs), printed once it handles SIGTERM.
 */
async function serve(extra: Record<string, string> = {}) {
  const started = performance.now();
  const p = Bun.spawn([binary], { cwd: dir, env: environment(extra), stdout: 'pipe', stderr: 'pipe' });
  running.push(p);
  const errors = new Response(p.stderr).text();
  // Read to the end (a full pipe would stall the service), noting when the two lines arrive.
  let output = '';
  let seconds = 0;
  let ready = () => {};
  const started$ = new Promise<void>((r) => { ready = r; });
  const pump = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of p.stdout) {
      output += decoder.decode(chunk);
      if (!seconds && /listening on /.test(output)) seconds = (performance.now() - started) / 1000;
      if (/^API docs: /m.test(output)) ready();
    }
  })();
  await Promise.race([started$, pump.then(async () => {
    throw new Error(`the binary exited before it had started (code ${await p.exited}):\n${output}\n${await errors}`);
  })]);
  const url = /listening on (http:\/\/localhost:\d+)/.exec(output)![1];
  return {
    url, output, seconds,
    /** SIGTERM, as an operator stops it: a clean shutdown exits 0. */
    stop: async () => { p.kill('SIGTERM'); return p.exited; },
  };
}

describe('dist/gatehouse, alone in an empty directory, with neither node nor bun', () => {
  test('the directory holds the binary only, and PATH finds neither node nor bun', () => {
    expect(readdirSync(dir)).toEqual(['gatehouse']);
    expect(statSync(binary).size).toBeGreaterThan(50 * 1024 * 1024);
    expect(Bun.which('node', { PATH: NO_RUNTIME_PATH })).toBeNull();
    expect(Bun.which('bun', { PATH: NO_RUNTIME_PATH })).toBeNull();
    // ...where the test's own PATH does find them: the check above can fail.
    expect(Bun.which('bun') ?? Bun.which('node')).not.toBeNull();
  });

  test('version prints the package version and the commit it was built from', async () => {
    const { stdout, code } = await command(['version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(new RegExp(`^gatehouse ${pkg.version.replace(/\./g, '\\.')} \\(commit [0-9a-f]{7,}(-modified)?\\)$`));
  });

  test('an unknown command is named, with the usage, and exits 2', async () => {
    const { stderr, code } = await command(['frobnicate']);
    expect(code).toBe(2);
    expect(stderr).toContain('Unknown command "frobnicate"');
    expect(stderr).toContain('migrate');
  });

  test('serve on the embedded database: a person signs up on the demo page; an owner reads them in the console', async () => {
    const svc = await serve();
    console.log(`binary: listening ${svc.seconds.toFixed(1)} s after start on a fresh data directory`);
    expect(svc.output).toContain(`(database: PGlite in ${join(dir, 'data')})`);
    expect(svc.output).toContain('Demo project created');
    // The data directory is the binary's neighbour, as `npm start`'s is the repository's.
    expect(readdirSync(dir).sort()).toEqual(['data', 'gatehouse']);

    const email = uniqueEmail('binary');
    const password = 'binary-password-1';
    const browser = await sharedBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: svc.url });
    try {
      const page = await context.newPage();
      await page.goto('/handler/sign-up');
      await page.getByRole('heading', { name: 'Create a new account' }).waitFor();
      const passwordTab = page.getByRole('tab', { name: 'Password' });
      if (await passwordTab.count()) await passwordTab.click();
      await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByLabel('Repeat Password').fill(password);
      await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
      await page.waitForURL((u) => u.pathname === '/');
      await expect(page.getByTestId('signed-in-as').textContent()).resolves.toContain(email);
      await screenshot(page, 'binary-demo-signed-in');
      // Its verification mail went out through the SMTP server named in the environment.
      await mailbox.waitForMail((m) => m.to.includes(email), 60_000);

      // The console, from the binary too: an owner signs up there and finds that person in the demo project.
      const owner = await context.newPage();
      await owner.goto('/console/');
      await signUpOwner(owner, uniqueEmail('binary-owner'));
      await owner.goto('/console/#/c/this-service/p/demo/users');
      await owner.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      await owner.getByTestId('user-row').filter({ hasText: email }).waitFor();
      await screenshot(owner, 'binary-console-users');

      // The API reference and its Swagger UI files are in the binary as well.
      const docs = await fetch(`${svc.url}/api/v1/docs`);
      expect(docs.status).toBe(200);
      expect((await fetch(`${svc.url}/api/v1/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
      const openapi = await (await fetch(`${svc.url}/api/v1/openapi.json`)).json() as { paths: Record<string, unknown> };
      expect(Object.keys(openapi.paths).length).toBeGreaterThan(50);
    } finally {
      await context.close();
    }
    expect(await svc.stop()).toBe(0);

    const again = await serve();
    console.log(`binary: listening ${again.seconds.toFixed(1)} s after start on the same data directory`);
    expect(again.output).not.toContain('Internal project created');
    // The data directory kept that person: they sign in with their password. (Answering a request first also lets
    // the start finish: a SIGTERM in the instant after its last line ends the process unhandled, exit 143, from
    // source too.)
    const signIn = await clientApi(again.url, DEMO_PROJECT_ID, DEMO_DEV_KEYS.publishable_client_key).post('/auth/password/sign-in', { email, password });
    expect(signIn.status).toBe(200);
    expect(await again.stop()).toBe(0);
  });

  test('migrate applies the migrations to a fresh PostgreSQL database and exits; serve then starts on it', async () => {
    const scratch = await isolatedDatabase({ postgres: true });
    try {
      const first = await command(['migrate'], { DATABASE_URL: scratch.url! });
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toContain('Migrations applied (PostgreSQL at');
      const { default: postgres } = await import('postgres');
      const sql = postgres(scratch.url!, { max: 1, onnotice: () => {} });
      try {
        const [{ count }] = await sql<{ count: string }[]>`select count(*)::text as count from drizzle.__drizzle_migrations`;
        const journal = await Bun.file(join(ROOT, 'drizzle/meta/_journal.json')).json() as { entries: unknown[] };
        expect(Number(count)).toBe(journal.entries.length);
        expect((await sql`select 1 from information_schema.tables where table_name = 'users'`).length).toBe(1);
      } finally { await sql.end(); }
      // Again: nothing left to apply, still 0.
      expect((await command(['migrate'], { DATABASE_URL: scratch.url! })).code).toBe(0);

      const svc = await serve({ DATABASE_URL: scratch.url! });
      expect(svc.output).toContain('(database: PostgreSQL)');
      const signUp = await clientApi(svc.url, DEMO_PROJECT_ID, DEMO_DEV_KEYS.publishable_client_key)
        .post('/auth/password/sign-up', { email: uniqueEmail('binary-pg'), password: 'binary-password-1' });
      expect(signUp.status).toBe(200);
      expect(await svc.stop()).toBe(0);
    } finally {
      await scratch.drop();
    }
  });
});
