// Issue 26: in the desktop app, an owner's sign-in that leaves the window (OAuth, a mailed magic link) opens the
// system browser and comes back to the app through a loopback listener of the main process (RFC 8252 §7.3), on the
// screen it started from. Before, it went to the service's /handler pages: the demo app's, signed in there instead.
// The listener and the handlers are the real main-process code; the window is the console's renderer in Chromium
// with the real preload bridge (desktop-bridge-in-page.ts); the "system browser" is a second browser context.
import { afterAll, describe, expect, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { DESKTOP_CONSOLE_RETURN_PATH } from '@gatehouse/shared/rules/urls';
import { SIGN_IN_RETURN_PATH } from '../src/shared/bridge';
import { createSignInReturns, deliverToWindow } from '../src/main/sign-in-returns';
import { desktopReturnUrls, ownerCallbackOfReturn } from '../src/renderer/lib/owner-callback';
import { storageCookieDocument } from '../src/renderer/lib/desktop-browser';
import { sharedBrowser } from '../../account-kit/test/support/browser';
import { checkLooks, createProject, setupConsoleSuite, uniqueEmail } from './support/console';
import { serveConsoleBuild } from './support/console-build-server';
import { installDesktopMain, type DesktopMain } from './support/desktop-bridge-in-page';

describe('the loopback listener (main process)', () => {
  test('answers the two return paths with a page that loads nothing, and hands the address to the window', async () => {
    const delivered: string[] = [];
    const returns = createSignInReturns((url) => delivered.push(url));
    try {
      const base = await returns.baseUrl();
      expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/gatehouse-console\/$/);
      expect(await returns.baseUrl()).toBe(base);
      // The main process bundles nothing of shared/: the path it listens on is the one the service trusts.
      expect(SIGN_IN_RETURN_PATH).toBe(DESKTOP_CONSOLE_RETURN_PATH);

      const res = await fetch(`${base}oauth?connection=c1&code=the-code&state=s`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const page = await res.text();
      expect(page).toContain('Back to the Gatehouse console');
      expect(page).not.toContain('the-code');
      expect(page).not.toContain('<script');
      expect(delivered).toEqual([`${base}oauth?connection=c1&code=the-code&state=s`]);

      await fetch(`${base}magic-link?connection=c1&code=abc`);
      expect(delivered[1]).toBe(`${base}magic-link?connection=c1&code=abc`);
    } finally {
      await returns.close();
    }
  });

  test('refuses other paths, methods and Host names, and hands nothing over then', async () => {
    const delivered: string[] = [];
    const returns = createSignInReturns((url) => delivered.push(url));
    try {
      const base = await returns.baseUrl();
      const port = new URL(base).port;
      expect((await fetch(`http://127.0.0.1:${port}/other?code=x`)).status).toBe(404);
      expect((await fetch(`${base}oauthx?code=x`)).status).toBe(404);
      expect((await fetch(`${base}oauth?code=x`, { method: 'POST' })).status).toBe(405);
      // A page elsewhere whose DNS name now points at 127.0.0.1 (DNS rebinding) sends its own Host.
      expect((await fetch(`${base}oauth?code=x`, { headers: { host: `attacker.example:${port}` } })).status).toBe(400);
      expect(delivered).toEqual([]);
    } finally {
      await returns.close();
    }
    // Closed: the port is free again.
    await expect(fetch(await (async () => { const r = createSignInReturns(() => {}); const b = await r.baseUrl(); await r.close(); return b; })())).rejects.toThrow();
  });

  test('the window is restored when minimized, brought to the front and told', () => {
    const calls: string[] = [];
    const win = (minimized: boolean) => ({
      isMinimized: () => minimized, restore: () => calls.push('restore'), focus: () => calls.push('focus'), send: (u: string) => calls.push(`send ${u}`),
    });
    deliverToWindow(win(true), 'u1');
    deliverToWindow(win(false), 'u2');
    deliverToWindow(null, 'u3');
    expect(calls).toEqual(['restore', 'focus', 'send u1', 'focus', 'send u2']);
  });
});

describe('the renderer\'s side', () => {
  test('return addresses per connection, and what a returned address means', () => {
    const base = 'http://127.0.0.1:5123/gatehouse-console/';
    expect(desktopReturnUrls(base, 'c 1')).toEqual({
      oauthCallback: 'http://127.0.0.1:5123/gatehouse-console/oauth?connection=c%201',
      magicLinkCallback: 'http://127.0.0.1:5123/gatehouse-console/magic-link?connection=c%201',
    });
    const oauth = `${base}oauth?connection=c%201&code=x&state=y`;
    expect(ownerCallbackOfReturn(oauth)).toEqual({ connectionId: 'c 1', callback: { kind: 'oauth', address: oauth } });
    expect(ownerCallbackOfReturn(`${base}magic-link?connection=c1&code=abc`)).toEqual({ connectionId: 'c1', callback: { kind: 'magic-link', code: 'abc' } });
    for (const other of [`${base}oauth?code=x`, `${base}other?connection=c1`, 'https://127.0.0.1:5123/gatehouse-console/oauth?connection=c1', 'http://example.com/gatehouse-console/oauth?connection=c1', 'nonsense']) {
      expect(ownerCallbackOfReturn(other)).toBeNull();
    }
  });

  test('the OAuth verifier\'s cookie jar over sessionStorage: written, read, expired, deleted', () => {
    const data = new Map<string, string>();
    const storage = {
      get length() { return data.size; },
      key: (i: number) => [...data.keys()][i] ?? null,
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      removeItem: (k: string) => void data.delete(k),
    };
    let now = Date.parse('2026-11-27T12:00:00Z');
    const doc = storageCookieDocument(storage, () => now);
    doc.cookie = `stack-oauth-outer-abc=verifier%201; path=/; expires=${new Date(now + 3_600_000).toUTCString()}`;
    doc.cookie = 'session-only=1; path=/';
    expect(doc.cookie).toBe('stack-oauth-outer-abc=verifier%201; session-only=1');
    doc.cookie = `session-only=; path=/; expires=${new Date(now - 86_400_000).toUTCString()}`;
    expect(doc.cookie).toBe('stack-oauth-outer-abc=verifier%201');
    now += 3_600_001;
    expect(doc.cookie).toBe('');
    expect(data.size).toBe(0);
  });
});

const { svc } = await setupConsoleSuite();
const contexts: BrowserContext[] = [];
const mains: DesktopMain[] = [];
afterAll(async () => {
  for (const c of contexts) await c.close();
  for (const m of mains) await m.returns.close();
});

/** The desktop app's window (the renderer with the bridge) and the main process behind it. */
async function desktopWindow(): Promise<{ page: Page; main: DesktopMain }> {
  const context = await (await sharedBrowser()).newContext({ viewport: { width: 1024, height: 800 } });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('[console page error]', err.message));
  const appUrl = serveConsoleBuild();
  const main = await installDesktopMain(page, appUrl);
  mains.push(main);
  await page.goto(appUrl);
  return { page, main };
}

