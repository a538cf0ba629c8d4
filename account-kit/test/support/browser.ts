// Browser tests of the account kit: Debian's Chromium driven by playwright-core (never a downloaded browser),
// against the real service serving the demo app, with a real SMTP server receiving its mail and the service's
// development OpenID provider behind every OAuth button. One service and one browser per test process.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterEach, beforeEach, expect, setDefaultTimeout } from 'bun:test';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { startService, uniqueEmail, type RunningService } from '../../../service/test/support/service';
import { startSmtpFixture, type ReceivedMail, type SmtpFixture } from '../../../service/test/support/smtp';
import { newProject, signUp, type TestProject } from '../../../service/test/support/projects';
import { startTestDns, type TestDns } from '../../../service/test/support/dns';

export { uniqueEmail, newProject, signUp, type TestProject };
export { extractCode, extractCodeLink, extractOtp } from '../../../service/test/support/smtp';

export const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
export const ARTIFACTS = join(import.meta.dir, '../artifacts');
const DEMO_INDEX = join(import.meta.dir, '../../demo/dist/index.html');

export interface KitService extends RunningService {
  mailbox: SmtpFixture;
  /** The DNS server the service verifies team domains with (a loopback server of the test's own). */
  dns: TestDns;
}

let service: Promise<KitService> | undefined;
let browser: Promise<Browser> | undefined;

/** The service (with the demo built by `npm test` / `npm start`), its SMTP server and the dev OpenID provider. */
export function kitService(): Promise<KitService> {
  service ??= (async () => {
    if (!existsSync(DEMO_INDEX)) throw new Error('The demo app is not built: run `node scripts/build-ui.mjs` (npm test does).');
    const [mailbox, dns] = await Promise.all([startSmtpFixture(), startTestDns()]);
    // The demo project as `npm start` has it: the demo at `/` opens it unless a test names its own project.
    const env = { SMTP_URL: mailbox.url, GATEHOUSE_DEV_OIDC: 'true', GATEHOUSE_RATE_LIMITS: 'off', GATEHOUSE_DEMO_PROJECT: 'true', GATEHOUSE_DNS_SERVERS: dns.address };
    // A machine shared by several test runs can take longer than startService's default minute to start it.
    const svc = await startService({ env, startTimeoutMs: 180_000 });
    return { ...svc, mailbox, dns };
  })();
  return service;
}

export function sharedBrowser(): Promise<Browser> {
  browser ??= chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS }).then(watchContexts);
  return browser;
}

/**
 * What the pages logged with console.error and the errors they threw (page errors) since the current test began.
 * React reports a recovered rendering error (#520) and a failed effect this way while the page still looks fine, so
 * a test that only looks at the screen would pass over them (issue 25).
 */
const browserErrors: string[] = [];

