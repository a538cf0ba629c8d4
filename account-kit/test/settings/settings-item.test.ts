// Settings: delete the account from the Danger zone (then the person is signed out on the home page and cannot
// sign in any more), sign out; projects without client user deletion have no Delete Account.
import { describe, expect, test } from 'bun:test';
import { screenshot, setupBrowserSuite } from '../support/browser';
import { openSettings, settingsProject, signedInUser, openPage } from './support';

const { svc } = await setupBrowserSuite();
const project = await settingsProject(svc);

describe('account settings: Settings', () => {
  test('delete the account: confirmation, home page signed out, no sign-in afterwards', async () => {
    const { context, page, user } = await signedInUser(svc, project);
    await openSettings(page, 'settings', 'Settings');
    await page.getByText('Permanently remove your account and all associated data').waitFor();
    await page.getByRole('button', { name: 'Danger zone' }).click();
    await page.getByRole('button', { name: 'Delete account' }).click();
    await page.getByText('Are you sure you want to delete your account? This action is IRREVERSIBLE and will delete ALL associated data.').waitFor();
    await screenshot(page, 'settings-delete-confirm');
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByText('You are not signed in.').waitFor();
    expect((await project.server.get(`/users/${user.userId}`)).status).toBe(404);
    await context.close();

    const fresh = await openPage(svc, { project });
    await fresh.page.goto('/handler/sign-in');
    await fresh.page.getByRole('tab', { name: 'Email & Password' }).click();
    await fresh.page.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
    await fresh.page.getByLabel('Password', { exact: true }).fill(user.password);
    await fresh.page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await fresh.page.getByText('Wrong e-mail or password.').waitFor();
    await fresh.context.close();
  }, 240_000);

  test('sign out ends the session', async () => {
    const { context, page } = await signedInUser(svc, project);
    await openSettings(page, 'settings', 'Settings');
    await page.getByText('End your current session').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByText('You are not signed in.').waitFor();
    await context.close();
  }, 240_000);

  test('without client user deletion there is no Delete Account', async () => {
    const other = await settingsProject(svc, { client_user_deletion_enabled: false });
    const { context, page } = await signedInUser(svc, other);
    await openSettings(page, 'settings', 'Settings');
    await page.getByRole('heading', { name: 'Sign out' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Delete Account' }).count()).toBe(0);
    await context.close();
  }, 240_000);

  test('the settings page needs a signed-in user: it sends others to sign in and back', async () => {
    const { context, page } = await openPage(svc, { project });
    await page.goto('/handler/account-settings#sessions');
    await page.waitForURL((u) => u.pathname === '/handler/sign-in');
    expect(new URL(page.url()).searchParams.get('after_auth_return_to')).toBe('/handler/account-settings#sessions');
    await context.close();
  }, 240_000);
});