/** Waits for a heading; on failure says what the window showed instead. */
async function shows(page: Page, name: string, level?: number) {
  await page.getByRole('heading', { name, ...(level ? { level } : {}) }).waitFor().catch(async (e: Error) => {
    throw new Error(`${e.message}\nat ${page.url()}: ${await page.locator('body').innerText()}`);
  });
}

async function until(condition: () => boolean, timeoutMs = 15_000) {
  for (const end = Date.now() + timeoutMs; !condition(); await Bun.sleep(50)) if (Date.now() > end) throw new Error(`not so after ${timeoutMs} ms: ${condition}`);
}

/** The system browser: a browser of its own, sharing nothing with the app's window. */
async function systemBrowser(): Promise<Page> {
  const context = await (await sharedBrowser()).newContext({ viewport: { width: 1024, height: 800 } });
  contexts.push(context);
  return context.newPage();
}

/** The internal project's publishable key, which the service's own console page carries (an owner copies it). */
async function internalKey(): Promise<string> {
  const html = await (await fetch(`${svc.url}/console/`)).text();
  const content = /name="gatehouse-console-config" content="([^"]*)"/.exec(html)![1]!.replaceAll('&quot;', '"');
  return JSON.parse(content).publishableClientKey;
}

async function connectOwner(page: Page) {
  await page.getByRole('heading', { name: 'Connect to Gatehouse' }).waitFor();
  await page.getByRole('textbox', { name: 'Service URL' }).fill(svc.url);
  await page.getByRole('textbox', { name: 'Publishable client key of the internal project' }).fill(await internalKey());
  await page.getByRole('button', { name: 'Continue to sign in' }).click();
}

