// The strength meter under new-password fields (issue 30, ASVS 2.1.8): it appears as a password is typed, and its
// estimator (zxcvbn-ts and its dictionaries) is loaded only then, never by the sign-in page.
import { describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { checkEveryLook, newProject, openDemo, setupBrowserSuite, uniqueEmail } from '../support/browser';

const { svc } = await setupBrowserSuite();
const project = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false } });

/** The scripts the page requests from now on. */
function scriptsLoaded(page: Page): Set<string> {
  const urls = new Set<string>();
  page.on('request', (r) => { if (r.resourceType() === 'script') urls.add(new URL(r.url()).pathname); });
  return urls;
}

describe('password strength meter', () => {
  test('sign-up: the meter follows the password; its scripts load on the first keystroke and never on the sign-in page', async () => {
    const { context, page } = await openDemo(svc, { project });
    const scripts = scriptsLoaded(page);
    await page.goto('/handler/sign-up');
    await page.getByRole('heading', { name: 'Create a new account' }).waitFor();
    await page.waitForLoadState('networkidle');
    const beforeTyping = new Set(scripts);
    expect(await page.getByTestId('password-strength').count()).toBe(0);

    await page.getByLabel('Password', { exact: true }).fill('password');
    await page.getByText('Password strength: very weak').waitFor();
    const estimatorScripts = [...scripts].filter((s) => !beforeTyping.has(s));
    expect(estimatorScripts.length).toBeGreaterThan(0);
    await page.getByLabel('Password', { exact: true }).fill('vT7#qL9!mZ2$wX4pK8');
    await page.getByText('Password strength: very strong').waitFor();
    await context.close();

    const signIn = await openDemo(svc, { project });
    const signInScripts = scriptsLoaded(signIn.page);
    await signIn.page.goto('/handler/sign-in');
    await signIn.page.getByLabel('Password', { exact: true }).fill('password');
    await signIn.page.waitForLoadState('networkidle');
    expect([...signInScripts].filter((s) => estimatorScripts.includes(s))).toEqual([]);
    expect(await signIn.page.getByTestId('password-strength').count()).toBe(0);
    await signIn.context.close();
  });

  test("a project asking for 12 characters: a shorter password is refused with the project's minimum (ASVS 2.1.1)", async () => {
    const strict = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false } });
    expect((await strict.admin.patch('/internal/security-settings', { password_min_length: 12 })).status).toBe(200);
    const { context, page } = await openDemo(svc, { project: strict });
    await page.goto('/handler/sign-up');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(uniqueEmail('min12'));
    await page.getByLabel('Password', { exact: true }).fill('ten-chars!');
    await page.getByLabel('Repeat Password').fill('ten-chars!');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Password must be at least 12 characters long').waitFor();
    await context.close();
  });

  test('the sign-up page with the meter in every look', async () => {
    const { context, page } = await openDemo(svc, { project });
    await checkEveryLook(page, 'sign-up-strength', async (p) => {
      await p.goto('/handler/sign-up');
      await p.getByRole('heading', { name: 'Create a new account' }).waitFor();
      await p.waitForLoadState('networkidle');
      await p.getByLabel('Password', { exact: true }).fill('correct horse');
      await p.getByTestId('password-strength').waitFor();
    });
    await context.close();
  });
});
