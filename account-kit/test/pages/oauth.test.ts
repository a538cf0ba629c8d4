// Signing in through OAuth and linking a provider: the person clicks the provider button, walks the provider's
// login and consent pages (the development OpenID provider), and lands back in the app.
import { afterAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { DEV_CLIENT_SECRET, devClientId } from '../../../service/src/oauth/endpoints';
import { startService, type RunningService } from '../../../service/test/support/service';
import { startOidcFixture, type OidcFixture } from '../../../service/test/support/oidc';
import { newProject, openDemo, screenshot, setupBrowserSuite, signInWithPassword, signUp, signedInAs, type KitService } from '../support/browser';

const { svc } = await setupBrowserSuite();
// Shared keys (none configured: the service's development OpenID provider stands in for every provider).
const project = await newProject(svc, {
  config: { credential_enabled: true, magic_link_enabled: false, oauth_providers: ['google', 'github'].map((id) => ({ id, type: 'shared', enabled: true })) },
});

// Linking asks for the provider's access token first, which shared keys never give (the spec's
// OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS). So the link flow runs against a project with its own
// GitHub client: a second service whose providers are the same development OpenID provider, started here as the
// service's own OAuth tests do (GATEHOUSE_OAUTH_ISSUER_OVERRIDES).
let linking: { idp: OidcFixture; svc: RunningService } | undefined;
async function linkingService() {
  if (!linking) {
    const idp = await startOidcFixture();
    const own = await startService({ env: { ...idp.overridesEnv(), GATEHOUSE_RATE_LIMITS: 'off' } });
    idp.addDevClients(own.url);
    linking = { idp, svc: own };
  }
  return linking;
}
afterAll(async () => {
  await linking?.svc.stop();
  await linking?.idp.close();
});

/** The development provider's login form (any login name, any password), then its consent page. */
async function providerLogin(page: Page, login: string, appOrigin = svc.url) {
  await page.locator('input[name="login"]').waitFor();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any-password');
  await page.locator('button[type="submit"]').click();
  // The consent page ("Continue") on the first authorisation of this client.
  await page.waitForURL((u) => u.origin === appOrigin || /consent|interaction/.test(u.pathname));
  if (new URL(page.url()).origin !== appOrigin) await page.locator('button[type="submit"]').click();
}

const login = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;

describe('OAuth', () => {
  test('sign in with Google: provider login and consent, back in the app signed in; code and state gone from the address', async () => {
    const who = login('google');
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/handler/sign-in');
    await page.getByRole('button', { name: 'Sign in with Google' }).waitFor();
    await page.getByRole('button', { name: 'Sign in with GitHub' }).waitFor();
    const callbacks: string[] = [];
    page.on('framenavigated', (f) => { if (f === page.mainFrame() && f.url().includes('/handler/oauth-callback')) callbacks.push(f.url()); });
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await providerLogin(page, who);
    await page.waitForURL((u) => u.origin === svc.url && u.pathname === '/');
    expect(await signedInAs(page)).toContain(`${who}@example.com`);
    expect(callbacks.length).toBeGreaterThan(0);
    expect(new URL(callbacks[0]).searchParams.has('code')).toBe(true);
    await context.close();
  });

  test('an email typed as the development provider\'s login is the account\'s email as it is (issue 25)', async () => {
    const who = `${login('bob.oauth')}@example.com`;
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/handler/sign-in');
    await page.getByRole('button', { name: 'Sign in with GitHub' }).click();
    await providerLogin(page, who);
    await page.waitForURL((u) => u.origin === svc.url && u.pathname === '/');
    const line = await signedInAs(page);
    expect(line).toContain(who);
    expect(line).not.toContain('@example.com@example.com');
    await context.close();
  });

  test('link GitHub to a password account (getConnectedAccount with or: redirect), then sign in with GitHub as that account', async () => {
    const { svc: own } = await linkingService();
    const ownProject = await newProject(own, {
      config: { credential_enabled: true, magic_link_enabled: false, oauth_providers: [{ id: 'github', type: 'standard', enabled: true, client_id: devClientId('github'), client_secret: DEV_CLIENT_SECRET }] },
    });
    const user = await signUp(ownProject);
    const who = login('github');
    const { context, page } = await openDemo(own as KitService, { project: ownProject });
    await signInWithPassword(page, user.email, user.password);
    expect(await signedInAs(page)).toContain(user.email);

    // What a "Connect GitHub" button of an app does; the page leaves for the provider.
    void page.evaluate(async () => {
      const { app } = (globalThis as any).__GATEHOUSE__;
      const me = await app.getUser({ or: 'throw' });
      await me.getConnectedAccount('github', { or: 'redirect' });
    }).catch(() => {});
    await providerLogin(page, who, own.url);
    await page.waitForURL((u) => u.origin === own.url && u.pathname === '/');
    expect(await signedInAs(page)).toContain(user.email);
    const connected = await page.evaluate(async () => {
      const { app } = (globalThis as any).__GATEHOUSE__;
      const me = await app.getUser({ or: 'throw' });
      return (await me.getConnectedAccount('github'))?.id ?? null;
    });
    expect(connected).toBe('github');

    await page.getByRole('button', { name: 'Open account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByText('You are not signed in.').waitFor();
    await page.goto('/handler/sign-in');
    await page.getByRole('button', { name: 'Sign in with GitHub' }).click();
    // Already authorised at the provider in this browser: it may skip the forms.
    await page.waitForURL((u) => u.origin === own.url || u.pathname.includes('interaction'));
    if (new URL(page.url()).origin !== own.url) await providerLogin(page, who, own.url);
    await page.waitForURL((u) => u.origin === own.url && u.pathname === '/');
    expect(await signedInAs(page)).toContain(user.email);
    await context.close();
  });

  test('cancelling at the provider shows the access-denied card', async () => {
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/handler/sign-in');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.locator('input[name="login"]').waitFor();
    await page.getByRole('link', { name: '[ Cancel ]' }).click();
    await page.getByRole('heading', { name: 'OAuth provider access denied' }).waitFor();
    await screenshot(page, 'oauth-access-denied');
    expect(new URL(page.url()).pathname).toBe('/handler/error');
    await page.getByRole('button', { name: 'Sign in again' }).click();
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
    await context.close();
  });
});