describe('owner sign-in from the desktop app', () => {
  let email: string;
  let projectId: string;

  test('setup: an owner with a verified address and a project, signed up in the app', async () => {
    const { page } = await desktopWindow();
    await connectOwner(page);
    email = uniqueEmail('desktop-owner');
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Create a new account' }).waitFor();
    await page.getByRole('tab', { name: 'Password' }).click().catch(() => {});
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('a-long-desktop-password-1');
    await page.getByLabel('Repeat Password').fill('a-long-desktop-password-1');
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await shows(page, 'Projects');
    projectId = await createProject(page, 'Desktop return');
    const verification = await svc.sharedMailbox.waitForMail((m) => m.to.includes(email), 30_000);
    const browser = await systemBrowser();
    await browser.goto(verification.text.match(/https?:\/\/\S+/)![0]);
    await browser.getByRole('button', { name: 'Verify' }).click();
    await browser.getByRole('heading', { name: 'Your email has been verified!' }).waitFor();
  });

  test('OAuth: the provider opens in the system browser, and the app is signed in when it comes back', async () => {
    const { page, main } = await desktopWindow();
    await connectOwner(page);
    await page.getByRole('button', { name: 'Sign in with GitHub' }).click();
    await until(() => main.opened.length === 1);
    const authorize = new URL(main.opened[0]!);
    expect(authorize.origin).toBe(svc.url);
    const redirect = new URL(authorize.searchParams.get('redirect_uri')!);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(`${await main.returns.baseUrl()}oauth`);
    // The window itself did not leave the app.
    expect(page.url().startsWith(serveConsoleBuild())).toBe(true);

    const browser = await systemBrowser();
    await browser.goto(main.opened[0]!);
    await browser.locator('input[name="login"]').fill(uniqueEmail('desktop-oauth'));
    await browser.locator('input[name="password"]').fill('any-password');
    await browser.locator('button[type="submit"]').click();
    await browser.waitForURL((u) => u.hostname === '127.0.0.1' || /consent|interaction/.test(u.pathname));
    if (!browser.url().includes(SIGN_IN_RETURN_PATH)) await browser.locator('button[type="submit"]').click();
    await browser.getByRole('heading', { name: 'Back to the Gatehouse console' }).waitFor();
    expect(new URL(browser.url()).pathname).toBe(`${SIGN_IN_RETURN_PATH}oauth`);

    await shows(page, 'Projects');
    expect(main.focused).toBe(1);
    // A new account, so no projects; the session is the app's, not the browser's: the window started again
    // (same main process, its stored refresh token) is still signed in.
    await page.getByRole('button', { name: 'Create project' }).first().waitFor();
    await page.reload();
    await shows(page, 'Projects');
  });

  test('magic link: asked for on a project\'s screen; the mailed link, opened in the browser, signs the app in there', async () => {
    const { page } = await desktopWindow();
    await connectOwner(page);
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
    const connectionId = /#\/c\/([^/]+)/.exec(new URL(page.url()).hash)![1]!;
    // Started from a project's screen (an expired session): that screen opens once signed in.
    await page.evaluate((hash) => { location.hash = hash; }, `#/c/${connectionId}/p/${encodeURIComponent(projectId)}/sent-emails`);
    await page.getByRole('tab', { name: 'Email', exact: true }).click();
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    const since = Date.now();
    await page.getByRole('button', { name: 'Send email' }).click();
    const mail = await svc.sharedMailbox.waitForMail((m) => m.to.includes(email) && m.receivedAt >= since, 30_000);
    const link = mail.text.match(/https?:\/\/\S+/g)!.find((u) => u.includes(SIGN_IN_RETURN_PATH))!;
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/gatehouse-console\/magic-link\?connection=/);

    const browser = await systemBrowser();
    await browser.goto(link);
    await browser.getByRole('heading', { name: 'Back to the Gatehouse console' }).waitFor();
    // The app asks first, as the web console does.
    await page.getByTestId('magic-link-confirm').waitFor();
    await checkLooks(page, 'desktop-magic-link-confirm', (p) => p.getByTestId('magic-link-confirm').waitFor());
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await shows(page, 'Sent emails', 1);
    expect(new URL(page.url()).hash).toBe(`#/c/${connectionId}/p/${encodeURIComponent(projectId)}/sent-emails`);
  });
});
