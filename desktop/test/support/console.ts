// Browser tests of the console at /console: Debian's Chromium (playwright-core) against a real service with a
// real SMTP server (the shared mail server, and the server an owner configures) and a local OpenID provider
// standing in for every OAuth provider. One service and one browser per test process.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, setDefaultTimeout } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { expectAccessible, sharedBrowser, sidewaysScrollers } from '../../../account-kit/test/support/browser';
import { uniqueEmail, type RunningService } from '../../../service/test/support/service';
import { startPatientService } from './patient-service';
import { startSmtpFixture, type SmtpFixture } from '../../../service/test/support/smtp';
import { startOidcFixture, type OidcFixture } from '../../../service/test/support/oidc';
import { startTestDns, type TestDns } from '../../../service/test/support/dns';

export { expectAccessible, sidewaysScrollers, uniqueEmail };
export const ARTIFACTS = join(import.meta.dir, '../artifacts');

export interface ConsoleService extends RunningService {
  /** The service's shared mail server. */
  sharedMailbox: SmtpFixture;
  /** A second SMTP server an owner points their project at; refuses recipients starting with "bounce-". */
  projectMailbox: SmtpFixture;
  idp: OidcFixture;
  /** The DNS server the service verifies team domains with (loopback, dns2). */
  dns: TestDns;
}

let service: Promise<ConsoleService> | undefined;

async function launchConsoleService(env: Record<string, string> = {}): Promise<ConsoleService> {
  const [sharedMailbox, projectMailbox, idp, dns] = await Promise.all([
    startSmtpFixture(),
    startSmtpFixture({ rejectRecipients: /^bounce-/ }),
    startOidcFixture(),
    startTestDns(),
  ]);
  const svc = await startPatientService({ env: { SMTP_URL: sharedMailbox.url, GATEHOUSE_RATE_LIMITS: 'off', GATEHOUSE_DNS_SERVERS: dns.address, ...idp.overridesEnv(), ...env } });
  idp.addDevClients(svc.url);
  return { ...svc, sharedMailbox, projectMailbox, idp, dns };
}

/** The console service every test file of a test process shares (its settings are the defaults). */
export function consoleService(): Promise<ConsoleService> {
  service ??= launchConsoleService();
  return service;
}

/**
 * The suite's service and the shared browser. A file that needs other settings (`env`) gets a service of its own,
 * which it stops when done: the shared one may have been started by another file of the same test process, and
 * setting `process.env` would leak into every file that runs after it there.
 */
export async function setupConsoleSuite(o: { env?: Record<string, string> } = {}) {
  setDefaultTimeout(300_000);
  const [svc] = await Promise.all([o.env ? launchConsoleService(o.env) : consoleService(), sharedBrowser()]);
  if (o.env) afterAll(() => svc.stop());
  return { svc };
}

/** A fresh browser context (own cookies and localStorage) on the console, 1024 px wide unless said otherwise. */
export async function openConsole(svc: RunningService, o: { colorScheme?: 'light' | 'dark'; width?: number } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const browser = await sharedBrowser();
  const context = await browser.newContext({ viewport: { width: o.width ?? 1024, height: 800 }, colorScheme: o.colorScheme ?? 'light', baseURL: svc.url });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('[console page error]', err.message));
  await page.goto('/console/');
  return { context, page };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** The screen in light and dark at 1024 px: screenshots saved, axe run on each, nothing sticking out sideways. */
