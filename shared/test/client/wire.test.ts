// Wire format of flows the running service cannot exercise yet (user/team API keys, anonymous users, connected
// accounts, passkeys), against a local fake that records every request.
import { afterEach, describe, expect, test } from 'bun:test';
import { WebAuthnError } from '@simplewebauthn/browser';
import { GatehouseClientApp, GatehouseServerApp, cachedReadsSymbol } from '../../src/client/index.ts';
import { KnownErrors } from '../../src/known-errors.ts';
import { fakeBrowser, fakeTimers, jwtExpiringIn, knownErrorResponse, localServer, TEST_KEYS } from './support.ts';

const stops: (() => void)[] = [];
afterEach(() => {
  while (stops.length) stops.pop()!();
});

const baseUser = (extra: Record<string, unknown> = {}) => ({
  id: 'u1', display_name: null, primary_email: 'a@example.com', primary_email_verified: true, profile_image_url: null,
  signed_up_at_millis: 1, client_metadata: null, client_read_only_metadata: null, has_password: true, auth_with_email: true,
  otp_auth_enabled: false, passkey_auth_enabled: false, oauth_providers: [], requires_totp_mfa: false, is_anonymous: false,
  selected_team: null, selected_team_id: null, last_active_at_millis: 2, server_metadata: null, primary_email_auth_enabled: true,
  ...extra,
});

type Route = (req: Request, body: any) => Response | Promise<Response> | undefined;

function fake(routes: Record<string, Route>) {
  const server = localServer(async (req) => {
    const url = new URL(req.url);
    const text = await req.text();
    const body = text ? JSON.parse(text) : undefined;
    const route = routes[`${req.method} ${url.pathname.replace('/api/v1', '')}${url.search}`] ?? routes[`${req.method} ${url.pathname.replace('/api/v1', '')}`];
    return route?.(req, body);
  });
  stops.push(server.stop);
  const calls = () => server.requests.map((r) => `${r.method} ${r.path.replace('/api/v1', '')}${r.body ? ' ' + r.body : ''}`);
  return { server, calls };
}

const tokenRoute: Route = () => Response.json({ access_token: jwtExpiringIn(600_000), token_type: 'Bearer' });

function signedInApp(url: string, extra: Record<string, unknown> = {}) {
  const app = new GatehouseClientApp({ ...TEST_KEYS, baseUrl: url, tokenStore: 'memory', browser: null, timers: fakeTimers().timers, ...extra });
  app._core.requireTokenStore().set({ refreshToken: 'rt', accessToken: jwtExpiringIn(600_000) });
  return app;
}

const key = (extra: Record<string, unknown>) => ({ id: 'k1', description: 'd', created_at_millis: 5, is_public: false, ...extra });

