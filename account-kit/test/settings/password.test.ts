// Password: update it ("Incorrect password." on the old-password field for a wrong one) and sign in with the new
// one; a person who signed up with an emailed code sets a first password.
import { describe, expect, test } from 'bun:test';
import { extractOtp, mailTo, screenshot, setupBrowserSuite, uniqueEmail } from '../support/browser';
import { enterEmailCode, openSettings, settingsProject, signInWithPassword, signedInUser, openPage } from './support';

const { svc } = await setupBrowserSuite();
const project = await settingsProject(svc);

describe('account settings: password', () => {
  test('update: the form checks, a wrong old password, then the right one; the new password signs in', async () => {
    const { context, page, user } = await signedInUser(svc, project);
    await openSettings(page, 'auth', 'Emails & Auth');
    await page.getByText('Update your password').waitFor();
    await page.getByRole('button', { name: 'Update password' }).click();

    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('Please enter your old password').waitFor();
    await page.getByText('Please enter your password').waitFor();
    await page.getByText('Please repeat your password').waitFor();

    await page.getByLabel('Old password', { exact: true }).fill('not-my-password');
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Repeat new password', { exact: true }).fill('different');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('Password too short. Minimum length is 8.').waitFor();
    await page.getByText('Passwords do not match').waitFor();
    // Typing in one new-password field clears both errors.
    await page.getByLabel('New password', { exact: true }).fill('brand-new-password-1');
    expect(await page.getByText('Passwords do not match').count()).toBe(0);

    await page.getByLabel('Repeat new password', { exact: true }).fill('brand-new-password-1');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('Incorrect password.').waitFor();
    // The message is the old-password field's own error.
    const describedBy = await page.getByLabel('Old password', { exact: true }).evaluate((el) =>
      (el.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' '));
    expect(describedBy).toContain('Incorrect password.');

    await page.getByLabel('Old password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('Your password has been updated.').waitFor();
    await page.getByRole('button', { name: 'Update password' }).waitFor();
    await context.close();

    const fresh = await openPage(svc, { project });
    await signInWithPassword(fresh.page, user.email, 'brand-new-password-1');
    await fresh.context.close();
  }, 240_000);

  test('a person without a password (signed up with an emailed code) sets one', async () => {
    const email = uniqueEmail('otp');
    const { context, page } = await openPage(svc, { project });
    const since = Date.now();
    await page.goto('/handler/sign-up');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send email' }).click();
    await page.getByText(`A sign-in email has been sent to ${email}.`, { exact: false }).waitFor().catch(async (e) => { await screenshot(page, 'debug-otp-signup'); throw e; });
    const code = extractOtp(await mailTo(svc, email, { since }))!;
    await enterEmailCode(page, code);
    await page.waitForURL((u) => u.pathname === '/');

    await openSettings(page, 'auth', 'Emails & Auth');
    await page.getByText('Set a password for your account').waitFor();
    await page.getByRole('button', { name: 'Set password' }).click();
    expect(await page.getByLabel('Old password', { exact: true }).count()).toBe(0);
    await page.getByLabel('New password', { exact: true }).fill('first-password-1');
    await page.getByLabel('Repeat new password', { exact: true }).fill('first-password-1');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await page.getByText('Your password has been set.').waitFor();
    await page.getByText('Update your password').waitFor();
    await context.close();

    const fresh = await openPage(svc, { project });
    await signInWithPassword(fresh.page, email, 'first-password-1');
    await fresh.context.close();
  }, 240_000);
});