export async function checkLooks(page: Page, name: string, ready: (page: Page) => Promise<void>) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await ready(page);
    // Let Mantine's transitions settle, and start the full-page picture at the top (the header is fixed).
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(250);
    // A busy machine can stretch a transition past that wait: axe then measured a toast still fading in (a
    // color-contrast failure of the half-transparent toast). Wait for the finite ones to end (skeletons loop forever).
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity), undefined, { timeout: 5_000 }).catch(() => {});
    // Mantine's toasts fade by inline-style transitions, which a loaded machine can leave half done after that wait
    // (axe then failed a fading "API keys created" toast on contrast): wait until each toast is fully opaque.
    await page.waitForFunction(() => [...document.querySelectorAll('.mantine-Notification-root')].every((toast) => {
      for (let el: Element | null = toast; el; el = el.parentElement) if (Number(getComputedStyle(el).opacity) < 1) return false;
      return true;
    }), undefined, { timeout: 10_000 });
    await screenshot(page, `${name}-${scheme}`);
    await expectAccessible(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await cutHeaderTexts(page)).toEqual([]);
    if ((page.viewportSize()?.width ?? 1024) < 576) expect(await sidewaysScrollers(page)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * Runs `steps` with the client library's waits between retries (client-library §4: 0.5 to 1.5 s, doubling, four
 * waits of 7.5 to 22.5 s in all; shared/test/client covers their lengths) cut to 20 ms in the page, then gives the page
 * its own setTimeout back. For a test of what a screen shows once every try of a read has failed: the tries, their
 * number and the error the library gives up with are the library's own, only the idle seconds between them go.
 * A back-off wait is the one fraction of a millisecond the page asks for (its jitter is Math.random()); Mantine's
 * transitions, toasts and the library's cache timers ask for whole milliseconds and keep theirs.
 */
export async function withRetriesHurried<T>(page: Page, steps: () => Promise<T>): Promise<T> {
  await page.evaluate(() => {
    const w = window as unknown as { setTimeout: typeof setTimeout; __ownSetTimeout?: typeof setTimeout };
    const own = (w.__ownSetTimeout ??= w.setTimeout);
    w.setTimeout = ((fn: TimerHandler, ms?: number, ...rest: unknown[]) =>
      own(fn, typeof ms === 'number' && ms >= 500 && !Number.isInteger(ms) ? 20 : ms, ...rest)) as typeof setTimeout;
  });
  try {
    return await steps();
  } finally {
    await page.evaluate(() => {
      const w = window as unknown as { setTimeout: typeof setTimeout; __ownSetTimeout?: typeof setTimeout };
      if (w.__ownSetTimeout) w.setTimeout = w.__ownSetTimeout;
    });
  }
}

/** checkLooks at 1280 px, then at 390 px (the name gets the width), then at `thenWidth` (1024 px unless given). */
export async function checkLooksAtBothWidths(page: Page, name: string, ready: (page: Page) => Promise<void>, thenWidth = 1024) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await checkLooks(page, `${name}-${width}`, ready);
  }
  await page.setViewportSize({ width: thenWidth, height: 800 });
}

/** checkLooks at 390 px (a phone), then back to the width the page had. */
export async function checkLooksOnPhone(page: Page, name: string, ready: (page: Page) => Promise<void>) {
  const before = page.viewportSize() ?? { width: 1024, height: 800 };
  await page.setViewportSize({ width: 390, height: 800 });
  await checkLooks(page, `${name}-390`, ready);
  await page.setViewportSize(before);
}

/**
 * The texts of the header that do not show whole on one line: wrapped onto a second line (more than one line box)
 * or cut short (wider than their box, an ellipsis). The header is one row of 56 px; at 390 px its title once took
 * two lines and the connection shrank to "l…".
 */
export async function cutHeaderTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const header = document.querySelector('header');
    if (!header) return [];
    const cut: string[] = [];
    for (const el of header.querySelectorAll<HTMLElement>('*')) {
      const text = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent ?? '').join('').trim();
      if (!text || el.getClientRects().length === 0) continue;
      const range = document.createRange();
      range.selectNodeContents(el);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
      if (lines > 1 || el.scrollWidth > el.clientWidth + 1) cut.push(`${text} (${lines > 1 ? `${lines} lines` : `${el.clientWidth} of ${el.scrollWidth} px`})`);
    }
    return cut;
  });
}

/** Signs up a new owner through the console's connect screen and the account kit's sign-up form. */
export async function signUpOwner(page: Page, email = uniqueEmail('owner')): Promise<string> {
  await page.getByRole('button', { name: 'Continue to sign in' }).click();
  await page.getByRole('link', { name: 'Sign up' }).click();
  await page.getByRole('heading', { name: 'Create a new account' }).waitFor();
  const passwordTab = page.getByRole('tab', { name: 'Password' });
  if (await passwordTab.count()) await passwordTab.click();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('owner-password-1');
  await page.getByLabel('Repeat Password').fill('owner-password-1');
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
  return email;
}

