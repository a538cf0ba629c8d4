// The OAuth apps screen (issue 27: the project as an OpenID provider) as an owner uses it: bad settings refused
// before anything is sent, a confidential client registered (with its own token lifetimes) and its secret shown once, that secret used for a real
// client_credentials token request at the project's token endpoint (and a wrong one refused) and counted in the app's
// activity, a public client (no secret), edit, an app deleted elsewhere while edited, then delete behind a
// confirmation (the deleted client gets no more tokens).
import { afterAll, describe, expect, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { adminApi } from '../../service/test/support/service';
import { checkLooks, checkLooksAtBothWidths, createAllKeys, createProject, notification, openConsole, openScreen, setChecked, setupConsoleSuite, signUpOwner, type ShownKeys } from './support/console';

const { svc } = await setupConsoleSuite();
let context: BrowserContext;
let page: Page;
let projectId: string;
let keys: ShownKeys;
let clientId: string;
let clientSecret: string;
const admin = () => adminApi(svc.url, projectId, keys.superSecretAdminKey);
const apiClients = async () => (await admin().get('/oauth-provider/clients')).body.items as any[];

afterAll(async () => { await context?.close(); });

/** A client_credentials request at the project's token endpoint, the client authenticated with HTTP Basic (RFC 6749 §2.3.1). */
async function clientCredentials(id: string, secret: string): Promise<{ status: number; body: any }> {
  const basic = Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64');
  const res = await fetch(`${svc.url}/oidc/${projectId}/token`, {
    method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&scope=openid',
  });
  return { status: res.status, body: await res.json() };
}

const form = () => page.getByRole('dialog', { name: 'Register an OAuth app' });
const card = (name: string) => page.getByTestId('oauth-app').filter({ hasText: name });

describe('OAuth apps', () => {
  test('setup: an owner with a project and its keys; the screen next to OAuth providers, empty', async () => {
    ({ context, page } = await openConsole(svc));
    await signUpOwner(page);
    projectId = await createProject(page, 'Provider');
    keys = await createAllKeys(page, 'Tests');
    const nav = page.getByRole('navigation', { name: 'Project navigation' }).getByRole('link');
    const labels = await nav.allTextContents();
    expect(labels.indexOf('OAuth apps')).toBe(labels.indexOf('OAuth providers') + 1);
    await openScreen(page, 'OAuth apps');
    await page.getByRole('main').getByTestId('empty-state').waitFor();
    expect(await page.getByTestId('oauth-issuer').textContent()).toBe(`${svc.url}/oidc/${projectId}`);
    await checkLooksAtBothWidths(page, 'oauth-apps-empty', (p) => p.getByRole('main').getByTestId('empty-state').waitFor());
  });

  test('bad settings are refused in the form, before anything is sent', async () => {
    await page.getByRole('button', { name: 'Register app' }).click();
    const dialog = form();
    await dialog.getByRole('button', { name: 'Register app' }).click();
    await dialog.getByText('Required').waitFor();
    // The default grants (authorization code) need a redirect URI.
    await dialog.getByText('The authorization code grant needs at least one redirect URI').waitFor();

    await dialog.getByLabel('Name').fill('Billing backend');
    await dialog.getByLabel('Logo URL').fill('ftp://files.example.com/logo.png');
    await dialog.getByLabel('Redirect URIs').fill('https://billing.example.com/callback\n/relative/callback');
    await setChecked(dialog.getByRole('radio', { name: /^Public/ }), true);
    await setChecked(dialog.getByRole('checkbox', { name: 'Client credentials' }), true);
    await dialog.getByLabel('Access token (s)').fill('59');
    await dialog.getByLabel('Refresh token (s)').fill('');
    await dialog.getByRole('button', { name: 'Register app' }).click();
    await dialog.getByText('Line 2: enter an absolute URL without a fragment (#)').waitFor();
    await dialog.getByText('Enter a whole number of seconds from 60 to 86400').waitFor();
    await dialog.getByText('Enter a whole number of seconds from 3600 to 31536000').waitFor();
    expect(await dialog.getByLabel('Access token (s)').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByText('A public app has no secret, so it cannot use client credentials').waitFor();
    expect(await dialog.getByLabel('Logo URL').getAttribute('aria-invalid')).toBe('true');

    await setChecked(dialog.getByRole('radio', { name: /^Confidential/ }), true);
    await setChecked(dialog.getByRole('checkbox', { name: 'Authorization code' }), false);
    await dialog.getByRole('button', { name: 'Register app' }).click();
    await dialog.getByText('Refresh tokens need the authorization code or the device grant').waitFor();
    for (const scope of ['openid', 'profile', 'email', 'offline_access']) await setChecked(dialog.getByRole('checkbox', { name: scope }), false);
    await dialog.getByRole('button', { name: 'Register app' }).click();
    await dialog.getByText('Choose at least one scope').waitFor();
    expect(await apiClients()).toEqual([]);
  });

  test('register a confidential app: its client id and secret shown once, with copy buttons', async () => {
    const dialog = form();
    await dialog.getByLabel('Logo URL').fill('https://billing.example.com/logo.png');
    await dialog.getByLabel('Redirect URIs').fill('https://billing.example.com/callback\n\n  https://billing.example.com/callback/  ');
    await setChecked(dialog.getByRole('checkbox', { name: 'Authorization code' }), true);
    for (const scope of ['openid', 'email']) await setChecked(dialog.getByRole('checkbox', { name: scope }), true);
    // A two-minute access token; the refresh token back to a day; the ID token kept at its default.
    await dialog.getByLabel('Access token (s)').fill('120');
    await dialog.getByLabel('Refresh token (s)').fill('86400');
    expect(await dialog.getByLabel('ID token (s)').inputValue()).toBe('3,600');
    await checkLooksAtBothWidths(page, 'oauth-apps-register', (p) => p.getByRole('dialog', { name: 'Register an OAuth app' }).waitFor());
    await dialog.getByRole('button', { name: 'Register app' }).click();

    const shown = page.getByRole('dialog', { name: 'Copy the client secret now' });
    await shown.waitFor();
    // The toast comes with the dialog, and closes itself after a few seconds: read now, not after the looks below.
    await notification(page, 'OAuth app registered');
    clientId = (await shown.getByTestId('oauth-app-new-client-id').textContent())!;
    clientSecret = (await shown.getByTestId('oauth-app-secret').textContent())!;
    expect(clientSecret).toMatch(/^ghs_[A-Za-z0-9_-]{43}$/);
    expect(await shown.getByRole('button', { name: 'Copy: Client ID' }).count()).toBe(1);
    expect(await shown.getByRole('button', { name: 'Copy: Client secret' }).count()).toBe(1);
    await checkLooksAtBothWidths(page, 'oauth-apps-secret', (p) => p.getByRole('dialog', { name: 'Copy the client secret now' }).waitFor());
    // The dialog stays until the owner says they copied the secret.
    expect(await shown.getByRole('button', { name: 'Close' }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await shown.isVisible()).toBe(true);
    await setChecked(shown.getByRole('checkbox', { name: 'I have copied the secret' }), true);
    await shown.getByRole('button', { name: 'Close' }).click();
    await shown.waitFor({ state: 'hidden' });

    const listed = await apiClients();
    expect(listed).toEqual([expect.objectContaining({
      client_id: clientId, display_name: 'Billing backend', client_type: 'confidential', logo_url: 'https://billing.example.com/logo.png',
      redirect_uris: ['https://billing.example.com/callback', 'https://billing.example.com/callback/'],
      grant_types: ['authorization_code', 'refresh_token', 'client_credentials'], scopes: ['openid', 'email'],
      access_token_lifetime_seconds: 120, id_token_lifetime_seconds: 3600, refresh_token_lifetime_seconds: 86400,
    })]);
    // Shown once: neither the list nor the screen carries the secret afterwards.
    expect(JSON.stringify(listed)).not.toContain(clientSecret);
    expect(await page.getByText(clientSecret).count()).toBe(0);

    const shownCard = card('Billing backend');
    await shownCard.waitFor();
    expect(await shownCard.getByTestId('oauth-app-client-id').textContent()).toBe(clientId);
    expect(await shownCard.getByTestId('oauth-app-type').textContent()).toBe('Confidential');
    expect(await shownCard.getByTestId('oauth-app-redirect-uris').locator('> *').allTextContents()).toEqual(['https://billing.example.com/callback', 'https://billing.example.com/callback/']);
    expect(await shownCard.getByTestId('oauth-app-grants').innerText()).toMatch(/Authorization code\s*Refresh token\s*Client credentials/);
    expect(await shownCard.getByTestId('oauth-app-scopes').innerText()).toMatch(/^openid\s*email$/);
    expect(await shownCard.getByTestId('oauth-app-lifetimes').textContent()).toBe('Lifetimes: access token 2 min · ID token 1 h · refresh token 1 d');
    expect(await shownCard.getByTestId('oauth-app-activity').textContent()).toBe('0 consents granted · 0 live tokens · no token issued recently');
  });

  test('the secret shown works: a client_credentials token from the project token endpoint; a wrong secret is refused', async () => {
    const ok = await clientCredentials(clientId, clientSecret);
    expect(ok.status).toBe(200);
    // The access token lives the two minutes chosen in the form.
    expect(ok.body).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String), expires_in: 120 });
    const wrong = await clientCredentials(clientId, `${clientSecret.slice(0, -1)}${clientSecret.endsWith('A') ? 'B' : 'A'}`);
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    // The screen, opened again, counts the token just issued.
    await openScreen(page, 'Webhooks');
    await openScreen(page, 'OAuth apps');
    const activity = card('Billing backend').getByTestId('oauth-app-activity');
    await activity.filter({ hasText: '1 live token' }).waitFor();
    expect(await activity.textContent()).toMatch(/^0 consents granted · 1 live token · last token issued \S/);
  });

  test('register a public app: no secret, the dialog closes at once', async () => {
    await page.getByRole('button', { name: 'Register app' }).click();
    const dialog = form();
    await dialog.getByLabel('Name').fill('Command line');
    await setChecked(dialog.getByRole('radio', { name: /^Public/ }), true);
    await setChecked(dialog.getByRole('checkbox', { name: 'Authorization code' }), false);
    await setChecked(dialog.getByRole('checkbox', { name: 'Device code' }), true);
    await dialog.getByRole('button', { name: 'Register app' }).click();
    const shown = page.getByRole('dialog', { name: 'App registered' });
    await shown.waitFor();
    expect(await shown.getByTestId('oauth-app-secret').count()).toBe(0);
    await shown.getByRole('button', { name: 'Close' }).click();
    await shown.waitFor({ state: 'hidden' });
    await notification(page, 'OAuth app registered');
    await card('Command line').getByText('No redirect URIs').waitFor();
    expect((await apiClients()).find((c) => c.display_name === 'Command line')).toMatchObject({
      client_type: 'public', grant_types: ['refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'], redirect_uris: [],
    });
    await checkLooksAtBothWidths(page, 'oauth-apps-list', (p) => p.getByTestId('oauth-app').nth(1).waitFor());
  });

  test('edit: checked before sending, saved, the type fixed', async () => {
    await card('Billing backend').getByRole('button', { name: 'Edit: Billing backend' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit OAuth app' });
    await dialog.waitFor();
    expect(await dialog.getByRole('radio', { name: /^Public/ }).isDisabled()).toBe(true);
    for (const grant of ['Authorization code', 'Refresh token', 'Client credentials']) await setChecked(dialog.getByRole('checkbox', { name: grant }), false);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Choose at least one grant type').waitFor();
    expect((await admin().get(`/oauth-provider/clients/${clientId}`)).body.grant_types).toEqual(['authorization_code', 'refresh_token', 'client_credentials']);

    for (const grant of ['Authorization code', 'Client credentials']) await setChecked(dialog.getByRole('checkbox', { name: grant }), true);
    await dialog.getByLabel('Name').fill('Billing service');
    await dialog.getByLabel('Redirect URIs').fill('https://billing.example.com/callback');
    await setChecked(dialog.getByRole('checkbox', { name: 'profile' }), true);
    expect(await dialog.getByLabel('Access token (s)').inputValue()).toBe('120');
    await dialog.getByLabel('ID token (s)').fill('86401');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Enter a whole number of seconds from 60 to 86400').waitFor();
    await dialog.getByLabel('ID token (s)').fill('600');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await notification(page, 'OAuth app saved');
    expect((await admin().get(`/oauth-provider/clients/${clientId}`)).body).toMatchObject({
      display_name: 'Billing service', client_type: 'confidential', redirect_uris: ['https://billing.example.com/callback'],
      grant_types: ['authorization_code', 'client_credentials'], scopes: ['openid', 'profile', 'email'],
      access_token_lifetime_seconds: 120, id_token_lifetime_seconds: 600, refresh_token_lifetime_seconds: 86400,
    });
    await card('Billing service').getByTestId('oauth-app-scopes').filter({ hasText: 'profile' }).waitFor();
    expect(await card('Billing service').getByTestId('oauth-app-lifetimes').textContent()).toBe('Lifetimes: access token 2 min · ID token 10 min · refresh token 1 d');
    // The secret is the same after an edit.
    expect((await clientCredentials(clientId, clientSecret)).status).toBe(200);
  });

  test('an app deleted elsewhere while being edited: the save says so in the console\'s words', async () => {
    await card('Command line').getByRole('button', { name: 'Edit: Command line' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit OAuth app' });
    await dialog.getByLabel('Name').fill('Command line tool');
    const publicId = (await apiClients()).find((c) => c.display_name === 'Command line').client_id;
    expect((await admin().delete(`/oauth-provider/clients/${publicId}`)).status).toBe(200);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('This OAuth app does not exist (any more).').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  test('delete behind a confirmation: gone from the list, and it gets no more tokens', async () => {
    await card('Billing service').getByRole('button', { name: 'Delete: Billing service' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this OAuth app?' });
    await confirm.waitFor();
    await checkLooks(page, 'oauth-apps-delete', (p) => p.getByRole('dialog', { name: 'Delete this OAuth app?' }).waitFor());
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await notification(page, 'OAuth app deleted');
    await card('Billing service').waitFor({ state: 'detached' });
    expect(await apiClients()).toEqual([]);
    const after = await clientCredentials(clientId, clientSecret);
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('invalid_client');
  });
});
