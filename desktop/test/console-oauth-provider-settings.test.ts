// The OAuth apps screen's "Scopes and claims" (issue 27) as an owner uses it: bad scopes and claims refused in the
// form before anything is sent, a project scope and a claim mapping saved and listed, an app allowed the project scope
// (the register form offers it), and a change the service refuses as a whole (the scope is still allowed to that
// app) shown in the console's words, nothing written. 1280 and 390 px, light and dark, axe (checkLooks).
import { afterAll, describe, expect, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { adminApi } from '../../service/test/support/service';
import { checkLooks, checkLooksAtBothWidths, createAllKeys, createProject, notification, openConsole, openScreen, setChecked, setupConsoleSuite, signUpOwner, type ShownKeys } from './support/console';

const { svc } = await setupConsoleSuite();
let context: BrowserContext;
let page: Page;
let projectId: string;
let keys: ShownKeys;
const admin = () => adminApi(svc.url, projectId, keys.superSecretAdminKey);
const apiSettings = async () => (await admin().get('/oauth-provider/settings')).body;

afterAll(async () => { await context?.close(); });

const section = () => page.getByRole('region', { name: 'Scopes and claims' });
const dialog = () => page.getByRole('dialog', { name: 'Scopes and claims' });
const scopeRow = (n: number) => dialog().getByRole('group', { name: `Scope ${n}` });
const claimRow = (n: number) => dialog().getByRole('group', { name: `Claim ${n}` });

/** Picks an option of the Mantine Select labelled `label` inside `within`. */
async function pick(within: ReturnType<typeof claimRow>, label: string, option: string) {
  await within.getByLabel(label, { exact: true }).first().click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('OAuth apps: scopes and claims', () => {
  test('setup: an owner with a project; the section says there are none yet', async () => {
    ({ context, page } = await openConsole(svc));
    await signUpOwner(page);
    projectId = await createProject(page, 'Claims');
    keys = await createAllKeys(page, 'Tests');
    await openScreen(page, 'OAuth apps');
    await section().getByText('No project scopes.').waitFor();
    await section().getByText('No custom claims.').waitFor();
  });

  test('bad scopes and claims are refused in the form, before anything is sent', async () => {
    await section().getByRole('button', { name: 'Edit scopes and claims' }).click();
    await dialog().waitFor();
    await dialog().getByRole('button', { name: 'Add scope' }).click();
    await dialog().getByRole('button', { name: 'Add claim' }).click();
    await scopeRow(1).getByLabel('Scope name').fill('billing read');
    await claimRow(1).getByLabel('Claim name').fill('sub');
    await claimRow(1).getByLabel('Read from').fill('password_hash');
    await dialog().getByRole('button', { name: 'Save' }).click();
    await scopeRow(1).getByText('Use printable characters without spaces, quotes or backslashes').waitFor();
    await scopeRow(1).getByText('Required').waitFor();
    await claimRow(1).getByText('This claim name is reserved').waitFor();
    await claimRow(1).getByText('Start with client_metadata, client_read_only_metadata or server_metadata, then .key steps').waitFor();
    await scopeRow(1).getByLabel('Scope name').fill('email');
    await dialog().getByRole('button', { name: 'Save' }).click();
    await scopeRow(1).getByText('This is a standard scope; choose another name').waitFor();
    expect(await apiSettings()).toMatchObject({ scopes: [], claims: [] });
  });

  test('a project scope and a claim mapping saved, then listed', async () => {
    await scopeRow(1).getByLabel('Scope name').fill('billing:read');
    await scopeRow(1).getByLabel('What it lets the app do').fill('See your plan and invoices');
    await claimRow(1).getByLabel('Claim name').fill('plan');
    await claimRow(1).getByLabel('Read from').fill('client_metadata.plan');
    await pick(claimRow(1), 'Released by scope', 'billing:read');
    await setChecked(claimRow(1).getByRole('checkbox', { name: "Also in this project's own access tokens" }), true);
    await checkLooksAtBothWidths(page, 'oauth-provider-settings-form', (p) => p.getByRole('dialog', { name: 'Scopes and claims' }).waitFor());
    await dialog().getByRole('button', { name: 'Save' }).click();
    await notification(page, 'Scopes and claims saved');
    await dialog().waitFor({ state: 'hidden' });
    expect(await apiSettings()).toMatchObject({
      scopes: [{ name: 'billing:read', description: 'See your plan and invoices' }],
      claims: [{ claim: 'plan', source: 'client_metadata.plan', scope: 'billing:read', in_access_token: true }],
    });
    const scopes = section().getByRole('list', { name: 'Project scopes' }).getByRole('listitem');
    expect(await scopes.allInnerTexts()).toEqual([expect.stringMatching(/^billing:read\s+See your plan and invoices$/)]);
    const claims = section().getByRole('list', { name: 'Custom claims' }).getByRole('listitem');
    expect(await claims.allInnerTexts()).toEqual([expect.stringMatching(/^plan ← client_metadata\.plan, scope billing:read\s+in access tokens$/)]);
    await checkLooksAtBothWidths(page, 'oauth-provider-settings', (p) => p.getByRole('region', { name: 'Scopes and claims' }).getByRole('listitem').first().waitFor());
  });

  test('an app may be allowed the project scope; while it is, the service refuses to remove it, in the console\'s words', async () => {
    await page.getByRole('button', { name: 'Register app' }).click();
    const register = page.getByRole('dialog', { name: 'Register an OAuth app' });
    await register.getByLabel('Name').fill('Billing portal');
    await register.getByLabel('Redirect URIs').fill('https://billing.example.com/callback');
    for (const scope of ['profile', 'email', 'offline_access']) await setChecked(register.getByRole('checkbox', { name: scope }), false);
    await setChecked(register.getByRole('checkbox', { name: 'billing:read' }), true);
    await register.getByRole('button', { name: 'Register app' }).click();
    const shown = page.getByRole('dialog', { name: 'Copy the client secret now' });
    await setChecked(shown.getByRole('checkbox', { name: 'I have copied the secret' }), true);
    await shown.getByRole('button', { name: 'Close' }).click();
    const clients = (await admin().get('/oauth-provider/clients')).body.items;
    expect(clients).toEqual([expect.objectContaining({ display_name: 'Billing portal', scopes: ['openid', 'billing:read'] })]);

    await section().getByRole('button', { name: 'Edit scopes and claims' }).click();
    await claimRow(1).getByRole('button', { name: 'Remove claim 1' }).click();
    await scopeRow(1).getByRole('button', { name: 'Remove scope 1' }).click();
    await dialog().getByRole('button', { name: 'Save' }).click();
    const refused = dialog().getByRole('alert');
    await refused.getByText(/^These scopes and claims cannot be kept: the scope "billing:read" is allowed to the OAuth client ghc_\S+ \(Billing portal\)/).waitFor();
    await refused.getByText('OAUTH_PROVIDER_SETTINGS_INVALID').waitFor();
    expect((await apiSettings()).scopes).toEqual([{ name: 'billing:read', description: 'See your plan and invoices' }]);
    await checkLooks(page, 'oauth-provider-settings-refused', (p) => p.getByRole('dialog', { name: 'Scopes and claims' }).getByRole('alert').waitFor());
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'hidden' });
  });
});
