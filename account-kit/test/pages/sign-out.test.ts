// Signing out: the sign-out page and the UserButton menu, as a person does it.
import { describe, expect, test } from 'bun:test';
import { newProject, openDemo, screenshot, setupBrowserSuite, signInWithPassword, signUp, signedInAs } from '../support/browser';

const { svc } = await setupBrowserSuite();
const project = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false } });

describe('signing out', () => {
  test('the sign-out page signs the person out and sends them home; opened again it says they are signed out', async () => {
    const user = await signUp(project);
    const { context, page } = await openDemo(svc, { project });
    await signInWithPassword(page, user.email, user.password);
    expect(await signedInAs(page)).toContain(user.email);

    await page.goto('/handler/sign-out');
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByText('You are not signed in.').waitFor();

    await page.goto('/handler/sign-out');
    await page.getByRole('heading', { name: 'You are not currently signed in.' }).waitFor();
    await screenshot(page, 'sign-out-done');
    // The session is really gone: the protected page sends them to sign in.
    await page.goto('/protected');
    await page.waitForURL((u) => u.pathname === '/handler/sign-in');
    await context.close();
  });

  test('the UserButton menu names the signed-in person, signs out, then offers sign in and sign up', async () => {
    const user = await signUp(project);
    const { context, page } = await openDemo(svc, { project });
    await signInWithPassword(page, user.email, user.password);
    expect(await signedInAs(page)).toContain(user.email);

    await page.getByRole('button', { name: 'Open account menu' }).click();
    const menu = page.getByRole('menu');
    await menu.getByText(user.email).waitFor();
    await menu.getByRole('menuitem', { name: 'Account settings' }).waitFor();
    await screenshot(page, 'user-button-menu');
    await menu.getByRole('menuitem', { name: 'Sign out' }).click();

    await page.getByText('You are not signed in.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByRole('button', { name: 'Open account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign in' }).waitFor();
    await page.getByRole('menuitem', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Create a new account' }).waitFor();
    await context.close();
  });
});
