// Signing in through an organization's SSO as a person does (issue 28), with a real SAML IdP (samlify) as the
// organization's identity provider: "Continue with SSO", the work address, the IdP's page posting back, and the
// person signed in to the app; a first sign-in creates the account and team membership, a person who already has an
// account at that address is linked to it; a domain that requires SSO sends a password sign-in to the IdP; a forged
// response ends on a clear error page. Screens at 390 and 1280 px, light and dark, checked with axe.
import { afterAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { startSamlIdp } from '../../../service/test/support/saml-idp';
import { checkEveryLook, newProject, openDemo, screenshot, setupBrowserSuite, signedInAs, signUp, type TestProject } from '../support/browser';

const { svc } = await setupBrowserSuite();
const idp = await startSamlIdp('acme-okta');
const forger = await startSamlIdp('forger');
afterAll(() => { idp.close(); forger.close(); });

const project = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false } });

/** A customer organization: a team, its domain verified through the test DNS server, its SAML connection. */
async function organization(p: TestProject, o: { allowIdpInitiated?: boolean } = {}) {
  const domain = `acme-${crypto.randomUUID().slice(0, 8)}.example`;
  const team = (await p.server.post('/teams', { display_name: `Acme ${domain}` })).body;
  const claimed = (await p.server.post(`/teams/${team.id}/domains`, { domain })).body;
  svc.dns.setTxt(claimed.txt_record.name, [claimed.txt_record.value]);
  expect((await p.server.post(`/teams/${team.id}/domains/${claimed.id}/verify`)).body.status).toBe('verified');
  const connection = (await p.server.post(`/teams/${team.id}/sso-connections`, { type: 'saml', display_name: 'Acme Okta', idp_metadata_xml: idp.metadataXml, allow_idp_initiated: o.allowIdpInitiated ?? false })).body;
  return { domain, team, domainId: claimed.id as string, connection };
}

async function continueWithSso(page: Page, email: string) {
  await page.goto('/handler/sign-in');
  await page.getByRole('button', { name: 'Continue with SSO' }).click();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
}

describe('Continue with SSO', () => {
  test('a first sign-in: the IdP signs the person in, the app has a new account in the team', async () => {
    const org = await organization(project);
    const email = `new.person.${crypto.randomUUID().slice(0, 6)}@${org.domain}`;
    idp.signInAs({ email, displayName: 'New Person' });
    const { context, page } = await openDemo(svc, { project });
    const visited: string[] = [];
    page.on('framenavigated', (f) => { if (f === page.mainFrame()) visited.push(new URL(f.url()).origin + new URL(f.url()).pathname); });
    await continueWithSso(page, email);
    await page.waitForURL((u) => u.origin === svc.url && u.pathname === '/');
    expect(await signedInAs(page)).toContain(email);
    expect(visited).toContain(idp.ssoUrl);
    const members = (await project.server.get(`/users?team_id=${org.team.id}`)).body.items;
    expect(members.map((m: { primary_email: string }) => m.primary_email)).toEqual([email]);
    // Account settings say who manages the account.
    await page.goto('/handler/account-settings');
    await page.getByText('Managed by your organization').waitFor();
    await page.getByText(`${org.team.display_name} manages this account: you sign in through Acme Okta.`).waitFor();
    await screenshot(page, 'sso-managed-profile-1280-light');
    await context.close();
  });

  test('a person who already has an account at that address is signed in to it', async () => {
    const org = await organization(project);
    const existing = await signUp(project, { email: `existing.${crypto.randomUUID().slice(0, 6)}@${org.domain}` });
    idp.signInAs({ email: existing.email });
    const { context, page } = await openDemo(svc, { project });
    await continueWithSso(page, existing.email);
    await page.waitForURL((u) => u.origin === svc.url && u.pathname === '/');
    expect(await signedInAs(page)).toContain(existing.email);
    expect((await project.server.get(`/users?query=${encodeURIComponent(existing.email)}`)).body.items.map((u: { id: string }) => u.id)).toEqual([existing.userId]);
    await context.close();
  });

  test('an address without SSO is told so, next to the field', async () => {
    await organization(project); // the project has SSO, this address does not
    const { context, page } = await openDemo(svc, { project });
    await continueWithSso(page, 'someone@no-sso.example');
    await page.getByText('There is no single sign-on for this address.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Other ways to sign in' }).click();
    await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
    await context.close();
  });

  test('a domain that requires SSO: typing a password there goes to the IdP instead', async () => {
    const org = await organization(project);
    const person = await signUp(project, { email: `required.${crypto.randomUUID().slice(0, 6)}@${org.domain}` });
    expect((await project.server.patch(`/teams/${org.team.id}/domains/${org.domainId}`, { sso_required: true })).status).toBe(200);
    idp.signInAs({ email: person.email });
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/handler/sign-in');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((u) => u.origin === svc.url && u.pathname === '/');
    expect(await signedInAs(page)).toContain(person.email);
    await context.close();
  });

  test('a forged response (signed by another key) ends on a clear error page', async () => {
    // IdP-initiated responses are allowed here, so that the signature is what refuses this one.
    const org = await organization(project, { allowIdpInitiated: true });
    const { context, page } = await openDemo(svc, { project });
    const forged = await forger.response({ entityId: org.connection.sp_entity_id, acsUrl: org.connection.acs_url }, { user: { email: `ceo@${org.domain}` }, requestId: null, tweaks: { Issuer: idp.entityId } });
    await page.setContent(`<form method="post" action="${org.connection.acs_url}"><input type="hidden" name="SAMLResponse" value="${forged}"></form>`);
    await Promise.all([page.waitForURL(org.connection.acs_url), page.evaluate(() => document.forms[0]!.submit())]);
    await page.getByRole('heading', { name: 'Sign-in failed' }).waitFor();
    expect(await page.textContent('main')).toContain('SSO_SIGN_IN_FAILED');
    expect(await page.textContent('main')).toContain('Invalid signature');
    await screenshot(page, 'sso-refused-1280-light');
    await context.close();
  });

  test('every look of the SSO step: 390 and 1280 px, light and dark, accessible', async () => {
    await organization(project);
    const { context, page } = await openDemo(svc, { project });
    await checkEveryLook(page, 'sso-step', async (pg) => {
      await pg.goto('/handler/sign-in');
      await pg.getByRole('button', { name: 'Continue with SSO' }).click();
      await pg.getByRole('heading', { name: 'Sign in with your organization' }).waitFor();
    });
    await context.close();
  });
});
