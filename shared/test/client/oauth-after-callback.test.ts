// Issue 17 §7 (ASVS 5.1.5): after an OAuth sign-in the client library navigates to `after_callback_redirect_url`
// only when it is a page of the app's own origin; any other URL (from a tampered flow or a misconfigured server)
// is ignored in favour of the app's after-sign-in page, so the callback cannot be used as an open redirect.
import { afterEach, expect, test } from 'bun:test';
import { GatehouseClientApp } from '../../src/client/index.ts';
import { fakeBrowser, fakeTimers, jwtExpiringIn, localServer, TEST_KEYS } from './support.ts';

const stops: (() => void)[] = [];
afterEach(() => { while (stops.length) stops.pop()!(); });

async function callbackWith(after: string | null) {
  const server = localServer((_req, { path }) =>
    path === '/api/v1/auth/oauth/token'
      ? Response.json({ access_token: jwtExpiringIn(600_000), refresh_token: 'rt-oauth', is_new_user: false, after_callback_redirect_url: after, token_type: 'Bearer' })
      : undefined,
  );
  stops.push(server.stop);
  const browser = fakeBrowser('https://app.example.com/handler/sign-in');
  const ft = fakeTimers();
  const app = new GatehouseClientApp({ ...TEST_KEYS, baseUrl: server.url, tokenStore: 'cookie', browser, timers: ft.timers, redirectMethod: 'window' });
  void app.signInWithOAuth('github');
  const until = Date.now() + 20_000;
  while (browser.navigations.length === 0 && Date.now() < until) await Bun.sleep(1);
  const state = new URL(browser.navigations[0]!.url).searchParams.get('state')!;
  browser.navigations.length = 0;
  browser.setHref(`https://app.example.com/handler/oauth-callback?code=the-code&state=${state}`);
  expect(await app.callOAuthCallback()).toBe(true);
  return browser.navigations;
}

test('a same-origin after_callback_redirect_url is followed', async () => {
  expect(await callbackWith('https://app.example.com/settings?tab=1')).toEqual([{ url: 'https://app.example.com/settings?tab=1', replace: true }]);
});

test('an after_callback_redirect_url on another origin is not followed: the after-sign-in page is', async () => {
  const navigations = await callbackWith('https://evil.example.net/phish');
  expect(navigations.length).toBe(1);
  expect(navigations[0]!.url).not.toContain('evil.example.net');
  expect(navigations[0]!.replace).toBe(true);
});
