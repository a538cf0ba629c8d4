// Handler URLs, redirect helpers and the outer OAuth client flow with a fake browser and a local token endpoint.
import { afterEach, describe, expect, test } from 'bun:test';
import { GatehouseClientApp } from '../../src/client/index.ts';
import { resolveHandlerUrls } from '../../src/client/redirects.ts';
import { parseCookies } from '../../src/client/cookies.ts';
import { base64UrlEncode } from '../../src/rules/base64.ts';
import { sha256Bytes } from '../../src/rules/codes.ts';
import { fakeBrowser, fakeTimers, jwtExpiringIn, localServer, TEST_KEYS, type FakeBrowser } from './support.ts';

const stops: (() => void)[] = [];
afterEach(() => {
  while (stops.length) stops.pop()!();
});

function browserApp(href: string, opts: { baseUrl?: string; urls?: any; redirectMethod?: any } = {}) {
  const browser = fakeBrowser(href);
  const ft = fakeTimers();
  const app = new GatehouseClientApp({
    ...TEST_KEYS,
    baseUrl: opts.baseUrl ?? 'http://127.0.0.1:9',
    tokenStore: 'cookie',
    browser,
    timers: ft.timers,
    redirectMethod: opts.redirectMethod ?? 'window',
    urls: opts.urls,
  });
  return { app, browser, ft };
}

describe('handler URLs', () => {
  test('defaults follow the handler path; given keys win; afterSignUp follows afterSignIn', () => {
    expect(resolveHandlerUrls(undefined)).toMatchObject({
      handler: '/handler',
      home: '/',
      signIn: '/handler/sign-in',
      afterSignIn: '/',
      afterSignUp: '/',
      afterSignOut: '/',
      oauthCallback: '/handler/oauth-callback',
      accountSettings: '/handler/account-settings',
    });
    const u = resolveHandlerUrls({ handler: '/auth', afterSignIn: '/dash', signIn: '/login', home: undefined });
    expect(u).toMatchObject({ signIn: '/login', signUp: '/auth/sign-up', afterSignIn: '/dash', afterSignUp: '/dash', home: '/' });
  });
});

describe('redirect helpers', () => {
  test('sign-in redirect carries the current page as after_auth_return_to; after-sign-in honours it', async () => {
    const { app, browser, ft } = browserApp('https://app.example.com/private/page?x=1#h');
    await app.redirectToSignIn();
    expect(browser.navigations).toEqual([{ url: '/handler/sign-in?after_auth_return_to=%2Fprivate%2Fpage%3Fx%3D1%23h', replace: false }]);
    expect(ft.sleeps).toEqual([2000]);
    browser.setHref('/handler/sign-in?after_auth_return_to=%2Fprivate%2Fpage%3Fx%3D1%23h');
    await app.redirectToAfterSignIn({ replace: true });
    expect(browser.navigations[1]).toEqual({ url: '/private/page?x=1#h', replace: true });
  });

  test('a second navigation to the URL being navigated to joins the first instead of starting another page load', async () => {
    const { app, browser } = browserApp('https://app.example.com/handler/sign-in');
    // What a sign-in does: the sign-in call redirects, and the sign-in page, seeing the new user, asks for it too.
    await Promise.all([app.redirectToAfterSignIn({ replace: true }), app.redirectToAfterSignIn({ replace: true })]);
    expect(browser.navigations).toEqual([{ url: '/', replace: true }]);
    // Once settled, the same target navigates again; another target is never joined.
    await app.redirectToAfterSignIn({ replace: true });
    await Promise.all([app.redirectToHome(), app.redirectToSignUp({ noRedirectBack: true })]);
    expect(browser.navigations).toEqual([{ url: '/', replace: true }, { url: '/', replace: true }, { url: '/', replace: false }, { url: '/handler/sign-up', replace: false }]);
  });

  test('a hostile after_auth_return_to is refused: only relative URLs are followed', async () => {
    const { app, browser } = browserApp('https://app.example.com/handler/sign-in?after_auth_return_to=https%3A%2F%2Fevil.example%2F');
    await expect(app.redirectToAfterSignIn()).rejects.toThrow('Redirect URL https://evil.example/ is not trusted; should be relative.');
    for (const bad of ['//evil.example/x', 'javascript:alert(1)']) {
      browser.setHref(`https://app.example.com/?after_auth_return_to=${encodeURIComponent(bad)}`);
      await expect(app.redirectToAfterSignUp()).rejects.toThrow('is not trusted; should be relative.');
    }
    expect(browser.navigations).toEqual([]);
    const { app: app2 } = browserApp('https://app.example.com/', { urls: { home: 'https://elsewhere.example/' } });
    await expect(app2.redirectToHome()).rejects.toThrow('not trusted');
  });

  test('noRedirectBack skips the return-to handling; redirect method "none" never navigates or waits', async () => {
    const { app, browser } = browserApp('https://app.example.com/p');
    await app.redirectToSignIn({ noRedirectBack: true });
    expect(browser.navigations[0]!.url).toBe('/handler/sign-in');
    const none = browserApp('https://app.example.com/p', { redirectMethod: 'none' });
    await none.app.redirectToSignIn();
    expect(none.browser.navigations).toEqual([]);
    expect(none.ft.sleeps).toEqual([]);
    const custom: string[] = [];
    const nav = browserApp('https://app.example.com/p', { redirectMethod: { useNavigate: () => () => {}, navigate: (to: string) => custom.push(to) } });
    await nav.app.redirectToHome();
    expect(custom).toEqual(['/']);
  });

  test('callback URLs are absolute, keep after_auth_return_to and drop the fragment; servers must pass them', async () => {
    const { app } = browserApp('https://app.example.com/x?after_auth_return_to=%2Fback#frag');
    expect(app._core.redirector.constructRedirectUrl('/handler/email-verification', 'callbackUrl')).toBe(
      'https://app.example.com/handler/email-verification?after_auth_return_to=%2Fback',
    );
    const serverApp = new GatehouseClientApp({ ...TEST_KEYS, baseUrl: 'http://127.0.0.1:9', tokenStore: 'memory', browser: null });
    await expect(serverApp.sendMagicLinkEmail('a@example.com')).rejects.toThrow('callbackUrl option is required in a non-browser environment.');
  });
});

