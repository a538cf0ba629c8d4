// The sign-in and sign-up pages show exactly the methods the project enables, and say so when a method is off.
import { describe, expect, test } from 'bun:test';
import { newProject, openDemo, screenshot, setupBrowserSuite, signUp } from '../support/browser';

const { svc } = await setupBrowserSuite();

describe('methods the project enables', () => {
  test('sign-up disabled: the sign-up page says so and the sign-in page offers no sign-up link', async () => {
    const project = await newProject(svc, { config: { sign_up_enabled: false, credential_enabled: true } });
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/handler/sign-up');
    await page.getByRole('heading', { name: 'Sign up for new users is not enabled at the moment.' }).waitFor();
    await expect(page.getByRole('textbox', { name: 'Email', exact: true }).count()).resolves.toBe(0);
    await screenshot(page, 'sign-up-disabled');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
    await expect(page.getByText("Don't have an account?").count()).resolves.toBe(0);
    await context.close();
  });

  test('password auth switched off while the page is open: the person is told, next to the form', async () => {
    const project = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false } });
    const user = await signUp(project);
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/handler/sign-in');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    const off = await project.admin.patch('/projects/current', { config: { credential_enabled: false, magic_link_enabled: true } });
    expect(off.status).toBe(200);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByRole('alert').getByText('Signing in with a password is not enabled for this app.').waitFor();
    // Opened afresh, the page no longer offers a password.
    await page.goto('/handler/sign-in');
    await page.getByRole('button', { name: 'Send email' }).waitFor();
    await expect(page.getByLabel('Password', { exact: true }).count()).resolves.toBe(0);
    await expect(page.getByRole('link', { name: 'Forgot password?' }).count()).resolves.toBe(0);
    await context.close();
  });

  test('only GitHub and passkeys: two buttons, no email form', async () => {
    const project = await newProject(svc, {
      config: { credential_enabled: false, magic_link_enabled: false, passkey_enabled: true, oauth_providers: [{ id: 'github', type: 'shared', enabled: true }] },
    });
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/handler/sign-in');
    await page.getByRole('button', { name: 'Sign in with GitHub' }).waitFor();
    await page.getByRole('button', { name: 'Sign in with Passkey' }).waitFor();
    await expect(page.getByRole('textbox').count()).resolves.toBe(0);
    await expect(page.getByText('Or', { exact: true }).count()).resolves.toBe(0);
    // Sign-up offers GitHub but not the passkey (a passkey cannot create an account).
    await page.goto('/handler/sign-up');
    await page.getByRole('button', { name: 'Sign up with GitHub' }).waitFor();
    await expect(page.getByRole('button', { name: /Passkey/ }).count()).resolves.toBe(0);
    await context.close();
  });

  test('password and email code together: two tabs, the email code first; every provider button with its name', async () => {
    const project = await newProject(svc, {
      config: { credential_enabled: true, magic_link_enabled: true, oauth_providers: ['google', 'github', 'microsoft'].map((id) => ({ id, type: 'shared', enabled: true })) },
    });
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/handler/sign-in');
    const buttons = page.getByRole('button', { name: /^Sign in with / });
    await buttons.first().waitFor();
    await expect(buttons.allTextContents()).resolves.toEqual(['Sign in with Google', 'Sign in with GitHub', 'Sign in with Microsoft']);
    await expect(page.getByRole('tab').allTextContents()).resolves.toEqual(['Email', 'Email & Password']);
    await page.getByRole('button', { name: 'Send email' }).waitFor();
    await page.getByRole('tab', { name: 'Email & Password' }).click();
    await page.getByLabel('Password', { exact: true }).waitFor();
    await screenshot(page, 'sign-in-all-methods');
    await context.close();
  });
});
