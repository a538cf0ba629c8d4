// The project as an OpenID provider (issue 27), in the browser: an application (openid-client, a certified relying
// party) sends the person to the project's authorization endpoint; the account kit's sign-in page and consent page
// answer it with the person's Gatehouse session; the application exchanges the code (PKCE) and reads userinfo.
import { afterAll, describe, expect, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { checkEveryLook, newProject, openDemo, screenshot, setupBrowserSuite, signUp } from '../support/browser';
import { discover, oidc, registerClient, startAuthorization, type AuthorizationStart } from '../../../service/test/support/oidc-relying-party';

const { svc } = await setupBrowserSuite();
const project = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false } });
// The application's callback: a page on loopback, as a native or local application has (the browser only lands there).
const callbackServer = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('application callback') });
afterAll(() => callbackServer.stop(true));
const REDIRECT = `http://127.0.0.1:${callbackServer.port}/callback`;
const app = await registerClient(project, { display_name: 'Partner App', client_type: 'confidential', redirect_uris: [REDIRECT] });
const config = await discover(svc, project.id, app.clientId, app.clientSecret);

function browser(): Promise<{ context: BrowserContext; page: Page }> {
  return openDemo(svc, { project });
}

/** Opens the application's authorization URL in the browser. */
async function startIn(page: Page, scope?: string): Promise<AuthorizationStart> {
  const start = await startAuthorization(config, REDIRECT, scope);
  await page.goto(start.url.href);
  return start;
}