/** Clicks a project screen in the left navigation and waits for its heading. */
export async function openScreen(page: Page, nav: string, heading = nav) {
  await page.getByRole('navigation', { name: 'Project navigation' }).getByRole('link', { name: nav }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/**
 * Waits for the toast, then closes it as a person who has read it does. Left open, a toast can lie over the next
 * button to click (a dialog's, or the header's), and the pointer resting on it pauses its closing timer.
 */
export async function notification(page: Page, text: string | RegExp) {
  const toast = page.locator('.mantine-Notification-root').filter({ hasText: text }).first();
  await toast.waitFor();
  await toast.locator('.mantine-Notification-closeButton').click({ timeout: 5_000 }).catch(() => { /* it closed itself */ });
  // Toasts sit at the bottom right, often right where the last click was: a pointer left resting on a toast whose
  // close click missed (it was still sliding in) pauses its timer for good.
  await page.mouse.move(0, 0);
  await toast.waitFor({ state: 'detached' });
}

/** Creates a project from the projects screen; returns its id (from the address the console opens). */
export async function createProject(page: Page, name: string, description = ''): Promise<string> {
  await page.getByRole('button', { name: 'Create project' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  if (description) await dialog.getByLabel('Description').fill(description);
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
  const m = /\/p\/([^/]+)\//.exec(new URL(page.url()).hash);
  if (!m) throw new Error(`no project in ${page.url()}`);
  return decodeURIComponent(m[1]!);
}

export interface ShownKeys {
  publishableClientKey: string;
  secretServerKey: string;
  superSecretAdminKey: string;
}

/** Creates a key set with all three keys on the API keys screen and reads them from the once-only dialog. */
export async function createAllKeys(page: Page, description: string): Promise<ShownKeys> {
  await openScreen(page, 'API keys');
  await page.getByRole('button', { name: 'Create API keys' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Description').fill(description);
  await setChecked(dialog.getByRole('checkbox', { name: 'Super secret admin key' }), true);
  await dialog.getByRole('button', { name: 'Create API keys' }).click();
  const shown = page.getByRole('dialog', { name: 'Copy your keys now' });
  await shown.waitFor();
  const keys = {
    publishableClientKey: (await shown.getByTestId('first-view-publishable').textContent())!,
    secretServerKey: (await shown.getByTestId('first-view-secret').textContent())!,
    superSecretAdminKey: (await shown.getByTestId('first-view-admin').textContent())!,
  };
  // The dialog stays until the owner says they copied the keys.
  expect(await shown.getByRole('button', { name: 'Close' }).isDisabled()).toBe(true);
  await page.keyboard.press('Escape');
  await expect(shown.isVisible()).resolves.toBe(true);
  await setChecked(shown.getByRole('checkbox', { name: 'I have copied the keys' }), true);
  await shown.getByRole('button', { name: 'Close' }).click();
  await shown.waitFor({ state: 'hidden' });
  return keys;
}

/** Checks or unchecks a Mantine checkbox/switch the way a person does: clicking its label. */
export async function setChecked(control: import('playwright-core').Locator, on: boolean) {
  if ((await control.isChecked()) === on) return;
  const id = await control.getAttribute('id');
  await control.page().locator(`label[for="${id}"]`).click();
  // A switch bound to saved state (production mode) flips once the service has answered.
  for (let i = 0; (await control.isChecked()) !== on; i++) {
    if (i > 100) throw new Error(`the control did not become ${on ? 'checked' : 'unchecked'}`);
    await control.page().waitForTimeout(100);
  }
}

export async function setSwitch(page: Page, name: string, on: boolean) {
  await setChecked(page.getByRole('switch', { name, exact: true }), on);
}

/** Opens a user's page from the Users screen, found by email (the list read afresh: another screen first). */
export async function openUserPage(page: Page, email: string) {
  await openScreen(page, 'API keys');
  await openScreen(page, 'Users');
  await page.getByLabel('Search users').fill(email);
  const row = page.getByTestId('user-row').filter({ hasText: email });
  await row.waitFor();
  await row.getByRole('link').click();
  await page.getByRole('button', { name: 'Delete user' }).waitFor();
}

/** Picks an option of a Mantine Select. */
export async function selectOption(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).first().click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
