// Account settings (issue 30): disconnect a connected OAuth account (ASVS 3.5.1) and download the account's data as
// JSON (ASVS 8.3.2), in Chromium against the real service.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { checkEveryLook, setupBrowserSuite, uniqueEmail } from '../support/browser';
import { openPage, openSettings, serverUser, settingsProject, signInWithPassword } from './support';

const { svc } = await setupBrowserSuite();
const project = await settingsProject(svc);

async function userWithGitHub() {
  const email = uniqueEmail('linked');
  const password = 'a-long-pass-1234';
  const res = await project.server.post('/users', {
    primary_email: email, primary_email_auth_enabled: true, password,
    oauth_providers: [{ id: 'github', account_id: `gh-${crypto.randomUUID()}`, email: 'octo@example.com' }],
  });
  expect(res.status).toBe(201);
  const { context, page } = await openPage(svc, { project });
  await signInWithPassword(page, email, password);
  return { context, page, userId: res.body.id as string, email };
}

describe('account settings: connected accounts and data export', () => {
  test('a connected GitHub account is listed and disconnected after a confirmation', async () => {
    const { context, page, userId } = await userWithGitHub();
    await openSettings(page, 'auth', 'Emails & Auth');
    await page.getByTestId('connected-github').getByText('octo@example.com').waitFor();
    await checkEveryLook(page, 'settings-connected-accounts', async (p) => {
      await openSettings(p, 'auth', 'Emails & Auth');
      await p.getByTestId('connected-github').waitFor();
    });
    await page.getByRole('button', { name: 'Disconnect GitHub' }).click();
    await page.getByText('Disconnect GitHub? You will no longer be able to sign in with it').waitFor();
    await page.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await page.getByText('GitHub disconnected').waitFor();
    expect((await serverUser(project, userId)).oauth_providers).toEqual([]);
    expect(await page.getByTestId('connected-github').count()).toBe(0);
    await context.close();
  });

  test('download your data: a JSON file with the profile and the connected account, no secret', async () => {
    const { context, page, userId, email } = await userWithGitHub();
    await openSettings(page, 'settings', 'Settings');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^account-data-\d{4}-\d{2}-\d{2}\.json$/);
    const text = readFileSync((await download.path())!, 'utf8');
    const data = JSON.parse(text);
    expect(data.user).toMatchObject({ id: userId, primary_email: email });
    expect(data.oauth_accounts).toEqual([expect.objectContaining({ provider_id: 'github', email: 'octo@example.com' })]);
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(text).not.toContain('a-long-pass-1234');
    await context.close();
  });
});
