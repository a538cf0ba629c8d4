// The client's OAuth flow end to end: a fake browser page, the real service, a real local OpenID provider.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { DEV_CLIENT_SECRET, devClientId } from '../../../service/src/oauth/endpoints.ts';
import { completeProviderLogin, startOidcFixture, type OidcFixture } from '../../../service/test/support/oidc.ts';
import { startService, type RunningService } from '../../../service/test/support/service.ts';
import { newProject, type TestProject } from '../../../service/test/support/projects.ts';
import { GatehouseClientApp } from '../../src/client/index.ts';
import { fakeBrowser, fakeTimers, type FakeBrowser } from './support.ts';
import { serverFor, signedUpClient } from './service-helpers.ts';

setDefaultTimeout(90_000);

let idp: OidcFixture;
let svc: RunningService;
let project: TestProject;
const APP = 'http://localhost:12345';

beforeAll(async () => {
  idp = await startOidcFixture();
  svc = await startService({ env: idp.overridesEnv() });
  idp.addDevClients(svc.url);
  const standard = (id: string) => ({ id, type: 'standard', enabled: true, client_id: devClientId(id as never), client_secret: DEV_CLIENT_SECRET });
  project = await newProject(svc, { config: { oauth_providers: [standard('github'), standard('gitlab')] } });
}, 180_000);

afterAll(async () => {
  await svc?.stop();
  await idp?.close();
}, 30_000);

function browserApp(href: string) {
  const browser = fakeBrowser(href);
  const app = new GatehouseClientApp({
    baseUrl: svc.url,
    projectId: project.id,
    publishableClientKey: project.keys.publishableClientKey,
    tokenStore: 'cookie',
    redirectMethod: 'window',
    browser,
    // real clock, instant settle waits
    timers: { sleep: async () => {}, setInterval: () => 0, clearInterval: () => {} },
  });
  return { app, browser };
}

async function nextNavigation(browser: FakeBrowser, count: number): Promise<string> {
  // Some navigations follow requests to the service: allow for a busy machine.
  const until = Date.now() + 20_000;
  while (browser.navigations.length < count && Date.now() < until) await Bun.sleep(5);
  expect(browser.navigations.length).toBeGreaterThanOrEqual(count);
  return browser.navigations[count - 1]!.url;
}

/** What the browser does between our authorize navigation and landing back on the callback page. */
async function throughProvider(authorizeUrl: string, login: string): Promise<string> {
  const authorize = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(authorize.status).toBe(307);
  const innerCookie = (authorize.headers.get('set-cookie') ?? '').split(';')[0]!;
  const providerCallback = await completeProviderLogin(authorize.headers.get('location')!, { login });
  const callback = await fetch(providerCallback, { headers: { cookie: innerCookie }, redirect: 'manual' });
  expect(callback.status).toBe(307);
  return callback.headers.get('location')!;
}