describe('OAuth client flow', () => {
  async function start(browser: FakeBrowser, app: GatehouseClientApp) {
    void app.signInWithOAuth('GitHub');
    const until = Date.now() + 20_000; // the PKCE hashing is asynchronous: allow for a busy machine
    while (browser.navigations.length === 0 && Date.now() < until) await Bun.sleep(1);
    return new URL(browser.navigations[0]!.url);
  }

  test('authorize navigation: PKCE S256, state, verifier cookie for 3600 s, stripped redirect_uri', async () => {
    const { app, browser } = browserApp('https://app.example.com/handler/sign-in?code=old&state=old&after_auth_return_to=%2Fback');
    const url = await start(browser, app);
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:9/api/v1/auth/oauth/authorize/github');
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      client_id: 'proj-test',
      client_secret: 'pck_test',
      scope: 'legacy',
      grant_type: 'authorization_code',
      code_challenge_method: 'S256',
      response_type: 'code',
      type: 'authenticate',
      redirect_uri: 'https://app.example.com/handler/oauth-callback?after_auth_return_to=%2Fback',
      error_redirect_url: 'https://app.example.com/handler/error?after_auth_return_to=%2Fback',
    });
    expect(q.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookieWrite = browser.document.writes.find((w) => w.startsWith(`stack-oauth-outer-${q.state}=`))!;
    const verifier = cookieWrite.split(';')[0]!.split('=')[1]!;
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.code_challenge).toBe(base64UrlEncode(await sha256Bytes(verifier)));
    const expires = new Date(/expires=([^;]+)/.exec(cookieWrite)![1]!).getTime();
    expect(Math.abs(expires - (Date.now() + 3600_000))).toBeLessThan(5000);
  });

  test('signInWithOAuth needs a browser', async () => {
    const app = new GatehouseClientApp({ ...TEST_KEYS, baseUrl: 'http://127.0.0.1:9', tokenStore: 'memory', browser: null });
    await expect(app.signInWithOAuth('github')).rejects.toThrow('signInWithOAuth can currently only be called in a browser environment');
  });

  test('callback: exchanges the code once, stores the tokens, consumes the cookie and cleans the address bar', async () => {
    const access = jwtExpiringIn(600_000);
    const server = localServer(async (req, { path }) => {
      if (path !== '/api/v1/auth/oauth/token') return undefined;
      const form = Object.fromEntries(new URLSearchParams(await req.text()));
      return Response.json({ access_token: access, refresh_token: 'rt-oauth', is_new_user: true, after_callback_redirect_url: null, token_type: 'Bearer', form });
    });
    stops.push(server.stop);
    const { app, browser } = browserApp('https://app.example.com/handler/sign-in', { baseUrl: server.url });
    const url = await start(browser, app);
    const state = url.searchParams.get('state')!;
    browser.setHref(`https://app.example.com/handler/oauth-callback?code=the-code&state=${state}`);
    const [first, second] = await Promise.all([app.callOAuthCallback(), app.callOAuthCallback()]);
    expect([first, second].sort()).toEqual([false, true]);
    expect(server.count('POST', '/api/v1/auth/oauth/token')).toBe(1);
    const form = Object.fromEntries(new URLSearchParams(server.requests[0]!.body));
    expect(form).toMatchObject({
      grant_type: 'authorization_code',
      code: 'the-code',
      redirect_uri: 'https://app.example.com/handler/oauth-callback',
      client_id: 'proj-test',
      client_secret: 'pck_test',
    });
    expect(form.code_verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(parseCookies(browser.document.cookie).has(`stack-oauth-outer-${state}`)).toBe(false);
    expect(app._core.requireTokenStore().get()).toEqual({ refreshToken: 'rt-oauth', accessToken: access });
    expect(browser.location.href).toBe('https://app.example.com/handler/oauth-callback');
    // new user → after sign-up (= home), replace
    expect(browser.navigations.at(-1)).toEqual({ url: '/', replace: true });
  });

  test('callback without parameters, or without the verifier cookie, does nothing', async () => {
    const { app, browser } = browserApp('https://app.example.com/handler/oauth-callback');
    expect(await app.callOAuthCallback()).toBe(false);
    browser.setHref('/handler/oauth-callback?code=c&state=unknown');
    expect(await app.callOAuthCallback()).toBe(false);
  });

  test('callback with a mismatching iss is rejected after the retries, wrapped in the sign-in error', async () => {
    const { app, browser, ft } = browserApp('https://app.example.com/');
    const url = await start(browser, app);
    browser.setHref(`/handler/oauth-callback?code=c&state=${url.searchParams.get('state')}&iss=https%3A%2F%2Fevil`);
    const err = await app.callOAuthCallback().catch((e) => e);
    expect(err.message).toBe('Error signing in during OAuth callback. Please try again.');
    expect(err.cause.message).toBe('Error validating outer OAuth response');
    expect(ft.sleeps).toEqual([1000, 2000, 4000, 8000]);
  });

  test('MFA during the callback: prompts for the code and finishes through /auth/mfa/sign-in', async () => {
    const access = jwtExpiringIn(600_000);
    const server = localServer(async (req, { path }) => {
      if (path === '/api/v1/auth/oauth/token') {
        return Response.json(
          { code: 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', details: { attempt_code: 'attempt-1' }, error: 'Multi-factor authentication is required for this user.' },
          { status: 400, headers: { 'x-stack-known-error': 'MULTI_FACTOR_AUTHENTICATION_REQUIRED' } },
        );
      }
      if (path === '/api/v1/auth/mfa/sign-in') {
        const body = await req.json();
        if (body.totp !== '123456' || body.code !== 'attempt-1' || body.type !== 'totp') return undefined;
        return Response.json({ access_token: access, refresh_token: 'rt-mfa', is_new_user: false, user_id: 'u' });
      }
      return undefined;
    });
    stops.push(server.stop);
    const { app, browser } = browserApp('https://app.example.com/', { baseUrl: server.url });
    const url = await start(browser, app);
    browser.setHref(`/handler/oauth-callback?code=c&state=${url.searchParams.get('state')}`);
    browser.promptAnswer = '123456';
    expect(await app.callOAuthCallback()).toBe(true);
    expect(browser.prompts).toEqual(['Please enter the six-digit TOTP code from your authenticator app.']);
    expect(app._core.requireTokenStore().get().refreshToken).toBe('rt-mfa');

    // cancelled prompt → alert and false
    const url2 = await (async () => {
      browser.navigations.length = 0;
      return start(browser, app);
    })();
    browser.setHref(`/handler/oauth-callback?code=c&state=${url2.searchParams.get('state')}`);
    browser.promptAnswer = null;
    expect(await app.callOAuthCallback()).toBe(false);
    expect(browser.alerts).toEqual(['Invalid TOTP code. Please try signing in again.']);
  });
});
