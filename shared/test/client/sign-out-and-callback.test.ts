// Sign-out redirects against the real service (client-library §3.8, §6.2, §6.3) and the OAuth callback's refusal of
// provider errors and implicit-flow parameters (§5.3), with a fake browser.
import { afterEach, describe, expect, spyOn, test } from 'bun:test';
import { uniqueEmail } from '../../../service/test/support/service.ts';
import { setupSuite } from '../../../service/test/support/suite.ts';
import { GatehouseClientApp, type GatehouseClientAppOptions } from '../../src/client/index.ts';
import { parseCookies } from '../../src/client/cookies.ts';
import { fakeBrowser, fakeTimers, jwtExpiringIn, localServer, TEST_KEYS, type FakeBrowser } from './support.ts';

const { svc, p: project } = await setupSuite();

const stops: (() => void)[] = [];
afterEach(() => {
  while (stops.length) stops.pop()!();
});

/** Whether the service still grants an access token for this refresh token. */
async function refreshTokenWorks(refreshToken: string): Promise<boolean> {
  const res = await project.client.post(
    '/auth/oauth/token',
    { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: project.id, client_secret: project.keys.publishableClientKey },
    { form: true },
  );
  if (res.status === 200 && typeof res.body.access_token === 'string') return true;
  expect(res.body?.code).toBe('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
  return false;
}

/**
 * A signed-up user in a browser app on the service. Every navigation records what was true at that moment: whether
 * the refresh cookie was still there and (asynchronously) whether the service still honoured the refresh token.
 */
async function signedInBrowser(opts: Partial<GatehouseClientAppOptions> = {}) {
  const browser = fakeBrowser('https://app.example.com/account');
  const ft = fakeTimers();
  const app = new GatehouseClientApp({
    baseUrl: project.url,
    projectId: project.id,
    publishableClientKey: project.keys.publishableClientKey,
    tokenStore: 'cookie',
    browser,
    timers: ft.timers,
    redirectMethod: 'window',
    ...opts,
  });
  const res = await app.signUpWithCredential({ email: uniqueEmail('signout'), password: 'correct-horse-1', noRedirect: true, verificationCallbackUrl: 'http://localhost:3000/v' });
  expect(res.status).toBe('ok');
  const refreshToken = app._core.requireTokenStore().get().refreshToken!;
  expect(await refreshTokenWorks(refreshToken)).toBe(true);
  const atNavigation: { refreshCookie: boolean; serverStillAccepts: Promise<boolean> }[] = [];
  const { assign, replace } = browser.location;
  const snapshot = () =>
    atNavigation.push({
      refreshCookie: parseCookies(browser.document.cookie).has(`stack-refresh-${project.id}`),
      serverStillAccepts: refreshTokenWorks(refreshToken),
    });
  browser.location.assign = (url) => (snapshot(), assign(url));
  browser.location.replace = (url) => (snapshot(), replace(url));
  return { app, browser, ft, refreshToken, atNavigation };
}

async function expectSignedOutBeforeNavigating(s: Awaited<ReturnType<typeof signedInBrowser>>) {
  expect(s.atNavigation.length).toBe(1);
  expect(s.atNavigation[0]!.refreshCookie).toBe(false);
  expect(await s.atNavigation[0]!.serverStillAccepts).toBe(false);
}

async function expectSignedOut(s: Awaited<ReturnType<typeof signedInBrowser>>) {
  expect(s.app._core.requireTokenStore().get()).toEqual({ accessToken: null, refreshToken: null });
  expect(parseCookies(s.browser.document.cookie).has(`stack-refresh-${project.id}`)).toBe(false);
  expect(await s.app.getUser()).toBeNull();
  expect(await refreshTokenWorks(s.refreshToken)).toBe(false);
}

describe('sign-out redirects (§3.8)', () => {
  test('app.signOut() ends the session, then pushes to the after-sign-out URL (home by default) and waits 2 s', async () => {
    const s = await signedInBrowser();
    s.ft.sleeps.length = 0;
    await s.app.signOut();
    expect(s.browser.navigations).toEqual([{ url: '/', replace: false }]);
    expect(s.ft.sleeps).toEqual([2000]);
    await expectSignedOutBeforeNavigating(s);
    await expectSignedOut(s);
    // signed out already: nothing to end, nowhere to go
    await s.app.signOut();
    expect(s.browser.navigations.length).toBe(1);
  });

  test('a configured afterSignOut URL is where user.signOut() goes', async () => {
    const s = await signedInBrowser({ urls: { home: '/home', afterSignOut: '/goodbye?from=app' } });
    const user = await s.app.getUser({ or: 'throw' });
    await user.signOut();
    expect(s.browser.navigations).toEqual([{ url: '/goodbye?from=app', replace: false }]);
    await expectSignedOutBeforeNavigating(s);
    await expectSignedOut(s);
  });

  test('redirectUrl wins: replace navigation without the relative-URL check, after the session ended', async () => {
    const s = await signedInBrowser({ urls: { afterSignOut: '/goodbye' } });
    const user = await s.app.getUser({ or: 'throw' });
    s.ft.sleeps.length = 0;
    await user.signOut({ redirectUrl: 'https://elsewhere.example/after?x=1' });
    expect(s.browser.navigations).toEqual([{ url: 'https://elsewhere.example/after?x=1', replace: true }]);
    expect(s.ft.sleeps).toEqual([2000]);
    await expectSignedOutBeforeNavigating(s);
    await expectSignedOut(s);

    // app.signOut passes the option through
    const t = await signedInBrowser();
    await t.app.signOut({ redirectUrl: '/bye' });
    expect(t.browser.navigations).toEqual([{ url: '/bye', replace: true }]);
    await expectSignedOutBeforeNavigating(t);
  });

  test('a non-relative afterSignOut URL is refused, but only after the session has ended', async () => {
    const s = await signedInBrowser({ urls: { afterSignOut: 'https://evil.example/' } });
    await expect(s.app.signOut()).rejects.toThrow(new Error('Redirect URL https://evil.example/ is not trusted; should be relative.'));
    expect(s.browser.navigations).toEqual([]);
    await expectSignedOut(s);
  });

  test('redirect method "none": the session ends, nothing navigates and nothing waits', async () => {
    for (const options of [undefined, { redirectUrl: '/bye' }]) {
      const s = await signedInBrowser({ redirectMethod: 'none' });
      const user = await s.app.getUser({ or: 'throw' });
      s.ft.sleeps.length = 0;
      await user.signOut(options);
      expect(s.browser.navigations).toEqual([]);
      expect(s.ft.sleeps).toEqual([]);
      await expectSignedOut(s);
    }
  });
});

describe('OAuth callback refusals (§5.3)', () => {
  /** A token endpoint that would sign anyone in: if a refused callback reached it, the callback would succeed. */
  function tokenEndpoint() {
    const server = localServer((_req, { path }) =>
      path === '/api/v1/auth/oauth/token'
        ? Response.json({ access_token: jwtExpiringIn(600_000), refresh_token: 'rt-oauth', is_new_user: false, after_callback_redirect_url: null, token_type: 'Bearer' })
        : undefined,
    );
    stops.push(server.stop);
    return server;
  }

  /** Starts an OAuth sign-in in a fake browser; returns the state whose verifier cookie is now set. */
  async function started() {
    const server = tokenEndpoint();
    const browser = fakeBrowser('https://app.example.com/handler/sign-in');
    const ft = fakeTimers();
    const app = new GatehouseClientApp({ ...TEST_KEYS, baseUrl: server.url, tokenStore: 'cookie', browser, timers: ft.timers, redirectMethod: 'window' });
    void app.signInWithOAuth('github');
    const until = Date.now() + 20_000; // the PKCE hashing is asynchronous: allow for a busy machine
    while (browser.navigations.length === 0 && Date.now() < until) await Bun.sleep(1);
    const state = new URL(browser.navigations[0]!.url).searchParams.get('state')!;
    browser.navigations.length = 0;
    expect(hasVerifier(browser, state)).toBe(true);
    return { app, browser, ft, server, state };
  }

  const hasVerifier = (browser: FakeBrowser, state: string) => parseCookies(browser.document.cookie).has(`stack-oauth-outer-${state}`);

  async function expectRefused(s: Awaited<ReturnType<typeof started>>, query: string) {
    s.browser.setHref(`https://app.example.com/handler/oauth-callback?code=the-code&state=${s.state}&${query}`);
    const err = await s.app.callOAuthCallback().catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toBe('Error signing in during OAuth callback. Please try again.');
    // the verifier cookie is consumed and the address bar cleaned before validation; no token request follows
    expect(hasVerifier(s.browser, s.state)).toBe(false);
    expect(new URL(s.browser.location.href).searchParams.has('code')).toBe(false);
    expect(new URL(s.browser.location.href).searchParams.has('state')).toBe(false);
    expect(s.server.requests).toEqual([]);
    expect(s.app._core.requireTokenStore().get()).toEqual({ accessToken: null, refreshToken: null });
    expect(s.browser.navigations).toEqual([]);
    // 2.8.3 runs the validation inside the network retry loop (§8 #13)
    expect(s.ft.sleeps).toEqual([1000, 2000, 4000, 8000]);
    return err;
  }

  test('an error parameter from the provider is an OAuth error: "Error validating outer OAuth response"', async () => {
    const s = await started();
    const err = await expectRefused(s, 'error=access_denied&error_description=The+user+said+no');
    expect(err.cause?.message).toBe('Error validating outer OAuth response');
    // the consumed callback cannot be replayed
    const warn = spyOn(console, 'warn').mockImplementation(() => {});
    try {
      s.browser.setHref(`/handler/oauth-callback?code=the-code&state=${s.state}&error=access_denied`);
      expect(await s.app.callOAuthCallback()).toBe(false);
      expect(String(warn.mock.calls[0]?.[0])).toContain(`cookie stack-oauth-outer-${s.state}`);
    } finally {
      warn.mockRestore();
    }
    expect(s.server.requests).toEqual([]);
  });

  test('implicit and hybrid flow parameters (id_token, token) are rejected', async () => {
    for (const query of ['id_token=eyJhbGciOiJub25lIn0.e30.', 'token=at-123', 'token=at-123&id_token=x']) {
      const s = await started();
      const err = await expectRefused(s, query);
      expect(String(err.cause?.cause?.message ?? err.cause?.message)).toContain('implicit');
    }
  });

  test('a provider error without a code is not a callback at all: false, cookie kept, no request', async () => {
    const s = await started();
    const warn = spyOn(console, 'warn').mockImplementation(() => {});
    try {
      s.browser.setHref(`/handler/oauth-callback?error=access_denied&state=${s.state}`);
      expect(await s.app.callOAuthCallback()).toBe(false);
      expect(warn.mock.calls.map((c) => c[0])).toEqual([
        'Missing required query parameter on OAuth callback: code. Maybe you opened or reloaded the oauth-callback page from your history?',
      ]);
    } finally {
      warn.mockRestore();
    }
    expect(hasVerifier(s.browser, s.state)).toBe(true);
    expect(s.server.requests).toEqual([]);
    expect(s.ft.sleeps).toEqual([]);
    expect(s.browser.navigations).toEqual([]);
  });
});