async function signInOnPage(page: Page, user: { email: string; password: string }) {
  await page.waitForURL((u) => u.pathname === '/handler/sign-in');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

const callbackOf = async (page: Page) => {
  await page.waitForURL((u) => u.href.startsWith(REDIRECT));
  return new URL(page.url());
};

describe('consent page', () => {
  test('signed out: sign in, come back, allow; the application gets tokens; the next time consent is remembered', async () => {
    const user = await signUp(project);
    const { context, page } = await browser();
    const start = await startIn(page);
    await signInOnPage(page, user);

    await page.waitForURL((u) => u.pathname === '/handler/oauth-consent');
    await page.getByRole('heading', { name: 'Partner App wants to access your account' }).waitFor();
    const scopes = page.getByRole('list', { name: 'Allowing lets Partner App use your account with these permissions:' }).getByRole('listitem');
    expect(await scopes.allTextContents()).toEqual([
      'Know who you are (your account id)', 'See your name and profile picture', 'See your email address', 'Stay signed in when you are not using it',
    ]);
    await page.getByText(`Signed in as ${user.email}`).waitFor();
    await screenshot(page, 'oauth-consent');
    await page.getByRole('button', { name: 'Allow' }).click();

    const callback = await callbackOf(page);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: start.verifier, expectedState: start.state });
    expect(tokens.claims()!.sub).toBe(user.userId);
    expect(await oidc.fetchUserInfo(config, tokens.access_token, user.userId)).toMatchObject({ sub: user.userId, email: user.email });
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

    // Again from the application: signed in and consented before, the person goes straight back.
    const again = await startIn(page);
    const second = await callbackOf(page);
    expect((await oidc.authorizationCodeGrant(config, second, { pkceCodeVerifier: again.verifier, expectedState: again.state })).claims()!.sub).toBe(user.userId);
    await context.close();
  });

  test('deny: the application receives access_denied', async () => {
    const user = await signUp(project);
    const { context, page } = await browser();
    const start = await startIn(page, 'openid email');
    await signInOnPage(page, user);
    await page.getByRole('heading', { name: 'Partner App wants to access your account' }).waitFor();
    expect(await page.getByRole('listitem').allTextContents()).toEqual(['Know who you are (your account id)', 'See your email address']);
    await page.getByRole('button', { name: 'Deny' }).click();
    const callback = await callbackOf(page);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe(start.state);
    await context.close();
  });

  test("a project scope is shown as the project describes it; allowed, its claim reaches the application", async () => {
    const scoped = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false } });
    const settings = await scoped.admin.patch('/oauth-provider/settings', {
      scopes: [{ name: 'billing:read', description: 'See your plan and invoices' }],
      claims: [{ claim: 'plan', source: 'client_metadata.plan', scope: 'billing:read' }],
    });
    expect(settings.status).toBe(200);
    const billing = await registerClient(scoped, { display_name: 'Billing App', client_type: 'confidential', redirect_uris: [REDIRECT], scopes: ['openid', 'billing:read'] });
    const billingConfig = await discover(svc, scoped.id, billing.clientId, billing.clientSecret);
    const user = await signUp(scoped);
    expect((await scoped.server.patch(`/users/${user.userId}`, { client_metadata: { plan: 'pro' } })).status).toBe(200);
    const { context, page } = await openDemo(svc, { project: scoped });
    const start = await startAuthorization(billingConfig, REDIRECT, 'openid billing:read');
    await page.goto(start.url.href);
    await signInOnPage(page, user);
    await page.getByRole('heading', { name: 'Billing App wants to access your account' }).waitFor();
    expect(await page.getByRole('listitem').allTextContents()).toEqual(['Know who you are (your account id)', 'See your plan and invoices']);
    await screenshot(page, 'oauth-consent-project-scope');
    await page.getByRole('button', { name: 'Allow' }).click();
    const callback = await callbackOf(page);
    const tokens = await oidc.authorizationCodeGrant(billingConfig, callback, { pkceCodeVerifier: start.verifier, expectedState: start.state });
    expect(tokens.claims()).toMatchObject({ sub: user.userId, plan: 'pro' });
    await context.close();
  });

  test('an answered or unknown request shows why, by its code', async () => {
    const user = await signUp(project);
    const { context, page } = await browser();
    await startIn(page);
    await signInOnPage(page, user);
    await page.waitForURL((u) => u.pathname === '/handler/oauth-consent');
    await page.goto('/handler/oauth-consent?interaction=no-such-request');
    await page.getByRole('heading', { name: 'The request could not be answered' }).waitFor();
    await page.getByTestId('error-code').getByText('OAUTH_PROVIDER_INTERACTION_NOT_FOUND').waitFor();
    await page.goto('/handler/oauth-consent');
    await page.getByText('This page was opened without an authorization request.').waitFor();
    await context.close();
  });

  test('every look: 1280 and 390 px, light and dark', async () => {
    const user = await signUp(project);
    const { context, page } = await browser();
    await startIn(page);
    await signInOnPage(page, user);
    await page.getByRole('heading', { name: 'Partner App wants to access your account' }).waitFor();
    await checkEveryLook(page, 'oauth-consent', async (p) => {
      await startIn(p);
      await p.getByRole('heading', { name: 'Partner App wants to access your account' }).waitFor();
    });
    await context.close();
  });

  test('a device (RFC 8628) is approved in the browser while it polls', async () => {
    const tv = await registerClient(project, { display_name: 'Living room TV', client_type: 'public', grant_types: ['urn:ietf:params:oauth:grant-type:device_code'] });
    const tvConfig = await discover(svc, project.id, tv.clientId);
    const device = await oidc.initiateDeviceAuthorization(tvConfig, { scope: 'openid profile' });
    const polled = oidc.pollDeviceAuthorizationGrant(tvConfig, device);
    const user = await signUp(project);
    const { context, page } = await browser();
    await page.goto(device.verification_uri);
    await page.getByRole('heading', { name: 'Connect a device' }).waitFor();
    await page.getByRole('textbox', { name: 'Code' }).fill(device.user_code);
    await screenshot(page, 'device-code-entry');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Confirm the device' }).waitFor();
    await page.getByText(device.user_code).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await signInOnPage(page, user);
    await page.getByRole('heading', { name: 'Living room TV wants to access your account' }).waitFor();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.getByRole('heading', { name: 'Device connected' }).waitFor();
    const tokens = await polled;
    expect(tokens.claims()!.sub).toBe(user.userId);
    await context.close();
  });
});
