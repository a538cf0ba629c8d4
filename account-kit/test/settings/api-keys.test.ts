// API Keys (user): create one (the secret is shown once and works), find it in the table, filter, revoke it.
// Projects that do not allow user API keys have no such item.
import { describe, expect, test } from 'bun:test';
import { screenshot, setupBrowserSuite } from '../support/browser';
import { openSettings, settingsProject, signedInUser } from './support';

const { svc } = await setupBrowserSuite();
const project = await settingsProject(svc);

describe('account settings: user API keys', () => {
  test('create, see it once, find it in the table, revoke it', async () => {
    const { context, page } = await signedInUser(svc, project);
    await openSettings(page, 'api-keys', 'API Keys');
    await page.getByText('No API keys yet').waitFor();
    await page.getByRole('button', { name: 'Create API Key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API Key' });
    await dialog.getByText('API keys grant programmatic access to your account.').waitFor();
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.getByText('Description is required').waitFor();
    await dialog.getByRole('textbox', { name: 'Description' }).fill('CI pipeline');
    await dialog.getByLabel('Expires In', { exact: true }).click();
    await page.getByRole('option', { name: '7 days' }).click();
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();

    const shown = page.getByRole('dialog', { name: 'API Key', exact: true });
    await shown.getByText('Copy it to a safe place. You will not be able to view it again.').waitFor();
    const secret = await shown.getByRole('textbox', { name: 'Secret API Key' }).inputValue();
    expect(secret.length).toBeGreaterThan(20);
    // It cannot be dismissed before the person says they understood.
    await page.keyboard.press('Escape');
    await expect(shown.isVisible()).resolves.toBe(true);
    await expect(shown.getByRole('button', { name: 'Close' }).isDisabled()).resolves.toBe(true);
    await screenshot(page, 'settings-api-key-shown');
    await shown.getByRole('checkbox', { name: 'I understand that I will not be able to view this key again.' }).check();
    await shown.getByRole('button', { name: 'Close' }).click();
    await shown.waitFor({ state: 'detached' });

    // The key is real: the service accepts it.
    const check = await project.server.post('/user-api-keys/check', { api_key: secret });
    expect(check.status).toBe(200);

    const row = page.getByTestId('api-key-row').filter({ hasText: 'CI pipeline' });
    await expect(row.textContent()).resolves.toContain('valid');
    await expect(row.textContent()).resolves.toContain(`*******${secret.slice(-4)}`);
    const in7Days = new Date(Date.now() + 7 * 86_400_000).toLocaleDateString('en-US');
    await expect(row.textContent()).resolves.toContain(in7Days);

    await row.getByRole('button', { name: 'Actions for API key CI pipeline' }).click();
    await page.getByRole('menuitem', { name: 'Revoke' }).click();
    const revoke = page.getByRole('dialog', { name: 'Revoke API Key' });
    await revoke.getByText(`Are you sure you want to revoke API key *****${secret.slice(-4)}?`).waitFor();
    await expect(revoke.getByRole('button', { name: 'Revoke Key' }).isDisabled()).resolves.toBe(true);
    await revoke.getByRole('checkbox', { name: 'I understand this will unlink all the apps using this API key' }).check();
    await revoke.getByRole('button', { name: 'Revoke Key' }).click();
    await revoke.waitFor({ state: 'detached' });
    await row.getByText('revoked').waitFor();
    expect((await project.server.post('/user-api-keys/check', { api_key: secret })).status).not.toBe(200);

    // Search and status filter.
    await page.getByRole('textbox', { name: 'Search table' }).fill('nothing like it');
    await page.getByText('No API keys match').waitFor();
    await page.getByRole('textbox', { name: 'Search table' }).fill('pipeline');
    await row.waitFor();
    await context.close();
  }, 240_000);

  test('a project without user API keys has no API Keys item', async () => {
    const other = await settingsProject(svc, { allow_user_api_keys: false });
    const { context, page } = await signedInUser(svc, other);
    await openSettings(page, 'profile', 'My Profile');
    await page.getByRole('link', { name: 'Active Sessions' }).waitFor();
    expect(await page.getByRole('link', { name: 'API Keys' }).count()).toBe(0);
    await context.close();
  }, 240_000);
});
