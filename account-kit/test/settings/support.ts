// Shared steps of the account settings tests: a project with every section switched on, users made through
// the public API (as a person signing up elsewhere would), and signing in through the sign-in page.
import { expect } from 'bun:test';
import type { Page } from 'playwright-core';
import { extractCodeLink, mailTo, newProject, openDemo, screenshot, type KitService, type PageOptions, type TestProject } from '../support/browser';
import { signUp } from '../../../service/test/support/projects';

export { signUp };

export const FULL_CONFIG = {
  credential_enabled: true,
  magic_link_enabled: true,
  passkey_enabled: true,
  allow_user_api_keys: true,
  allow_team_api_keys: true,
  client_team_creation_enabled: true,
  client_user_deletion_enabled: true,
};

export function settingsProject(svc: KitService, config: Record<string, unknown> = {}): Promise<TestProject> {
  return newProject(svc, { displayName: 'Settings test', config: { ...FULL_CONFIG, ...config } });
}

/** Signs in on the sign-in page with email and password, as a person does, and waits for the home page. */
export async function signInWithPassword(page: Page, email: string, password: string, o: { expectPath?: string } = {}) {
  if (!new URL(page.url()).pathname.startsWith('/handler/sign-in')) await page.goto('/handler/sign-in');
  const tab = page.getByRole('tab', { name: 'Email & Password' });
  await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor().catch(async (err) => {
    await screenshot(page, 'failed-sign-in-page');
    throw err;
  });
  if (await tab.count()) await tab.click();
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL((u) => u.pathname === (o.expectPath ?? '/'));
}

/** `openDemo` with generous waits: the machine running these tests may be busy (each step waits up to 60 s). */
export async function openPage(svc: KitService, o: PageOptions = {}) {
  const opened = await openDemo(svc, o);
  opened.context.setDefaultTimeout(60_000);
  return opened;
}

/** A fresh context on the project, signed in as a new password user; returns the page and the user. */
export async function signedInUser(svc: KitService, project: TestProject, o: PageOptions & { email?: string } = {}) {
  const user = await signUp(project, { email: o.email });
  // The API sign-up opened a session the person never uses: end it, so the sessions table shows only theirs.
  await project.client.delete('/auth/sessions/current', { accessToken: user.accessToken, refreshToken: user.refreshToken });
  const { context, page } = await openPage(svc, { project, ...o });
  await signInWithPassword(page, user.email, user.password);
  return { context, page, user };
}

/** Opens an item of the settings page and waits for its heading. */
export async function openSettings(page: Page, hash: string, heading: string) {
  const target = `/handler/account-settings#${hash}`;
  // Going to the URL the page is already on only changes the hash (no new load): load it again then.
  if (new URL(page.url()).pathname === '/handler/account-settings') {
    await page.goto(target);
    await page.reload();
  } else await page.goto(target);
  await page.getByRole('heading', { name: heading, exact: true }).first().waitFor().catch(async (err) => {
    await screenshot(page, `failed-open-${hash.replace(/[^a-z-]/g, '')}`);
    throw err;
  });
}

/** The user's stored record, through the server API. */
export async function serverUser(project: TestProject, userId: string) {
  const res = await project.server.get(`/users/${userId}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** Types the emailed one-time code into the code boxes and signs in. */
export async function enterEmailCode(page: Page, code: string) {
  await page.getByRole('textbox', { name: 'One-time code 1', exact: true }).click();
  await page.keyboard.type(code);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Verifies the address from the settings page: "Send verification email" in its row's menu, then the link in
 *  the mail the SMTP server received, as the person reading their inbox. */
export async function verifyEmailFromMail(svc: KitService, page: Page, email: string) {
  await openSettings(page, 'auth', 'Emails & Auth');
  const since = Date.now();
  await page.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Send verification email' }).click();
  const mail = await mailTo(svc, email, { since });
  await page.goto(extractCodeLink(mail)!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('heading', { name: 'Your email has been verified!' }).waitFor();
}

/** The TOTP dialog of a sign-in: types the six digits. */
export async function answerTotpPrompt(page: Page, code: string) {
  await page.getByText('Please enter the six-digit TOTP code from your authenticator app.').waitFor();
  await page.getByLabel('Authenticator code 1', { exact: true }).click();
  await page.keyboard.type(code);
}
