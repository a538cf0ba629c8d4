// Session handling against a local token server (client-library §3).
import { afterEach, describe, expect, test } from 'bun:test';
import { GatehouseClientApp, getJwtExpiresAt } from '../../src/client/index.ts';
import { decodeJwtPayload } from '../../src/client/jwt.ts';
import { fakeJwt, fakeTimers, jwtExpiringIn, knownErrorResponse, localServer, TEST_KEYS } from './support.ts';

const stops: (() => void)[] = [];
afterEach(() => {
  while (stops.length) stops.pop()!();
});

const userJson = (id = 'u1') => ({
  id,
  display_name: null,
  primary_email: 'a@example.com',
  primary_email_verified: false,
  profile_image_url: null,
  signed_up_at_millis: 1,
  client_metadata: null,
  client_read_only_metadata: null,
  has_password: true,
  auth_with_email: true,
  otp_auth_enabled: false,
  passkey_auth_enabled: false,
  oauth_providers: [],
  requires_totp_mfa: false,
  is_anonymous: false,
  selected_team: null,
  selected_team_id: null,
});

/** A fake service: /auth/oauth/token mints tokens for refresh token `rt` (60 s), protected routes check `exp`. */
function tokenService(opts: { refreshDelayMs?: number; deadRefresh?: boolean; rejectFirst?: boolean } = {}) {
  let minted = 0;
  let rejected = false;
  const server = localServer(async (req, { path }) => {
    if (path === '/api/v1/auth/oauth/token') {
      if (opts.refreshDelayMs) await Bun.sleep(opts.refreshDelayMs);
      const form = new URLSearchParams(await req.text());
      if (opts.deadRefresh || form.get('refresh_token') !== 'rt') {
        return Response.json(
          { code: 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', error: 'Refresh token not found for this project, or the session has expired/been revoked.' },
          { status: 401, headers: { 'x-stack-known-error': 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED' } },
        );
      }
      minted++;
      return Response.json({ access_token: jwtExpiringIn(60_000, Date.now(), { n: minted }), token_type: 'Bearer', expires_in: 3599, scope: 'legacy' });
    }
    const token = req.headers.get('x-stack-access-token');
    if (path === '/api/v1/auth/sessions/current' && req.method === 'DELETE') {
      if (opts.deadRefresh) return knownErrorResponse('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, 'gone');
      return token ? Response.json({ success: true }) : knownErrorResponse('ACCESS_TOKEN_EXPIRED', 401, 'expired', { expired_at_millis: Date.now() });
    }
    if (!token) return knownErrorResponse('CANNOT_GET_OWN_USER_WITHOUT_USER', 400, 'no user');
    let exp: number;
    try {
      exp = getJwtExpiresAt(token);
    } catch {
      return knownErrorResponse('UNPARSABLE_ACCESS_TOKEN', 401, 'Access token is not parsable.');
    }
    if (exp <= Date.now() || (opts.rejectFirst && !rejected)) {
      rejected = true;
      return knownErrorResponse('ACCESS_TOKEN_EXPIRED', 401, 'Access token has expired.', { expired_at_millis: exp });
    }
    if (path === '/api/v1/users/me') return Response.json(userJson());
    return Response.json({ items: [], is_paginated: false, token_n: decodeJwtPayload(token).n ?? null });
  });
  stops.push(server.stop);
  return server;
}

function appFor(url: string, tokens: { accessToken: string | null; refreshToken: string | null }) {
  const ft = fakeTimers({ sleepAdvancesClock: false });
  const app = new GatehouseClientApp({ ...TEST_KEYS, baseUrl: url, tokenStore: 'memory', browser: null, timers: ft.timers });
  app._core.requireTokenStore().set(tokens);
  return { app, ft, store: app._core.requireTokenStore(), session: () => app._core.defaultSession() };
}

describe('JWT expiry', () => {
  test('exp × 1000; no exp never expires; undecodable throws', () => {
    expect(getJwtExpiresAt(fakeJwt({ exp: 1234 }))).toBe(1_234_000);
    expect(getJwtExpiresAt(fakeJwt({ sub: 'x' }))).toBe(Infinity);
    expect(() => getJwtExpiresAt('garbage')).toThrow('Invalid JWT');
    expect(() => getJwtExpiresAt('a.b.c')).toThrow('Invalid JWT');
  });
});

describe('refresh', () => {
  test('20 parallel calls with an expired access token cause exactly one refresh request', async () => {
    const server = tokenService({ refreshDelayMs: 50 });
    const { app, store, session } = appFor(server.url, { refreshToken: 'rt', accessToken: jwtExpiringIn(-1000) });
    const s = session();
    const results = await Promise.all(Array.from({ length: 20 }, () => app._core.json('/teams?user_id=me', {}, s, 'client')));
    expect(server.count('POST', '/api/v1/auth/oauth/token')).toBe(1);
    expect(results.every((r) => r.token_n === 1)).toBe(true);
    expect(server.count('GET', '/api/v1/teams')).toBe(20);
    // the new access token was written back to the store, the refresh token kept
    expect(store.get().refreshToken).toBe('rt');
    expect(decodeJwtPayload(store.get().accessToken!).n).toBe(1);
  });

  test('the refresh grant is form-encoded client_secret_post without x-stack headers', async () => {
    const server = tokenService();
    const { app, session } = appFor(server.url, { refreshToken: 'rt', accessToken: null });
    await app._core.json('/teams?user_id=me', {}, session(), 'client');
    const r = server.requests.find((x) => x.path === '/api/v1/auth/oauth/token')!;
    expect(r.headers.get('content-type')).toBe('application/x-www-form-urlencoded;charset=UTF-8');
    expect(Object.fromEntries(new URLSearchParams(r.body))).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'rt',
      client_id: 'proj-test',
      client_secret: 'pck_test',
    });
    expect([...r.headers.keys()].filter((k) => k.startsWith('x-stack'))).toEqual([]);
  });

  test('a token with less than 20 s left is refreshed; one with more is used as is', async () => {
    const server = tokenService();
    const fresh = jwtExpiringIn(25_000);
    const a = appFor(server.url, { refreshToken: 'rt', accessToken: fresh });
    await a.app._core.json('/teams?user_id=me', {}, a.session(), 'client');
    expect(server.count('POST', '/api/v1/auth/oauth/token')).toBe(0);
    expect(server.requests.at(-1)!.headers.get('x-stack-access-token')).toBe(fresh);
    expect(server.requests.at(-1)!.headers.get('x-stack-refresh-token')).toBe('rt');
    const b = appFor(server.url, { refreshToken: 'rt', accessToken: jwtExpiringIn(19_000) });
    await b.app._core.json('/teams?user_id=me', {}, b.session(), 'client');
    expect(server.count('POST', '/api/v1/auth/oauth/token')).toBe(1);
  });

  test('ACCESS_TOKEN_EXPIRED from the server forgets the token, refreshes once and retries after the back-off', async () => {
    const server = tokenService({ rejectFirst: true });
    const { app, ft, session } = appFor(server.url, { refreshToken: 'rt', accessToken: jwtExpiringIn(50_000) });
    const res = await app._core.json('/teams?user_id=me', {}, session(), 'client');
    expect(res.token_n).toBe(1);
    expect(server.count('GET', '/api/v1/teams')).toBe(2);
    expect(server.count('POST', '/api/v1/auth/oauth/token')).toBe(1);
    expect(ft.sleeps).toEqual([1000]);
  });

  test('a dead refresh token invalidates the session: store wiped, later reads answer null without a request', async () => {
    const server = tokenService({ deadRefresh: true });
    const { app, store } = appFor(server.url, { refreshToken: 'rt', accessToken: null });
    expect(await app.getUser()).toBeNull();
    expect(store.get()).toEqual({ refreshToken: null, accessToken: null });
    const before = server.requests.length;
    expect(await app.getUser()).toBeNull();
    expect(server.requests.length).toBe(before);
  });

  test('an access-token-only store counts as signed out (2.8.3 behaviour); asking for ≥ 60 s is refused', async () => {
    const server = tokenService();
    const { app, session } = appFor(server.url, { refreshToken: null, accessToken: jwtExpiringIn(600_000) });
    expect(await app.getUser()).toBeNull();
    expect(server.requests.at(-1)!.headers.get('x-stack-access-token')).toBeNull();
    await expect(session().getOrFetchLikelyValidTokens(60_000)).rejects.toThrow(
      'Required access token expiry 60000ms is too long; access tokens are too short to be used for more than 60s',
    );
  });

  test('an invalid-token error on a request that carried no token is an assertion', async () => {
    const server = localServer(() => knownErrorResponse('UNPARSABLE_ACCESS_TOKEN', 401, 'Access token is not parsable.'));
    stops.push(server.stop);
    const { app } = appFor(server.url, { refreshToken: null, accessToken: null });
    await expect(app._core.json('/x', {}, null, 'client')).rejects.toThrow('Received invalid access token, but session is not logged in');
  });
});

describe('current user and sign-out', () => {
  test('getUser maps the user; or:"throw" throws when signed out', async () => {
    const server = tokenService();
    const { app } = appFor(server.url, { refreshToken: 'rt', accessToken: null });
    const user = await app.getUser({ or: 'throw' });
    expect(user.id).toBe('u1');
    expect(user.primaryEmail).toBe('a@example.com');
    expect(user.signedUpAt).toEqual(new Date(1));
    expect(Object.isFrozen(user)).toBe(true);
    const out = appFor(server.url, { refreshToken: null, accessToken: null });
    await expect(out.app.getUser({ or: 'throw' })).rejects.toThrow("User is not signed in but getUser was called with { or: 'throw' }");
  });

  test('signOut deletes the current session with body {} and wipes the store', async () => {
    const server = tokenService();
    const { app, store } = appFor(server.url, { refreshToken: 'rt', accessToken: null });
    await app.signOut();
    const del = server.requests.find((r) => r.method === 'DELETE')!;
    expect(del.path).toBe('/api/v1/auth/sessions/current');
    expect(del.body).toBe('{}');
    expect(del.headers.get('content-type')).toBe('application/json');
    expect(store.get()).toEqual({ refreshToken: null, accessToken: null });
    expect(await app.getUser()).toBeNull();
  });

  test('signOut with an already-dead session still signs out locally', async () => {
    const server = tokenService({ deadRefresh: true });
    const { app, store } = appFor(server.url, { refreshToken: 'rt', accessToken: jwtExpiringIn(300_000) });
    const user = await app.getUser();
    expect(user).not.toBeNull();
    await user!.signOut();
    expect(server.count('DELETE', '/api/v1/auth/sessions/current')).toBe(1);
    expect(store.get()).toEqual({ refreshToken: null, accessToken: null });
  });
});
