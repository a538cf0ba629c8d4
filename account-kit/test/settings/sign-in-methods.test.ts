// Passkey, OTP sign-in and MFA: register a passkey with Chromium's virtual authenticator and sign in with it;
// enable OTP and sign in with an emailed code; enable MFA from the setup key (a real TOTP code) and sign in again
// through the TOTP prompt. Each also turned off again.
import { describe, expect, test } from 'bun:test';
import * as OTPAuth from 'otpauth';
import { addVirtualAuthenticator, extractOtp, mailTo, screenshot, setupBrowserSuite } from '../support/browser';
import { answerTotpPrompt, enterEmailCode, openSettings, serverUser, settingsProject, signedInUser, verifyEmailFromMail, openPage } from './support';

const { svc } = await setupBrowserSuite();
const project = await settingsProject(svc);

describe('account settings: sign-in methods', () => {
  test('passkey: needs a verified sign-in email; register, sign in with it, then disable', async () => {
    const { context, page, user } = await signedInUser(svc, project);
    await addVirtualAuthenticator(page);
    await openSettings(page, 'auth', 'Emails & Auth');
    await page.getByText('To enable Passkey sign-in, please add a verified sign-in email.').waitFor();

    await verifyEmailFromMail(svc, page, user.email);
    await openSettings(page, 'auth', 'Emails & Auth');
    await page.getByText('Register a passkey').waitFor();
    await page.getByRole('button', { name: 'Add new passkey' }).click();
    await page.getByText('Passkey registered').waitFor();
    await page.getByRole('button', { name: 'Delete Passkey' }).waitFor();

    // Sign out, then in again with the passkey only.
    await openSettings(page, 'settings', 'Settings');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are not signed in.').waitFor();
    await page.goto('/handler/sign-in');
    await page.getByRole('button', { name: 'Sign in with Passkey' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await expect(page.getByTestId('signed-in-as').textContent()).resolves.toContain(user.email);

    await openSettings(page, 'auth', 'Emails & Auth');
    await page.getByRole('button', { name: 'Delete Passkey' }).click();
    await page.getByText('Are you sure you want to disable Passkey sign-in? You will not be able to sign in with your passkey anymore.').waitFor();
    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    await page.getByText('Register a passkey').waitFor();
    expect((await serverUser(project, user.userId)).passkey_auth_enabled).toBe(false);
    await context.close();
  }, 240_000);

  test('OTP sign-in: enable, sign in with an emailed code, disable with a confirmation', async () => {
    const { context, page, user } = await signedInUser(svc, project);
    await verifyEmailFromMail(svc, page, user.email);
    await openSettings(page, 'auth', 'Emails & Auth');
    await page.getByText('Enable sign-in via magic link or OTP sent to your sign-in emails.').waitFor();
    await page.getByRole('button', { name: 'Enable OTP' }).click();
    await page.getByText('OTP/magic link sign-in is currently enabled.').waitFor();
    await context.close();

    const fresh = await openPage(svc, { project });
    const since = Date.now();
    await fresh.page.goto('/handler/sign-in');
    await fresh.page.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
    await fresh.page.getByRole('button', { name: 'Send email' }).click();
    await enterEmailCode(fresh.page, extractOtp(await mailTo(svc, user.email, { since }))!);
    await fresh.page.waitForURL((u) => u.pathname === '/');

    await openSettings(fresh.page, 'auth', 'Emails & Auth');
    await fresh.page.getByRole('button', { name: 'Disable OTP' }).click();
    await fresh.page.getByText('Are you sure you want to disable OTP sign-in? You will not be able to sign in with only emails anymore.').waitFor();
    await fresh.page.getByRole('button', { name: 'Disable', exact: true }).click();
    await fresh.page.getByText('Enable sign-in via magic link or OTP sent to your sign-in emails.').waitFor();
    expect((await serverUser(project, user.userId)).otp_auth_enabled).toBe(false);
    await fresh.context.close();
  }, 240_000);

  test('MFA: the QR code and setup key, a wrong code, the right one; sign-in asks for the code; disable', async () => {
    const { context, page, user } = await signedInUser(svc, project);
    await openSettings(page, 'auth', 'Emails & Auth');
    await page.getByText('Multi-factor authentication is currently disabled.').waitFor();
    await page.getByRole('button', { name: 'Enable MFA' }).click();
    await page.getByText('Scan this QR code with your authenticator app:').waitFor();
    const qr = page.getByRole('img', { name: 'TOTP multi-factor authentication QR code' });
    await qr.waitFor();
    expect(await qr.evaluate((img: HTMLImageElement) => [img.naturalWidth > 0, img.getBoundingClientRect().width])).toEqual([true, 200]);
    await screenshot(page, 'settings-mfa-enrolment');

    // The authenticator app: the setup key the page shows for copying.
    const uri = (await page.getByTestId('otpauth-uri').textContent())!;
    const totp = OTPAuth.URI.parse(uri) as OTPAuth.TOTP;
    expect(totp.issuer).toBe('Settings test');
    expect(totp.label).toBe(user.email);

    const codeBox = page.getByRole('textbox', { name: 'Six-digit MFA code' });
    const right = totp.generate();
    await codeBox.fill(right === '000000' ? '111111' : '000000');
    await page.getByText('Incorrect code. Please try again.').waitFor();
    await codeBox.fill(totp.generate());
    await page.getByText('Multi-factor authentication is currently enabled.').waitFor();
    expect((await serverUser(project, user.userId)).requires_totp_mfa).toBe(true);
    await context.close();

    const fresh = await openPage(svc, { project });
    await fresh.page.goto('/handler/sign-in');
    const tab = fresh.page.getByRole('tab', { name: 'Email & Password' });
    await tab.click();
    await fresh.page.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
    await fresh.page.getByLabel('Password', { exact: true }).fill(user.password);
    await fresh.page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await answerTotpPrompt(fresh.page, totp.generate());
    await fresh.page.waitForURL((u) => u.pathname === '/');
    await expect(fresh.page.getByTestId('signed-in-as').textContent()).resolves.toContain(user.email);

    await openSettings(fresh.page, 'auth', 'Emails & Auth');
    await fresh.page.getByRole('button', { name: 'Disable MFA' }).click();
    await fresh.page.getByText('Multi-factor authentication is currently disabled.').waitFor();
    expect((await serverUser(project, user.userId)).requires_totp_mfa).toBe(false);
    await fresh.context.close();
  }, { timeout: 240_000, retry: 1 }); // Known flake (once in a quiet CI rehearsal the setup key never showed): retried while it is investigated.

  test('MFA: a person who opens another item mid-enrolment comes back to the same setup key, and it works', async () => {
    const { context, page, user } = await signedInUser(svc, project);
    await openSettings(page, 'auth', 'Emails & Auth');
    await page.getByRole('button', { name: 'Enable MFA' }).click();
    const uri = (await page.getByTestId('otpauth-uri').textContent())!;
    // Scanned into the app; then a look at the profile, through the sidebar (the page is not reloaded).
    await page.getByRole('link', { name: 'My Profile' }).click();
    await page.getByRole('heading', { name: 'My Profile', level: 2 }).waitFor();
    expect(await page.getByTestId('otpauth-uri').count()).toBe(0);
    await page.getByRole('link', { name: 'Emails & Auth' }).click();
    expect(await page.getByTestId('otpauth-uri').textContent()).toBe(uri);
    await page.getByRole('textbox', { name: 'Six-digit MFA code' }).fill((OTPAuth.URI.parse(uri) as OTPAuth.TOTP).generate());
    await page.getByText('Multi-factor authentication is currently enabled.').waitFor();
    expect((await serverUser(project, user.userId)).requires_totp_mfa).toBe(true);
    // Disabled again, Enable starts over with a new key.
    await page.getByRole('button', { name: 'Disable MFA' }).click();
    await page.getByRole('button', { name: 'Enable MFA' }).click();
    expect(await page.getByTestId('otpauth-uri').textContent()).not.toBe(uri);
    await context.close();
  }, 240_000);
});