/** Every context of the shared browser reports its pages' console errors and page errors to `browserErrors`. */
function watchContexts(b: Browser): Browser {
  const newContext = b.newContext.bind(b);
  b.newContext = async (...args) => {
    const context = await newContext(...args);
    // A recovered rendering error (#520) says only its number in the production build: its cause says what broke.
    await context.addInitScript(() => window.addEventListener('error', (e) => {
      const cause = (e.error as { cause?: { stack?: string } } | undefined)?.cause;
      if (cause) console.error(`(cause of the error above) ${cause.stack ?? String(cause)}`);
    }));
    context.on('page', (page) => {
      page.on('console', (m) => {
        // The browser's own line for an HTTP error answer ("Failed to load resource: ... 401") is no console.error:
        // a wrong password is such an answer.
        if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) browserErrors.push(`console.error on ${page.url()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => browserErrors.push(`page error on ${page.url()}: ${e.stack ?? e.message}`));
    });
    return context;
  };
  return b;
}

/** Fails every test of the calling file during which a page logged a console error or threw (call once per file, at
 *  its top level: `setupBrowserSuite` does). */
export function failOnBrowserErrors() {
  beforeEach(() => { browserErrors.length = 0; });
  afterEach(() => {
    const found = browserErrors.splice(0);
    expect(found).toEqual([]);
  });
}

/** Preamble of a browser test file: a generous timeout, the service and the browser. */
export async function setupBrowserSuite() {
  setDefaultTimeout(90_000);
  failOnBrowserErrors();
  // One after the other: on a busy machine Chromium starting beside the service can push it past its start deadline.
  const svc = await kitService();
  const b = await sharedBrowser();
  return { svc, browser: b };
}

export interface PageOptions {
  /** Open the demo as an app of this project (default: the demo project, as `npm start` serves it). */
  project?: Pick<TestProject, 'id' | 'keys'>;
  colorScheme?: 'light' | 'dark';
  width?: number;
  height?: number;
  lang?: string;
}

/** A fresh browser context (own cookies) with one page on the demo, pointed at `project`. */
export async function openDemo(svc: KitService, o: PageOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const b = await sharedBrowser();
  const context = await b.newContext({
    viewport: { width: o.width ?? 1280, height: o.height ?? 800 },
    colorScheme: o.colorScheme ?? 'light',
    baseURL: svc.url,
  });
  const page = await context.newPage();
  const q = new URLSearchParams();
  if (o.project) {
    q.set('project_id', o.project.id);
    q.set('publishable_client_key', o.project.keys.publishableClientKey);
  }
  if (o.lang) q.set('lang', o.lang);
  // The demo remembers the project (and language) in this context's localStorage.
  if (q.size) await page.goto(`/?${q}`);
  return { context, page };
}

/**
 * Signs in on the sign-in page with email and password, as a person does (picking the password tab when the
 * project also offers email codes), and waits until the app has sent them on from the sign-in page.
 */
export async function signInWithPassword(page: Page, email: string, password: string, o: { path?: string } = {}) {
  await page.goto(o.path ?? '/handler/sign-in');
  await page.getByRole('button', { name: 'Sign In', exact: true }).or(page.getByRole('tab', { name: 'Email & Password' })).first().waitFor();
  const tab = page.getByRole('tab', { name: 'Email & Password' });
  if (await tab.count()) await tab.click();
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL((u) => u.pathname !== '/handler/sign-in');
}

/** The text of the demo's "Signed in as …" line on its home page (waits for it). */
export async function signedInAs(page: Page): Promise<string> {
  const line = page.getByTestId('signed-in-as');
  await line.waitFor();
  return (await line.textContent()) ?? '';
}

/** Chromium's virtual authenticator (CDP WebAuthn domain): passkeys without a person touching a key. */
export async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

/** Waits for the next mail to `to` received after `since` (a timestamp), as a person opening their inbox. */
export function mailTo(svc: KitService, to: string, o: { since?: number; subject?: RegExp } = {}): Promise<ReceivedMail> {
  return svc.mailbox.waitForMail((m) => m.to.includes(to) && m.receivedAt >= (o.since ?? 0) && (!o.subject || o.subject.test(m.subject)), 30_000);
}

/** Saves a full-page screenshot as a test artifact (gitignored) and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  // A picture of the screen as a person sees it once it is still: menus and dialogs fade in (the account menu was
  // caught half-transparent). Finite animations only; skeletons pulse forever.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity), undefined, { timeout: 5_000 }).catch(() => {});
  await page.screenshot({ path, fullPage: true });
  return path;
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/** Runs axe-core in the page (without the rules named in `rulesOff`); returns the serious and critical violations. */
export async function seriousA11yViolations(page: Page, rulesOff: string[] = []): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(async (off) => {
    const rules = Object.fromEntries(off.map((id) => [id, { enabled: false }]));
    const r = await (window as any).axe.run(document, { resultTypes: ['violations'], rules });
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n: any) => ({ target: n.target })) }));
  }, rulesOff)) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

const inToast = (v: AxeViolation) => v.nodes.some((n) => n.target.join(' ').includes('mantine-Notification'));

/**
 * Asserts axe finds nothing serious or critical (the message names each violation and where). A toast that begins
 * its fade-out (auto-close) while axe runs is measured half transparent and fails on contrast (seen once in a full
 * run); when a finding is inside a toast, the toasts are let settle (each fully opaque, or gone) and axe runs again,
 * whose findings count. A toast that fails while fully shown fails both runs.
 */
export async function expectAccessible(page: Page, rulesOff: string[] = []) {
  let found = await seriousA11yViolations(page, rulesOff);
  if (found.some(inToast)) {
    await page.waitForFunction(() => [...document.querySelectorAll('.mantine-Notification-root')].every((toast) => {
      for (let el: Element | null = toast; el; el = el.parentElement) if (Number(getComputedStyle(el).opacity) < 1) return false;
      return true;
    }), undefined, { timeout: 10_000 });
    found = await seriousA11yViolations(page, rulesOff);
  }
  expect(found.map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/**
 * What a phone would have to scroll sideways inside the page (a table wider than the screen in its scroll
 * container): the page itself may not overflow, and on a phone no part of it should either.
 */
export async function sidewaysScrollers(page: Page): Promise<string[]> {
  return page.evaluate(() => [
    ...[...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.className.toString().slice(0, 60) || el.tagName} (${el.clientWidth} of ${el.scrollWidth} px)`),
    // A table in a box that hides what sticks out (a card) is cut off instead: as bad.
    ...[...document.querySelectorAll<HTMLElement>('table')]
      .filter((el) => el.parentElement && el.getClientRects().length > 0 && el.offsetWidth > el.parentElement.clientWidth + 1)
      .map((el) => `table ${el.getAttribute('aria-label') ?? ''} (${el.parentElement!.clientWidth} of ${el.offsetWidth} px)`),
  ]);
}

/** The page at 1280 px and 390 px wide, light and dark: screenshots saved, axe run on each. */
export async function checkEveryLook(page: Page, name: string, open: (page: Page) => Promise<void>, o: { axeRulesOff?: string[] } = {}) {
  for (const width of [1280, 390]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 800 });
      await page.emulateMedia({ colorScheme: scheme });
      await open(page);
      await screenshot(page, `${name}-${width}-${scheme}`);
      await expectAccessible(page, o.axeRulesOff);
      // Nothing may stick out sideways on a phone.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      if (width < 576) expect(await sidewaysScrollers(page)).toEqual([]);
    }
  }
}
