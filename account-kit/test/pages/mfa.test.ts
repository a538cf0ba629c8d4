// The TOTP prompt: a person with MFA on signs in with their password, the dialog asks for the six digits of their
// authenticator app (computed here with otpauth from the same secret), and they are in.
import { describe, expect, test } from 'bun:test';
import * as OTPAuth from 'otpauth';
import { newProject, openDemo, screenshot, setupBrowserSuite, signUp, signedInAs, type TestProject } from '../support/browser';
import type { Page } from 'playwright-core';

const { svc } = await setupBrowserSuite();
const project = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false } });

/** A user who turned TOTP on (PATCH /users/me with the secret, what the settings page does). */
async function mfaUser(p: TestProject) {
  const user = await signUp(p);
  const secret = new OTPAuth.Secret({ size: 20 });
  const totp = new OTPAuth.TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 });
  const res = await p.client.patch('/users/me', { totp_secret_base64: Buffer.from(secret.bytes).toString('base64') }, { accessToken: user.accessToken });
  expect(res.body.requires_totp_mfa).toBe(true);
  return { ...user, totp };
}

async function submitPassword(page: Page, email: string, password: string) {
  await page.goto('/handler/sign-in');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

describe('TOTP after the password', () => {
  test('the dialog asks for the six-digit code; the current code signs in', async () => {
    const user = await mfaUser(project);
    const { context, page } = await openDemo(svc, { project });
    await submitPassword(page, user.email, user.password);
    const dialog = page.getByRole('dialog', { name: 'Two-factor authentication' });
    await dialog.getByText('Please enter the six-digit TOTP code from your authenticator app.').waitFor();
    // Focus is in the first digit: the person just types.
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Authenticator code 1');
    await screenshot(page, 'mfa-dialog');
    // A code typed in the last seconds of its 30 s step could expire in flight: wait for a fresh step.
    if (30 - (Math.floor(Date.now() / 1000) % 30) < 5) await Bun.sleep(6000);
    await page.keyboard.type(user.totp.generate());
    await page.waitForURL((u) => u.pathname === '/');
    expect(await signedInAs(page)).toContain(user.email);
    await context.close();
  });

  test('a wrong code keeps the dialog open with the error under the field; the right code then signs in (issue 25)', async () => {
    const user = await mfaUser(project);
    const { context, page } = await openDemo(svc, { project });
    await submitPassword(page, user.email, user.password);
    const dialog = page.getByRole('dialog', { name: 'Two-factor authentication' });
    await dialog.waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Authenticator code 1');
    const current = user.totp.generate();
    await page.keyboard.type(current === '000000' ? '111111' : '000000');
    const error = dialog.getByRole('alert');
    await error.waitFor();
    expect(await error.textContent()).toBe('That code is not valid. Enter the current code from your authenticator app.');
    // The error is tied to the field, the dialog is still there and the sign-in form shows nothing yet.
    const box = page.getByLabel('Authenticator code 1', { exact: true });
    expect((await box.getAttribute('aria-describedby'))?.split(' ')).toContain((await error.getAttribute('id'))!);
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('Invalid TOTP code. Please try signing in again.').count()).toBe(0);
    await screenshot(page, 'mfa-dialog-wrong-code');
    // A second wrong try, then the right one: the same attempt code, no password typed again.
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Authenticator code 1');
    await page.keyboard.type(current === '222222' ? '333333' : '222222');
    await page.waitForFunction(() => !(document.querySelector('[aria-label="Authenticator code 1"]') as HTMLInputElement | null)?.disabled && document.activeElement?.getAttribute('aria-label') === 'Authenticator code 1');
    await error.waitFor();
    if (30 - (Math.floor(Date.now() / 1000) % 30) < 5) await Bun.sleep(6000);
    await page.keyboard.type(user.totp.generate());
    await page.waitForURL((u) => u.pathname === '/');
    expect(await signedInAs(page)).toContain(user.email);
    await context.close();
  });

  test('once the attempt is used up (its 20 tries), the dialog closes and the form says to sign in again (issue 25)', async () => {
    const user = await mfaUser(project);
    const { context, page } = await openDemo(svc, { project });
    await submitPassword(page, user.email, user.password);
    const dialog = page.getByRole('dialog', { name: 'Two-factor authentication' });
    await dialog.waitFor();
    let tries = 0;
    while (await dialog.isVisible() && tries < 25) {
      await page.waitForFunction(() => {
        const box = document.querySelector('[aria-label="Authenticator code 1"]') as HTMLInputElement | null;
        return !box || (!box.disabled && document.activeElement === box);
      });
      if (!(await dialog.isVisible())) break;
      await page.keyboard.type(user.totp.generate() === '000000' ? '111111' : '000000');
      tries++;
      await page.waitForFunction(() => !(document.querySelector('[aria-label="Authenticator code 1"]') as HTMLInputElement | null)?.disabled);
    }
    await page.getByText('Invalid TOTP code. Please try signing in again.').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    // Every try until the service's 20-attempt limit was answered in the dialog (21 when measured).
    expect(tries).toBeGreaterThanOrEqual(20);
    expect(tries).toBeLessThanOrEqual(21);
    await context.close();
  });

  test('cancelling the dialog leaves the person on the sign-in page with the same message', async () => {
    const user = await mfaUser(project);
    const { context, page } = await openDemo(svc, { project });
    await submitPassword(page, user.email, user.password);
    const dialog = page.getByRole('dialog', { name: 'Two-factor authentication' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Invalid TOTP code. Please try signing in again.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/handler/sign-in');
    await context.close();
  });
});