describe('OAuth through the real service', () => {
  test('sign in with a provider: authorize → provider → callback page → tokens in cookies → user', async () => {
    const { app, browser } = browserApp(`${APP}/handler/sign-in?after_auth_return_to=%2Fwelcome`);
    void app.signInWithOAuth('github');
    const authorizeUrl = await nextNavigation(browser, 1);
    const login = `octo-${crypto.randomUUID().slice(0, 6)}`;
    idp.setAccount(login, { email: `${login}@example.com`, emailVerified: true, name: 'Octo Cat' });
    const back = await throughProvider(authorizeUrl, login);
    expect(back).toStartWith(`${APP}/handler/oauth-callback?after_auth_return_to=%2Fwelcome&code=`);

    browser.setHref(back);
    expect(await app.callOAuthCallback()).toBe(true);
    expect(browser.navigations.at(-1)).toEqual({ url: '/welcome', replace: true });
    expect(browser.document.cookie).toContain(`stack-refresh-${project.id}=`);
    const user = await app.getUser({ or: 'throw' });
    expect(user.displayName).toBe('Octo Cat');
    expect(user.oauthProviders.map((p) => p.id)).toEqual(['github']);
    const account = await user.getConnectedAccount('github');
    expect(account?.id).toBe('github');
    expect((await account!.getAccessToken()).accessToken).toBeTruthy();
    expect(await user.getConnectedAccount('gitlab')).toBeNull();

    // the verifier cookie was consumed: replaying the callback page does nothing
    browser.setHref(back);
    expect(await app.callOAuthCallback()).toBe(false);
  });

  test('link flow: or:"redirect" sends the user to the provider with type=link and returns to the page', async () => {
    const { app, browser } = browserApp(`${APP}/handler/sign-in`);
    void app.signInWithOAuth('github');
    const login = `link-${crypto.randomUUID().slice(0, 6)}`;
    idp.setAccount(login, { email: `${login}@example.com`, emailVerified: true, name: 'Linker' });
    browser.setHref(await throughProvider(await nextNavigation(browser, 1), login));
    expect(await app.callOAuthCallback()).toBe(true);
    const user = await app.getUser({ or: 'throw' });

    browser.setHref(`${APP}/settings#accounts`);
    void user.getConnectedAccount('gitlab', { or: 'redirect', scopes: ['read_api'] });
    const linkUrl = new URL(await nextNavigation(browser, 3));
    expect(linkUrl.searchParams.get('type')).toBe('link');
    expect(linkUrl.searchParams.get('token')).toBe(app._core.requireTokenStore().get().accessToken);
    expect(linkUrl.searchParams.get('after_callback_redirect_url')).toBe(`${APP}/settings`);
    expect(linkUrl.searchParams.get('provider_scope')).toBe('read_api');

    browser.setHref(await throughProvider(linkUrl.toString(), `${login}-gl`));
    expect(await app.callOAuthCallback()).toBe(true);
    expect(browser.navigations.at(-1)).toEqual({ url: `${APP}/settings`, replace: true });
    const linked = await app.getUser({ or: 'throw' });
    expect(linked.id).toBe(user.id);
    expect(linked.oauthProviders.map((p) => p.id).sort()).toEqual(['github', 'gitlab']);
  });
});

/** A user signed in with github through the whole flow; returns the browser app and the user. */
async function githubUser() {
  const { app, browser } = browserApp(`${APP}/handler/sign-in`);
  void app.signInWithOAuth('github');
  const login = `ca-${crypto.randomUUID().slice(0, 6)}`;
  idp.setAccount(login, { email: `${login}@example.com`, emailVerified: true, name: 'Connected' });
  browser.setHref(await throughProvider(await nextNavigation(browser, 1), login));
  expect(await app.callOAuthCallback()).toBe(true);
  return { app, browser, user: await app.getUser({ or: 'throw' }) };
}

// The connection caches are shared per app; each entry must be computed for its own user, session and scopes.
describe('connected accounts are per user, session and scopes', () => {
  test('client app: after one session without github, another session with github still sees its connection', async () => {
    const { user: githubOwner } = await githubUser();
    const { app, user: plain } = await signedUpClient(project);
    expect(await plain.getConnectedAccount('github')).toBeNull();
    const other = await app.getUser({ tokenStore: await githubOwner.getAuthJson(), or: 'throw' });
    expect(other.id).toBe(githubOwner.id);
    const account = await other.getConnectedAccount('github');
    expect(account?.id).toBe('github');
    expect((await account!.getAccessToken()).accessToken).toBeTruthy();
    // and the first session still has none
    expect(await plain.getConnectedAccount('github')).toBeNull();
  });

  test('server app: u1.getConnectedAccount then u2.getConnectedAccount reads u2', async () => {
    const { user: githubOwner } = await githubUser();
    const server = serverFor(project);
    const u1 = await server.createUser({ primaryEmail: `plain-${crypto.randomUUID().slice(0, 6)}@example.com` });
    expect(await u1.getConnectedAccount('github')).toBeNull();
    const u2 = (await server.getUser(githubOwner.id))!;
    const account = await u2.getConnectedAccount('github');
    expect(account?.id).toBe('github');
    expect((await account!.getAccessToken()).accessToken).toBeTruthy();
    expect(await u1.getConnectedAccount('github')).toBeNull();
  });

  test('or:"redirect" asks for the scopes of each call, not those of the first', async () => {
    const { browser, user } = await githubUser();
    const before = browser.navigations.length;
    void user.getConnectedAccount('gitlab', { or: 'redirect', scopes: ['read_api'] });
    const first = new URL(await nextNavigation(browser, before + 1));
    expect(first.searchParams.get('provider_scope')).toBe('read_api');
    void user.getConnectedAccount('gitlab', { or: 'redirect', scopes: ['read_user'] });
    const second = new URL(await nextNavigation(browser, before + 2));
    expect(second.searchParams.get('provider_scope')).toBe('read_user');
  });
});