describe('user and team API keys', () => {
  test('client: create (first view), list (last four), revoke sends only `revoked`', async () => {
    const { server, calls } = fake({
      'POST /user-api-keys': (_r, b) => Response.json(key({ type: 'user', user_id: 'u1', value: 'sk_full', expires_at_millis: b.expires_at_millis })),
      'GET /user-api-keys?user_id=me': () => Response.json({ items: [key({ type: 'user', user_id: 'u1', value: { last_four: 'full' } })], is_paginated: false }),
      'PATCH /user-api-keys/k1?user_id=me': () => Response.json(key({ type: 'user', user_id: 'u1', value: { last_four: 'full' }, manually_revoked_at_millis: 9 })),
      'GET /users/me': () => Response.json(baseUser()),
    });
    const app = signedInApp(server.url);
    const user = await app.getUser({ or: 'throw' });
    const expiresAt = new Date(Date.now() + 86_400_000);
    const created = await user.createApiKey({ description: 'd', expiresAt });
    expect(created.value).toBe('sk_full');
    expect(created.expiresAt).toEqual(expiresAt);
    const [listed] = await user.listApiKeys();
    expect(listed!.value).toEqual({ lastFour: 'full' });
    expect(listed!.isValid()).toBe(true);
    await listed!.revoke();
    expect(calls()).toEqual([
      'GET /users/me',
      `POST /user-api-keys {"description":"d","expires_at_millis":${expiresAt.getTime()},"is_public":false,"user_id":"me"}`,
      'GET /user-api-keys?user_id=me',
      'GET /user-api-keys?user_id=me',
      'PATCH /user-api-keys/k1?user_id=me {"revoked":true}',
      'GET /user-api-keys?user_id=me',
    ]);
  });

  test('whyInvalid: revocation is checked before expiry; no expiry never expires', async () => {
    const { server } = fake({
      'GET /users/me': () => Response.json(baseUser()),
      'GET /user-api-keys?user_id=me': () =>
        Response.json({
          items: [
            key({ id: 'a', type: 'user', user_id: 'u1', value: { last_four: '1111' }, expires_at_millis: 10, manually_revoked_at_millis: 5 }),
            key({ id: 'b', type: 'user', user_id: 'u1', value: { last_four: '2222' }, expires_at_millis: 10 }),
            key({ id: 'c', type: 'user', user_id: 'u1', value: { last_four: '3333' } }),
          ],
        }),
    });
    const user = await signedInApp(server.url).getUser({ or: 'throw' });
    expect((await user.listApiKeys()).map((k) => [k.id, k.whyInvalid(), k.expiresAt])).toEqual([
      ['a', 'manually-revoked', new Date(10)],
      ['b', 'expired', new Date(10)],
      ['c', null, undefined],
    ]);
  });

  test('server: getUser({apiKey}) and getTeam({apiKey}) check the key; invalid keys give null', async () => {
    const { server, calls } = fake({
      'POST /user-api-keys/check': (_r, b) =>
        b.api_key === 'good' ? Response.json(key({ type: 'user', user_id: 'u1', value: { last_four: 'good' } })) : knownErrorResponse('API_KEY_REVOKED', 401, 'API key has been revoked.'),
      'POST /team-api-keys/check': () => Response.json(key({ type: 'team', team_id: 't1', value: { last_four: 'team' } })),
      'GET /users/u1': () => Response.json(baseUser()),
      'GET /teams': () => Response.json({ items: [{ id: 't1', display_name: 'T', profile_image_url: null, client_metadata: null, client_read_only_metadata: null, created_at_millis: 3, server_metadata: null }] }),
      'POST /team-api-keys': (_r, b) => Response.json(key({ type: 'team', team_id: b.team_id, value: 'tk_full' })),
      'GET /team-api-keys?team_id=t1': () => Response.json({ items: [] }),
    });
    const app = new GatehouseServerApp({ ...TEST_KEYS, baseUrl: server.url, tokenStore: null, timers: fakeTimers().timers });
    expect((await app.getUser({ apiKey: 'good' }))?.id).toBe('u1');
    expect(await app.getUser({ apiKey: 'bad' })).toBeNull();
    const team = (await app.getTeam({ apiKey: 'tk' }))!;
    expect(team.id).toBe('t1');
    const created = await team.createApiKey({ description: 'ci', expiresAt: null, isPublic: true });
    expect(created).toMatchObject({ type: 'team', teamId: 't1', value: 'tk_full' });
    expect(calls()).toContain('POST /team-api-keys {"description":"ci","expires_at_millis":null,"is_public":true,"team_id":"t1"}');
    expect(server.requests.every((r) => r.headers.get('x-stack-access-type') === 'server')).toBe(true);
  });
});

describe('anonymous users', () => {
  test('or:"anonymous" signs up anonymously once, stores the tokens and returns the anonymous user', async () => {
    let anonymousTokens = 0;
    const { server } = fake({
      'POST /auth/anonymous/sign-up': () => (anonymousTokens++, Response.json({ access_token: jwtExpiringIn(600_000, Date.now(), { anon: 1 }), refresh_token: 'anon-rt', user_id: 'anon' })),
      'GET /users/me': (req) =>
        req.headers.get('x-stack-access-token')
          ? Response.json(baseUser({ id: 'anon', is_anonymous: true, primary_email: null }))
          : knownErrorResponse('CANNOT_GET_OWN_USER_WITHOUT_USER', 400, 'no user'),
    });
    const app = new GatehouseClientApp({ ...TEST_KEYS, baseUrl: server.url, tokenStore: 'memory', browser: null, timers: fakeTimers().timers });
    expect(await app.getUser()).toBeNull();
    const [a, b] = await Promise.all([app.getUser({ or: 'anonymous' }), app.getUser({ or: 'anonymous' })]);
    expect(a.isAnonymous).toBe(true);
    expect(b.id).toBe('anon');
    expect(anonymousTokens).toBe(1);
    expect(app._core.requireTokenStore().get().refreshToken).toBe('anon-rt');
    expect(await app.getUser()).toBeNull(); // anonymous users are hidden by default
    expect((await app.getUser({ or: 'anonymous-if-exists' }))?.id).toBe('anon');
    await app.signOut(); // ignores anonymous users (2.8.3 behaviour)
    expect(app._core.requireTokenStore().get().refreshToken).toBe('anon-rt');
  });
});

