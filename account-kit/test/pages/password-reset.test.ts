// Forgot password → the mail → the reset page (its code checked first) → a new password → sign in with it.
// And the states of a bad link: none, made up, already used.
import { describe, expect, test } from 'bun:test';
import { extractCodeLink, mailTo, newProject, openDemo, screenshot, setupBrowserSuite, signInWithPassword, signUp, signedInAs } from '../support/browser';

const { svc } = await setupBrowserSuite();
const project = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false } });

describe('forgot and reset password', () => {
  test('ask for the mail, open its link, choose a new password, sign in with it; the link then counts as used', async () => {
    const user = await signUp(project);
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/handler/sign-in');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset Your Password' }).waitFor();
    // Focus starts in the only field.
    await expect(page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).resolves.toBe('email');
    await page.getByRole('button', { name: 'Send Email' }).click();
    await page.getByText('Please enter your email').waitFor();
    await page.getByLabel('Your Email').fill(user.email);
    const since = Date.now();
    await page.getByRole('button', { name: 'Send Email' }).click();
    await page.getByRole('heading', { name: 'Email sent!' }).waitFor();
    await page.getByText(`we have sent an email to ${user.email}`, { exact: false }).waitFor();

    const link = extractCodeLink(await mailTo(svc, user.email, { since }))!;
    expect(new URL(link).pathname).toBe('/handler/password-reset');
    await page.goto(link);
    await page.getByRole('heading', { name: 'Reset Your Password' }).waitFor();
    await page.getByLabel('New Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Password must be at least 8 characters long').waitFor();
    await page.getByText('Please repeat your password').waitFor();
    await page.getByLabel('New Password', { exact: true }).fill('a-brand-new-pass-42');
    await page.getByLabel('Repeat New Password').fill('a-different-one-42');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Passwords do not match').waitFor();
    await page.getByLabel('Repeat New Password').fill('a-brand-new-pass-42');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('heading', { name: 'Password reset successfully!' }).waitFor();
    await screenshot(page, 'password-reset-done');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();

    await signInWithPassword(page, user.email, 'a-brand-new-pass-42');
    expect(await signedInAs(page)).toContain(user.email);
    await context.close();

    const later = await openDemo(svc, { project });
    await later.page.goto(link);
    await later.page.getByRole('heading', { name: 'Used Password Reset Link' }).waitFor();
    await later.context.close();
  });

  test('a link without a code or with a made-up code is an invalid link', async () => {
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/handler/password-reset');
    await page.getByRole('heading', { name: 'Invalid Password Reset Link' }).waitFor();
    await page.goto('/handler/password-reset?code=' + 'b'.repeat(45));
    await page.getByRole('heading', { name: 'Invalid Password Reset Link' }).waitFor();
    await page.getByText('Please double check if you have the correct password reset link.').waitFor();
    await context.close();
  });
});
