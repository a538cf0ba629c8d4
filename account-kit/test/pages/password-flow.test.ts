// Sign up with a password, verify the email from the mail, sign out, sign in again: as a person does it.
import { describe, expect, test } from 'bun:test';
import { checkEveryLook, extractCodeLink, mailTo, newProject, openDemo, screenshot, setupBrowserSuite, uniqueEmail } from '../support/browser';

const { svc } = await setupBrowserSuite();
const project = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false } });

describe('password sign-up and sign-in in the browser', () => {
  const email = uniqueEmail('pw');
  const password = 'a-long-pass-1234';

  test('sign up, see the signed-in home, verify the email from the mail', async () => {
    const { context, page } = await openDemo(svc, { project });
    const since = Date.now();
    await page.goto('/handler/sign-up');
    await page.getByRole('heading', { name: 'Create a new account' }).waitFor();
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Repeat Password').fill(password);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await expect(page.getByTestId('signed-in-as').textContent()).resolves.toContain(email);

    const mail = await mailTo(svc, email, { since });
    const link = extractCodeLink(mail)!;
    expect(new URL(link).pathname).toBe('/handler/email-verification');
    await page.goto(link);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Your email has been verified!' }).waitFor();
    await screenshot(page, 'email-verified');
    // The same link again says it was used: not the success card a second time (issue 25).
    await page.goto(link);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Verification Link Already Used' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Your email has been verified!' }).count()).toBe(0);
    await context.close();
  });

  test('a wrong password is refused next to the field; the right one signs in', async () => {
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/handler/sign-in');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByText('Wrong e-mail or password.').waitFor();
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await expect(page.getByTestId('signed-in-as').textContent()).resolves.toContain(email);
    await context.close();
  });

  test('the sign-in page in every look: 1280 and 390 px, light and dark, no serious axe violation', async () => {
    const { context, page } = await openDemo(svc, { project });
    await checkEveryLook(page, 'sign-in', async (p) => {
      await p.goto('/handler/sign-in');
      await p.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
    });
    await context.close();
  });
});
