// An owner makes a team a customer organization from the console (issue 28), as a person does: on the team page's
// "Enterprise SSO" tab they add the organization's domain (a bad one refused before sending), publish the TXT record
// shown (on the test's DNS server) and verify it; add a SAML connection by pasting the IdP's metadata (a real samlify
// IdP) and copy what the IdP needs; require SSO for the domain; create a SCIM token (shown once), which the identity
// provider then uses to provision a person and push a group; and map the group to a team permission, which the
// person then holds. The tab's provisioning log then tells those SCIM changes in words, with the token that made
// them, a page at a time (skeleton while loading, an error with a retry). Every state at 1280 and 390 px, light and
// dark, with axe. Last, the owner names a group ahead of SCIM ("Add group") with the permission it grants.
import { afterAll, describe, expect, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { adminApi, serverApi } from '../../service/test/support/service';
import { startSamlIdp } from '../../service/test/support/saml-idp';
import { checkLooksAtBothWidths, createAllKeys, createProject, notification, openConsole, openScreen, setupConsoleSuite, signUpOwner, withRetriesHurried, type ShownKeys } from './support/console';

const { svc } = await setupConsoleSuite();
const idp = await startSamlIdp('console-idp');
let context: BrowserContext;
let page: Page;
let projectId: string;
let keys: ShownKeys;
let teamId: string;
let personId: string;
/** A SCIM request as the identity provider sends it, with the token the owner created in the tab. */
let scim: (method: string, path: string, body: unknown) => Promise<{ id: string }>;
const domain = `initech-${crypto.randomUUID().slice(0, 8)}.example`;
const server = () => serverApi(svc.url, projectId, keys.secretServerKey);

afterAll(async () => { idp.close(); await context?.close(); });

const tab = () => page.getByRole('tabpanel', { name: 'Enterprise SSO' });

describe('Enterprise SSO tab', () => {
  test('setup: an owner, a project with keys, a team and a team permission', async () => {
    ({ context, page } = await openConsole(svc, { width: 1280 }));
    await signUpOwner(page);
    projectId = await createProject(page, 'Initech');
    keys = await createAllKeys(page, 'Tests');
    teamId = (await server().post('/teams', { display_name: 'Initech Corp' })).body.id;
    expect((await adminApi(svc.url, projectId, keys.superSecretAdminKey).post('/team-permission-definitions', { id: 'billing' })).status).toBe(201);
    await openScreen(page, 'Teams');
    await page.getByRole('link', { name: 'Initech Corp' }).click();
    await page.getByRole('tab', { name: 'Enterprise SSO' }).click();
    await tab().getByText('No domain yet.', { exact: false }).waitFor();
    await checkLooksAtBothWidths(page, 'team-enterprise-empty', async (p) => { 
      const panel = p.getByRole('tabpanel', { name: 'Enterprise SSO' });
      await panel.getByText('No SCIM token yet.').waitFor();
      await panel.getByText('No provisioning yet: changes appear here', { exact: false }).waitFor();
    }, 1280);
  });

  test('add and verify a domain', async () => {
    await tab().getByLabel('Email domain').fill('https://initech.example/');
    await tab().getByRole('button', { name: 'Add domain' }).click();
    await tab().getByText('Enter a domain name such as example.com, without https:// or a path.').waitFor();
    expect((await server().get(`/teams/${teamId}/domains`)).body.items).toEqual([]);

    await tab().getByLabel('Email domain').fill(domain.toUpperCase());
    await tab().getByRole('button', { name: 'Add domain' }).click();
    const row = tab().getByTestId(`domain-${domain}`);
    await row.getByText('Not verified').waitFor();
    const name = await row.locator('code').nth(0).textContent();
    const value = await row.locator('code').nth(1).textContent();
    expect(name).toBe(`_gatehouse-challenge.${domain}`);

    // Verify before publishing: told what the lookup saw.
    await row.getByRole('button', { name: 'Verify now' }).click();
    await notification(page, `${domain} could not be verified: no TXT record was found at _gatehouse-challenge.${domain}.`);
    svc.dns.setTxt(name!, [value!]);
    await row.getByRole('button', { name: 'Verify now' }).click();
    await notification(page, `${domain} is verified.`);
    await row.getByText('Verified', { exact: true }).waitFor();

    // Requiring SSO needs a connection first.
    await row.getByRole('switch', { name: `Require SSO for ${domain}` }).click({ force: true });
    await notification(page, 'The connection cannot be used: the team has no enabled SSO connection; add one before requiring SSO.');
  });

  test('add a SAML connection by pasting the IdP metadata; require SSO', async () => {
    await tab().getByRole('button', { name: 'Add SAML' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a SAML connection' });
    await dialog.getByRole('button', { name: 'Add SAML' }).click();
    await dialog.getByText('Paste the metadata or give its URL.').waitFor();
    await dialog.getByLabel('Name').fill('Initech Okta');
    await dialog.getByLabel('IdP metadata (XML)').fill(idp.metadataXml);
    await dialog.getByRole('button', { name: 'Add SAML' }).click();
    await dialog.waitFor({ state: 'detached' });
    const connection = tab().getByTestId('connection-Initech Okta');
    await connection.getByText(`Identity provider: ${idp.entityId}`).waitFor();
    const [saved] = (await server().get(`/teams/${teamId}/sso-connections`)).body.items;
    expect(await connection.locator('code').allTextContents()).toEqual([saved.sp_entity_id, saved.acs_url]);
    expect(await connection.getByRole('link', { name: 'Download SP metadata' }).getAttribute('href')).toBe(saved.sp_metadata_url);

    // "Test sign-in": the IdP opens in a new window and its answer is reported there.
    idp.signInAs({ email: `milton@${domain}`, displayName: 'Milton Waddams' });
    const [report] = await Promise.all([context.waitForEvent('page'), connection.getByRole('button', { name: 'Test sign-in' }).click()]);
    await report.getByRole('heading', { name: 'Test succeeded' }).waitFor();
    expect(await report.textContent('main')).toContain(`milton@${domain}`);
    await report.close();
    await notification(page, 'The identity provider opened in a new window. Sign in there to see what it sends.');

    await tab().getByTestId(`domain-${domain}`).getByRole('switch', { name: `Require SSO for ${domain}` }).click({ force: true });
    await notification(page, `SSO is now required for ${domain}.`);
    expect((await server().get(`/teams/${teamId}/domains`)).body.items[0].sso_required).toBe(true);
  });

  test('a SCIM token (shown once) provisions a person and a group; the group is mapped to a permission', async () => {
    await tab().getByRole('button', { name: 'Create token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create token' });
    await dialog.getByLabel('Description').fill('Okta provisioning');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('dialog', { name: 'Copy the token now' });
    const token = (await shown.getByTestId('new-scim-token').textContent())!;
    const base = (await shown.locator('code').first().textContent())!;
    expect(base).toBe(`${svc.url}/scim/v2/${teamId}`);
    await shown.getByRole('button', { name: 'Close', exact: true }).last().click();
    await tab().getByTestId('scim-token-Okta provisioning').getByText('Never used').waitFor();

    // The identity provider provisions a person and pushes a group.
    scim = (method: string, path: string, body: unknown) =>
      fetch(base + path, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' }, body: JSON.stringify(body) }).then((r) => r.json());
    const person = await scim('POST', '/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `peter@${domain}`, name: { givenName: 'Peter', familyName: 'Gibbons' }, active: true });
    await scim('POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Finance', members: [{ value: person.id }] });

    await page.getByRole('tab', { name: 'Team' }).click();
    await page.getByRole('tab', { name: 'Enterprise SSO' }).click();
    const group = tab().getByTestId('scim-group-Finance');
    await group.getByText('Members: 1').waitFor();
    await tab().getByTestId('scim-token-Okta provisioning').getByText('Last used', { exact: false }).waitFor();
    await group.getByLabel('Permissions granted to Finance').click();
    await page.getByRole('option', { name: 'billing' }).click();
    await page.keyboard.press('Escape');
    await group.getByRole('button', { name: 'Save' }).click();
    await notification(page, 'Permissions of Finance saved.');
    const held = (await server().get(`/team-permissions?team_id=${teamId}&user_id=${person.id}`)).body.items.map((p: { id: string }) => p.id);
    expect(held).toContain('billing');

    personId = person.id;

    await checkLooksAtBothWidths(page, 'team-enterprise-filled', async (p) => { await p.getByRole('tabpanel', { name: 'Enterprise SSO' }).getByTestId('scim-group-Finance').waitFor(); }, 1280);
  });

  test('the provisioning log tells the SCIM changes in words, newest first, with the token; a page at a time', async () => {
    const log = tab().getByRole('region', { name: 'Provisioning log' });
    const lines = async () => (await log.getByTestId('provisioning-change').allTextContents());
    await log.getByTestId('provisioning-entry').nth(1).waitFor();
    expect(await lines()).toEqual(['Group Finance pushed', `User peter@${domain} provisioned`]);
    expect((await log.getByTestId('provisioning-entry').allTextContents()).every((l) => l.endsWith('Token: Okta provisioning'))).toBe(true);

    // More changes: the provider renames the group, updates the person eight times, deactivates them.
    const groupId = (await server().get(`/teams/${teamId}/scim-groups`)).body.items[0].id;
    const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
    await scim('PATCH', `/Groups/${groupId}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { id: groupId, displayName: 'Finance team' } }] });
    for (let i = 0; i < 8; i++) await scim('PATCH', `/Users/${personId}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'name.familyName', value: `Gibbons ${i}` }] });
    await scim('PATCH', `/Users/${personId}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] });

    // Loading: a skeleton until the log answers.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/v1/internal/audit-log**', async (route) => { await held; await route.continue(); });
    await page.getByRole('tab', { name: 'Team' }).click();
    await page.getByRole('tab', { name: 'Enterprise SSO' }).click();
    await log.getByTestId('skeleton').waitFor();
    await checkLooksAtBothWidths(page, 'team-enterprise-log-loading', async () => { await log.getByTestId('skeleton').waitFor(); }, 1280);
    release();
    await log.getByTestId('provisioning-entry').first().waitFor();
    await page.unroute('**/api/v1/internal/audit-log**');

    // A page of ten, newest first; "Show more" the rest. (The users' labels load after the entries.)
    await log.getByText(`User peter@${domain} deactivated`).waitFor();
    const texts = await lines();
    expect(texts.length).toBe(10);
    expect(texts).toEqual([`User peter@${domain} deactivated`, ...Array(8).fill(`User peter@${domain} updated`), 'Group renamed to Finance team']);
    await checkLooksAtBothWidths(page, 'team-enterprise-log', async () => { await log.getByTestId('provisioning-entry').nth(9).waitFor(); }, 1280);
    await log.getByRole('button', { name: 'Show more' }).click();
    await log.getByTestId('provisioning-entry').nth(11).waitFor();
    expect((await lines()).slice(10)).toEqual(['Group Finance pushed', `User peter@${domain} provisioned`]);
    expect(await log.getByRole('button', { name: 'Show more' }).count()).toBe(0);

    // An error: told, with a retry that shows the log again. (The library retries a few times before giving up.)
    await page.route('**/api/v1/internal/audit-log**', (route) => route.abort('connectionrefused'));
    await withRetriesHurried(page, async () => {
      await page.getByRole('tab', { name: 'Team' }).click();
      await page.getByRole('tab', { name: 'Enterprise SSO' }).click();
      await log.getByTestId('provisioning-log-error').waitFor({ timeout: 120_000 });
    });
    await page.unroute('**/api/v1/internal/audit-log**');
    await checkLooksAtBothWidths(page, 'team-enterprise-log-error', async () => { await log.getByTestId('provisioning-log-error').waitFor(); }, 1280);
    await log.getByRole('button', { name: 'Try again' }).click();
    await log.getByTestId('provisioning-entry').nth(9).waitFor();
  });

  test('a group named from the console, with a permission, before SCIM pushes it', async () => {
    await tab().getByRole('button', { name: 'Add group' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add group' });
    await dialog.getByRole('button', { name: 'Add group' }).click();
    await dialog.getByText('Enter the group’s name.').waitFor();
    // A name the team has already (case aside) is refused by the service, shown under the field.
    await dialog.getByLabel('Group name').fill('finance TEAM');
    await dialog.getByRole('button', { name: 'Add group' }).click();
    await dialog.getByText('The team already has a group named finance TEAM.').waitFor();
    await checkLooksAtBothWidths(page, 'team-enterprise-add-group-error', async (p) => { await p.getByRole('dialog', { name: 'Add group' }).getByText('The team already has a group named', { exact: false }).waitFor(); }, 1280);

    await dialog.getByLabel('Group name').fill('  Auditors ');
    await dialog.getByLabel('Team permissions it grants').click();
    await page.getByRole('option', { name: 'billing' }).click();
    await dialog.getByText('As the identity provider names it', { exact: false }).click(); // closes the list, not the dialog
    await dialog.getByRole('button', { name: 'Add group' }).click();
    await dialog.waitFor({ state: 'detached' });
    await notification(page, 'Group Auditors added.');
    const row = tab().getByTestId('scim-group-Auditors');
    await row.getByText('Members: 0').waitFor();
    await row.getByText('billing', { exact: true }).waitFor();
    const saved = (await server().get(`/teams/${teamId}/scim-groups`)).body.items.find((g: { display_name: string }) => g.display_name === 'Auditors');
    expect(saved).toMatchObject({ display_name: 'Auditors', external_id: null, member_count: 0, permission_ids: ['billing'] });
    await checkLooksAtBothWidths(page, 'team-enterprise-group-added', async (p) => { await p.getByRole('tabpanel', { name: 'Enterprise SSO' }).getByTestId('scim-group-Auditors').waitFor(); }, 1280);
  });
});
