// The service asks for a recent sign-in (RECENT_SIGN_IN_REQUIRED) before sensitive changes. With an old session
// (a service whose window is a few seconds) the page explains why, "Sign in again" leads to the sign-in page and
// back to the same section, where the change then goes through.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import * as OTPAuth from 'otpauth';
import { type KitService, failOnBrowserErrors, sharedBrowser, screenshot } from '../support/browser';
import { startService } from '../../../service/test/support/service';
import { startSmtpFixture } from '../../../service/test/support/smtp';
import { newProject } from '../support/browser';
import { FULL_CONFIG, signInWithPassword, signUp, openPage } from './support';

// Only its own service (not the kit's shared one) and the browser.
setDefaultTimeout(400_000);
failOnBrowserErrors();
await sharedBrowser();
const WINDOW_S = 12;
const mailbox = await startSmtpFixture();
// A busy machine may need more than a minute to start a service.
const base = await startService({ startTimeoutMs: 180_000, env: { SMTP_URL: mailbox.url, GATEHOUSE_RATE_LIMITS: 'off', GATEHOUSE_RECENT_SIGN_IN_SECONDS: String(WINDOW_S) } });
const svc: KitService = { ...base, mailbox };
const project = await newProject(svc, { config: FULL_CONFIG });
afterAll(async () => { await base.stop(); await mailbox.stop(); });
/** How long after its sign-in a session is old for the service (the window and a second more). */
const AGE_MS = (WINDOW_S + 1) * 1000;

/**
 * The MFA test's user, signed in (password and TOTP) on a page of its own, and when that session is old. The first
 * test starts this right after its own sign-in, so the two sessions age side by side (one wait of the window instead
 * of two, 13 s of the file's 38); run alone, the MFA test starts it itself. Its browser errors fail whichever test
 * is running when they happen.
 */
let mfaSession: ReturnType<typeof signInMfaUser> | undefined;
async function signInMfaUser() {
  const user = await signUp(project);
  // MFA is on (set through the server API, as an admin would).
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  expect((await project.server.patch(`/users/${user.userId}`, { totp_secret_base64: Buffer.from(bytes).toString('base64') })).status).toBe(200);
  const totp = new OTPAuth.TOTP({ secret: new OTPAuth.Secret({ buffer: bytes.buffer }) });
  const { context, page } = await openPage(svc, { project });
  let usedStep = -1;
  const signIn = async (expectPath: string) => {
    await page.getByRole('tab', { name: 'Email & Password' }).click();
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByLabel('Authenticator code 1', { exact: true }).click();
    // A code is accepted once: like a person, wait for the app's next code if this one was used already.
    while (totp.counter() === usedStep) await Bun.sleep(250);
    usedStep = totp.counter();
    await page.keyboard.type(totp.generate());
    await page.waitForURL((u) => u.pathname === expectPath);
  };
  await page.goto('/handler/sign-in');
  await signIn('/');
  return { user, context, page, signIn, oldAt: Date.now() + AGE_MS };
}

describe('account settings: sign in again for sensitive changes', () => {
  test('an old session: delete account asks to sign in again, returns to Settings, then deletes', async () => {
    const user = await signUp(project);
    const { context, page } = await openPage(svc, { project });
    await signInWithPassword(page, user.email, user.password);
    const oldAt = Date.now() + AGE_MS;
    mfaSession = signInMfaUser();
    // Settled here (its failure is the MFA test's to report), before this test's wait is over.
    await mfaSession.catch(() => {});
    await Bun.sleep(Math.max(0, oldAt - Date.now()));

    await page.goto('/handler/account-settings#settings');
    await page.getByRole('button', { name: 'Danger zone' }).click();
    await page.getByRole('button', { name: 'Delete account' }).click();
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Please sign in again' });
    await dialog.getByText('For your security, this change needs a recent sign-in.', { exact: false }).waitFor();
    await screenshot(page, 'settings-reauth-dialog');
    expect((await project.server.get(`/users/${user.userId}`)).status).toBe(200);

    await dialog.getByRole('button', { name: 'Sign in again' }).click();
    await page.waitForURL((u) => u.pathname === '/handler/sign-in');
    expect(new URL(page.url()).searchParams.get('after_auth_return_to')).toBe('/handler/account-settings#settings');
    await signInWithPassword(page, user.email, user.password, { expectPath: '/handler/account-settings' });
    expect(new URL(page.url()).hash).toBe('#settings');

    await page.getByRole('button', { name: 'Danger zone' }).click();
    await page.getByRole('button', { name: 'Delete account' }).click();
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    expect((await project.server.get(`/users/${user.userId}`)).status).toBe(404);
    await context.close();
  }, 240_000);

  test('an old session: turning MFA off asks to sign in again, and works after it', async () => {
    const { user, context, page, signIn, oldAt } = await (mfaSession ??= signInMfaUser());
    await Bun.sleep(Math.max(0, oldAt - Date.now()));

    await page.goto('/handler/account-settings#auth');
    await page.getByRole('button', { name: 'Disable MFA' }).click();
    await page.getByRole('dialog', { name: 'Please sign in again' }).getByRole('button', { name: 'Sign in again' }).click();
    await page.waitForURL((u) => u.pathname === '/handler/sign-in');
    await signIn('/handler/account-settings');
    expect(new URL(page.url()).hash).toBe('#auth');
    await page.getByRole('button', { name: 'Disable MFA' }).click();
    await page.getByText('Multi-factor authentication is currently disabled.').waitFor();
    expect((await project.server.get(`/users/${user.userId}`)).body.requires_totp_mfa).toBe(false);
    await context.close();
  }, 240_000);
});
