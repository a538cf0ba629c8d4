// A user's authorized apps on the console's user page (issue 27), as an owner uses it: the OAuth apps the user let
// sign them in (through openid-client and the consent API, as an application and the account kit do), with their
// scopes and when; a skeleton while loading, an error with Retry, the empty state of a user with none; Revoke behind a
// confirmation, after which the app's refresh token for that user is refused.
import { afterAll, describe, expect, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { adminApi, clientApi, serverApi } from '../../service/test/support/service';
import type { TestProject } from '../../service/test/support/projects';
import { discover, oauthErrorOf, oidc, signInThroughConsentApi } from '../../service/test/support/oidc-relying-party';
import { checkLooks, checkLooksAtBothWidths, createAllKeys, createProject, notification, openConsole, openUserPage, setupConsoleSuite, signUpOwner, uniqueEmail, withRetriesHurried, type ShownKeys } from './support/console';

const { svc } = await setupConsoleSuite();
let context: BrowserContext;
let page: Page;
let projectId: string;
let keys: ShownKeys;
let tokens: oidc.TokenEndpointResponse;
let webConfig: oidc.Configuration;
let webClientId: string;
const REDIRECT = 'https://partner.example.com/callback';
const email = uniqueEmail('consenting');
const admin = () => adminApi(svc.url, projectId, keys.superSecretAdminKey);
const CONSENTS = '**/api/v1/oauth-provider/consents**';

afterAll(async () => { await context?.close(); });

const section = () => page.getByRole('region', { name: 'Authorized apps' });

/** A user of the project and their Gatehouse access token (a session made by the server API). */
async function newUser(address: string): Promise<{ id: string; accessToken: string }> {
  const server = serverApi(svc.url, projectId, keys.secretServerKey);
  const user = await server.post('/users', { primary_email: address, primary_email_auth_enabled: true, display_name: 'Consenting person' });
  expect(user.status).toBe(201);
  const session = await server.post('/auth/sessions', { user_id: user.body.id });
  return { id: user.body.id, accessToken: session.body.access_token };
}

describe("a user's authorized apps", () => {
  test('setup: a project with two OAuth apps the user signed in to, and a user with none', async () => {
    ({ context, page } = await openConsole(svc));
    await signUpOwner(page);
    projectId = await createProject(page, 'Authorized apps');
    keys = await createAllKeys(page, 'Tests');
    const project = { id: projectId, client: clientApi(svc.url, projectId, keys.publishableClientKey) } as TestProject;
    const web = await admin().post('/oauth-provider/clients', { display_name: 'Partner app', client_type: 'confidential', redirect_uris: [REDIRECT] });
    const cli = await admin().post('/oauth-provider/clients', { display_name: 'Command line', client_type: 'public', redirect_uris: ['http://127.0.0.1:9000/cb'] });
    webClientId = web.body.client_id;
    webConfig = await discover(svc, projectId, webClientId, web.body.client_secret);
    const user = await newUser(email);
    tokens = await signInThroughConsentApi(svc, project, webConfig, user.accessToken, REDIRECT);
    await signInThroughConsentApi(svc, project, await discover(svc, projectId, cli.body.client_id), user.accessToken, 'http://127.0.0.1:9000/cb', 'openid email');
    await newUser(uniqueEmail('never-consented'));
  });

  test('a skeleton while loading, then each app with its scopes and when it was allowed', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(CONSENTS, async (route) => { await held; await route.continue(); });
    await openUserPage(page, email);
    await section().getByTestId('authorized-apps-loading').waitFor();
    await checkLooks(page, 'user-authorized-apps-loading', (p) => p.getByTestId('authorized-apps-loading').waitFor());
    release();
    const rows = section().getByTestId('authorized-app');
    await rows.nth(1).waitFor();
    await page.unroute(CONSENTS);
    expect(await rows.count()).toBe(2);
    // Each row: the app's logo (its initials without one), name, scopes, when.
    expect(await rows.nth(0).innerText()).toMatch(/^PA\s+Partner app\s/);
    expect(await rows.nth(0).getByTestId('authorized-app-scopes').innerText()).toMatch(/^openid\s*profile\s*email\s*offline_access$/);
    expect(await rows.nth(0).innerText()).toMatch(/Allowed \S/);
    expect(await rows.nth(1).innerText()).toMatch(/^CL\s+Command line\s/);
    expect(await rows.nth(1).getByTestId('authorized-app-scopes').innerText()).toMatch(/^openid\s*email$/);
    await checkLooksAtBothWidths(page, 'user-authorized-apps', (p) => p.getByRole('region', { name: 'Authorized apps' }).getByTestId('authorized-app').nth(1).waitFor());
  });

  test('an error says so in the section, and Retry reads again', async () => {
    // The client library retries a failed request a few times before it gives up: every try fails here.
    await page.route(CONSENTS, (route) => route.abort('connectionrefused'));
    await withRetriesHurried(page, async () => {
      await openUserPage(page, email);
      await section().getByRole('alert').waitFor({ timeout: 120_000 });
    });
    await checkLooksAtBothWidths(page, 'user-authorized-apps-error', (p) => p.getByRole('region', { name: 'Authorized apps' }).getByRole('alert').waitFor());
    await page.unroute(CONSENTS);
    await section().getByRole('button', { name: 'Try again' }).click();
    await section().getByTestId('authorized-app').nth(1).waitFor();
  });

  test('revoke behind a confirmation: gone from the page and the API, and its refresh token refused', async () => {
    await section().getByRole('button', { name: 'Revoke access of Partner app' }).click();
    const confirm = page.getByRole('dialog', { name: "Revoke this app's access?" });
    await confirm.getByText('Partner app loses the access this user gave it').waitFor();
    await checkLooks(page, 'user-authorized-apps-revoke', (p) => p.getByRole('dialog', { name: "Revoke this app's access?" }).waitFor());
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await notification(page, 'Access revoked');
    await confirm.waitFor({ state: 'hidden' });
    await section().getByTestId('authorized-app').filter({ hasText: 'Partner app' }).waitFor({ state: 'detached' });
    expect(await section().getByTestId('authorized-app').count()).toBe(1);
    const userId = (await serverApi(svc.url, projectId, keys.secretServerKey).get(`/users?query=${encodeURIComponent(email)}`)).body.items[0].id;
    expect((await admin().get(`/oauth-provider/consents?user_id=${userId}`)).body.items.map((a: { display_name: string }) => a.display_name)).toEqual(['Command line']);
    expect(await oauthErrorOf(oidc.refreshTokenGrant(webConfig, tokens.refresh_token!))).toBe('invalid_grant');
  });

  test('a user who authorized no app: the empty state', async () => {
    const other = (await serverApi(svc.url, projectId, keys.secretServerKey).get('/users?query=never-consented')).body.items[0].primary_email;
    await openUserPage(page, other);
    await section().getByText('This user has not let any OAuth app sign them in.').waitFor();
    await checkLooksAtBothWidths(page, 'user-authorized-apps-empty', (p) => p.getByRole('region', { name: 'Authorized apps' }).getByText('This user has not let any OAuth app sign them in.').waitFor());
  });
});