describe('connected accounts', () => {
  test('connected → access token; missing scope → null; server or:"redirect" without connection throws', async () => {
    const { server, calls } = fake({
      'GET /users/me': () => Response.json(baseUser({ oauth_providers: [{ id: 'github', account_id: '42', email: null }] })),
      'POST /connected-accounts/me/github/access-token': (_r, b) =>
        b.scope === 'repo' ? knownErrorResponse('OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE', 400, 'no scope') : Response.json({ access_token: 'gh-token' }, { status: 201 }),
      'GET /users/u1': () => Response.json(baseUser()),
      'POST /connected-accounts/u1/github/access-token': () => knownErrorResponse('OAUTH_CONNECTION_NOT_CONNECTED_TO_USER', 400, 'not connected'),
    });
    const user = await signedInApp(server.url).getUser({ or: 'throw' });
    const account = await user.getConnectedAccount('github');
    expect(account?.id).toBe('github');
    expect(await account!.getAccessToken()).toEqual({ accessToken: 'gh-token' });
    expect(await user.getConnectedAccount('github', { scopes: ['repo'] })).toBeNull();
    expect(calls()).toContain('POST /connected-accounts/me/github/access-token {"scope":""}');

    const serverApp = new GatehouseServerApp({ ...TEST_KEYS, baseUrl: server.url, tokenStore: null, timers: fakeTimers().timers });
    const serverUser = (await serverApp.getUser('u1'))!;
    expect(await serverUser.getConnectedAccount('github')).toBeNull();
    await expect(serverUser.getConnectedAccount('github', { or: 'redirect' })).rejects.toThrow('Cannot add new scopes to a user that is not a CurrentUser.');
  });
});

describe('passkeys', () => {
  const initAuth = () => Response.json({ code: 'c'.repeat(45), options_json: { rpId: 'THIS_VALUE_WILL_BE_REPLACED.example.com', challenge: 'TU9DSw', allowCredentials: [], timeout: 60000, userVerification: 'preferred' } });

  test('sign-in replaces the RP id with the page host, posts the response and code, stores the tokens', async () => {
    const { server, calls } = fake({
      'POST /auth/passkey/initiate-passkey-authentication': initAuth,
      'POST /auth/passkey/sign-in': () => Response.json({ access_token: jwtExpiringIn(600_000), refresh_token: 'pk-rt', is_new_user: false, user_id: 'u1' }),
    });
    const seen: any[] = [];
    const browser = fakeBrowser('https://login.example.com/handler/sign-in');
    const app = new GatehouseClientApp({
      ...TEST_KEYS, baseUrl: server.url, tokenStore: 'memory', browser, redirectMethod: 'window', timers: fakeTimers().timers,
      webauthn: {
        startAuthentication: async ({ optionsJSON }) => (seen.push(optionsJSON), { id: 'cred', response: {} }),
        startRegistration: async () => ({}),
      },
    });
    expect(await app.signInWithPasskey()).toEqual({ status: 'ok', data: undefined });
    expect(seen[0].rpId).toBe('login.example.com');
    expect(calls()[1]).toBe(`POST /auth/passkey/sign-in {"authentication_response":{"id":"cred","response":{}},"code":"${'c'.repeat(45)}"}`);
    expect(app._core.requireTokenStore().get().refreshToken).toBe('pk-rt');
    expect(browser.navigations).toEqual([{ url: '/', replace: true }]);
  });

  test('a WebAuthn library error becomes PasskeyWebAuthnError; anything else PasskeyAuthenticationFailed', async () => {
    const { server } = fake({ 'POST /auth/passkey/initiate-passkey-authentication': initAuth });
    let fail: Error = new WebAuthnError({ message: 'Authentication ceremony was sent an abort signal', code: 'ERROR_CEREMONY_ABORTED', cause: Object.assign(new Error('x'), { name: 'AbortError' }) });
    const app = new GatehouseClientApp({
      ...TEST_KEYS, baseUrl: server.url, tokenStore: 'memory', browser: fakeBrowser(), timers: fakeTimers().timers,
      webauthn: { startAuthentication: async () => { throw fail; }, startRegistration: async () => ({}) },
    });
    const a = await app.signInWithPasskey();
    expect(a.status === 'error' && a.error).toBeInstanceOf(KnownErrors.PasskeyWebAuthnError);
    expect(a.status === 'error' && a.error.details).toEqual({ message: 'Authentication ceremony was sent an abort signal', code: 'AbortError' });
    fail = new Error('network down');
    const b = await app.signInWithPasskey();
    expect(b.status === 'error' && b.error).toBeInstanceOf(KnownErrors.PasskeyAuthenticationFailed);
    expect(b.status === 'error' && b.error.message).toBe('Failed to sign in with passkey');
  });

  test('registration needs a redirect method (a current page) and replaces rp.id', async () => {
    const { server, calls } = fake({
      'GET /users/me': () => Response.json(baseUser()),
      'POST /auth/passkey/initiate-passkey-registration': () => Response.json({ code: 'r'.repeat(45), options_json: { rp: { id: 'THIS_VALUE_WILL_BE_REPLACED.example.com', name: 'P' }, user: {}, challenge: 'TU9DSw' } }),
      'POST /auth/passkey/register': () => Response.json({ user_handle: 'h' }),
    });
    const seen: any[] = [];
    const webauthn = { startAuthentication: async () => ({}), startRegistration: async ({ optionsJSON }: any) => (seen.push(optionsJSON), { id: 'new-cred' }) };
    const none = signedInApp(server.url, { browser: fakeBrowser('https://app.example.com/'), webauthn });
    await expect((await none.getUser({ or: 'throw' })).registerPasskey()).rejects.toThrow('hostname must be provided if the Stack App does not have a redirect method');
    const app = signedInApp(server.url, { browser: fakeBrowser('https://app.example.com/settings'), redirectMethod: 'window', webauthn });
    expect(await (await app.getUser({ or: 'throw' })).registerPasskey()).toEqual({ status: 'ok', data: undefined });
    expect(seen[0].rp).toEqual({ id: 'app.example.com', name: 'P' });
    expect(calls()).toContain(`POST /auth/passkey/register {"credential":{"id":"new-cred"},"code":"${'r'.repeat(45)}"}`);
  });
});

describe('cached reads for hooks', () => {
  test('the current-user entry notifies subscribers and answers null after the session is invalidated', async () => {
    const { server } = fake({
      'GET /users/me': () => Response.json(baseUser()),
      'DELETE /auth/sessions/current': () => Response.json({ success: true }),
      'POST /auth/oauth/token': tokenRoute,
    });
    const app = signedInApp(server.url);
    const read = app[cachedReadsSymbol].currentUser();
    const snapshots: string[] = [];
    const unsubscribe = read.subscribe(() => {
      const s = read.peek();
      snapshots.push(s.status === 'ok' ? (s.value ? s.value.id : 'null') : s.status);
    });
    expect((await read.read())?.id).toBe('u1');
    const user = await app.getUser({ or: 'throw' });
    await user.signOut();
    await Bun.sleep(10);
    expect(snapshots.at(-1)).toBe('null');
    expect(read.peek()).toEqual({ status: 'ok', value: null });
    unsubscribe();
  });

  test('getUser({or:"redirect"}) redirects to sign-in with the current page as return target', async () => {
    const { server } = fake({ 'GET /users/me': () => knownErrorResponse('CANNOT_GET_OWN_USER_WITHOUT_USER', 400, 'no user') });
    const browser = fakeBrowser('https://app.example.com/private');
    const app = new GatehouseClientApp({ ...TEST_KEYS, baseUrl: server.url, tokenStore: 'memory', browser, redirectMethod: 'window', timers: fakeTimers().timers });
    expect(await app.getUser({ or: 'redirect' })).toBeNull();
    expect(browser.navigations).toEqual([{ url: '/handler/sign-in?after_auth_return_to=%2Fprivate', replace: true }]);
  });
});
