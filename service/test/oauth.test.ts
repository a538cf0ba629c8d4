// Third-party sign-in end to end over HTTP (protocol-auth §3.6): a real local OpenID provider stands in for every
// provider; the service runs with GATEHOUSE_OAUTH_ISSUER_OVERRIDES pointing at it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { createHash, randomBytes } from 'node:crypto';
import { DEV_CLIENT_SECRET, devClientId } from '../src/oauth/endpoints.ts';
import { devProviderClients, startDevOidcProvider, type DevOidcProvider } from '../src/oauth/dev-provider.ts';
import { completeProviderLogin, completeProviderLoginRaw, startOidcFixture, type OidcFixture } from './support/oidc.ts';
import { expectKnownError, sharedService, startService, uniqueEmail, type RunningService } from './support/service.ts';
import { newProject, signUp, type TestProject } from './support/projects.ts';

const REDIRECT = 'http://localhost:12345/some-callback-url';
const ERROR_PAGE = 'http://localhost:12345/oauth-error';
const COOKIE_NOT_FOUND = 'Inner OAuth cookie not found. This is likely because you refreshed the page during the OAuth sign in process. Please try signing in again';

// Real processes on a shared, sometimes busy machine: more room than bun's default 5 s per test.
setDefaultTimeout(60_000);

let idp: OidcFixture;
/** A second provider (for gitlab) whose access tokens live 60 s, so stored tokens always need refreshing. */
let shortIdp: DevOidcProvider;
let svc: RunningService;

beforeAll(async () => {
  idp = await startOidcFixture();
  shortIdp = await startDevOidcProvider({ port: 0, accessTokenTtlSeconds: 60 });
  svc = await startService({ env: { GATEHOUSE_OAUTH_ISSUER_OVERRIDES: JSON.stringify({ '*': idp.issuer, gitlab: shortIdp.issuer }) } });
  idp.addDevClients(svc.url);
  devProviderClients(svc.url).forEach(shortIdp.addClient);
}, 60_000);

afterAll(async () => {
  await svc?.stop();
  await idp?.close();
  await shortIdp?.close();
}, 30_000);

const standard = (id: string, enabled = true) => ({ id, type: 'standard', enabled, client_id: devClientId(id as never), client_secret: DEV_CLIENT_SECRET });

function oauthProject(config: Record<string, unknown> = {}) {
  return newProject(svc, { config: { oauth_providers: [standard('github'), standard('gitlab'), standard('apple'), { id: 'google', type: 'shared', enabled: true }, standard('spotify', false)], ...config } });
}

const rand = (n = 16) => randomBytes(n).toString('base64url');
const login = (prefix = 'user') => `${prefix}-${rand(6)}`;

interface Authorize { res: Response; location: string; cookie: string; state: string; verifier: string; redirectUri: string }

async function authorize(p: TestProject, provider = 'github', o: Record<string, string> = {}): Promise<Authorize> {
  const verifier = o.verifier ?? rand(32);
  const method = o.code_challenge_method ?? 'S256';
  const state = rand();
  const redirectUri = o.redirect_uri ?? REDIRECT;
  const { verifier: _v, ...extra } = o;
  const q = new URLSearchParams({
    client_id: p.id, client_secret: p.keys.publishableClientKey, redirect_uri: redirectUri, scope: 'legacy', state,
    grant_type: 'authorization_code', code_challenge: method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier,
    code_challenge_method: method, response_type: 'code', ...extra,
  });
  const res = await fetch(`${svc.url}/api/v1/auth/oauth/authorize/${provider}?${q}`, { redirect: 'manual' });
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { res, location: res.headers.get('location') ?? '', cookie: setCookie.split(';')[0], state, verifier, redirectUri };
}

async function callback(url: string, cookie: string | undefined, init: { method?: string; body?: URLSearchParams } = {}) {
  const headers: Record<string, string> = cookie ? { cookie } : {};
  if (init.body) headers['content-type'] = 'application/x-www-form-urlencoded';
  const res = await fetch(url, { method: init.method ?? 'GET', body: init.body, headers, redirect: 'manual' });
  const text = await res.text();
  let body: any = text;
  try { body = JSON.parse(text); } catch { /* plain text */ }
  return { status: res.status, headers: res.headers, body, text, location: res.headers.get('location') ?? '' };
}

/** authorize → provider login → callback: returns the callback response and what the token exchange needs. */
async function dance(p: TestProject, as: string, o: { provider?: string; query?: Record<string, string>; approve?: boolean } = {}) {
  const a = await authorize(p, o.provider, o.query);
  expect(a.res.status).toBe(307);
  const providerCallback = await completeProviderLogin(a.location, { login: as, approve: o.approve });
  const cb = await callback(providerCallback, a.cookie);
  return { ...a, cb, providerCallback, code: cb.location ? new URL(cb.location).searchParams.get('code') : null };
}

function exchange(p: TestProject, code: string, verifier: string | undefined, redirectUri = REDIRECT) {
  const body: Record<string, string> = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: p.id, client_secret: p.keys.publishableClientKey };
  if (verifier !== undefined) body.code_verifier = verifier;
  return p.client.post('/auth/oauth/token', body, { form: true, headers: { accept: 'application/json' } });
}

/** The whole flow; returns the token response body. */
async function oauthSignIn(p: TestProject, as: string, o: Parameters<typeof dance>[2] = {}) {
  const d = await dance(p, as, o);
  expect({ status: d.cb.status, body: d.cb.body }).toEqual({ status: 307, body: {} });
  const res = await exchange(p, d.code!, d.verifier, d.redirectUri);
  expect(res.status).toBe(200);
  return res.body;
}

async function me(p: TestProject, accessToken: string) {
  const res = await p.server.get('/users/me', { accessToken });
  expect(res.status).toBe(200);
  return res.body;
}

describe('authorize', () => {
  test('after_callback_redirect_url must be on a trusted domain (issue 17 §7: checked at authorize time)', async () => {
    const p = await oauthProject();
    const refused = await authorize(p, 'github', { after_callback_redirect_url: 'https://evil.example.com/after' });
    expect(refused.res.status).toBe(400);
    expect(refused.res.headers.get('x-stack-known-error')).toBe('REDIRECT_URL_NOT_WHITELISTED');
    expect((await authorize(p, 'github', { after_callback_redirect_url: 'http://localhost:12345/after' })).res.status).toBe(307);
  });

  test('redirects to the provider with PKCE and sets the browser-binding cookie', async () => {
    const p = await oauthProject();
    const a = await authorize(p);
    expect(a.res.status).toBe(307);
    const url = new URL(a.location);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('client_id')).toBe('gatehouse-dev-github');
    expect(url.searchParams.get('redirect_uri')).toBe(`${svc.url}/api/v1/auth/oauth/callback/github`);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('access_type')).toBe('offline');
    expect(url.searchParams.get('scope')!.split(' ')).toContain('user:email');
    const innerState = url.searchParams.get('state')!;
    expect(innerState).not.toBe(a.state);
    const cookie = a.res.headers.get('set-cookie')!;
    expect(cookie).toStartWith(`stack-oauth-inner-${innerState}=true; Path=/; Expires=`);
    expect(cookie).toContain('; Max-Age=600; HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).not.toContain('Secure'); // not in development/test over http
  });

  test('query checks: schema, client, secret, scope, challenge method, provider', async () => {
    const p = await oauthProject();
    const get = async (provider: string, patch: Record<string, string | undefined>) => {
      const q: Record<string, string> = {
        client_id: p.id, client_secret: p.keys.publishableClientKey, redirect_uri: REDIRECT, scope: 'legacy', state: 's',
        grant_type: 'authorization_code', code_challenge: 'c', code_challenge_method: 'S256', response_type: 'code',
      };
      for (const [k, v] of Object.entries(patch)) if (v === undefined) delete q[k]; else q[k] = v;
      const res = await fetch(`${svc.url}/api/v1/auth/oauth/authorize/${provider}?${new URLSearchParams(q)}`, { redirect: 'manual' });
      return { status: res.status, headers: res.headers, body: await res.json().catch(() => null) } as any;
    };
    let res = await get('github', { unexpected: 'x' });
    expectKnownError(res, 'SCHEMA_ERROR', 400);
    expect(res.body.error).toContain('query contains unknown properties: unexpected');
    res = await get('github', { redirect_uri: 'not a url' });
    expectKnownError(res, 'SCHEMA_ERROR', 400);
    expect(res.body.error).toContain('query.redirect_uri contains spaces');
    expect(res.body.error).toContain('query.redirect_uri is not a valid URL');
    expectKnownError(await get('github', { state: undefined }), 'SCHEMA_ERROR', 400);
    expectKnownError(await get('github', { code_challenge_method: 'S512' }), 'SCHEMA_ERROR', 400);
    expectKnownError(await get('github', { grant_type: 'implicit' }), 'SCHEMA_ERROR', 400);
    res = await get('github', { client_id: 'not-a-project' });
    expectKnownError(res, 'INVALID_OAUTH_CLIENT_ID_OR_SECRET', 400);
    expect(res.body.details).toEqual({ client_id: 'not-a-project' });
    expectKnownError(await get('github', { client_id: crypto.randomUUID() }), 'INVALID_OAUTH_CLIENT_ID_OR_SECRET', 400);
    res = await get('github', { client_secret: 'pck_wrong' });
    expectKnownError(res, 'INVALID_PUBLISHABLE_CLIENT_KEY', 401);
    expect(res.body.details).toEqual({ project_id: p.id });
    expectKnownError(await get('github', { scope: 'openid' }), 'INVALID_SCOPE', 400);
    expectKnownError(await get('spotify', {}), 'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED', 400); // disabled
    expectKnownError(await get('discord', {}), 'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED', 400); // not configured
    expectKnownError(await get('myspace', {}), 'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED', 400);
    expectKnownError(await get('google', { provider_scope: 'drive' }), 'OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS', 400);
    // link needs a valid access token of this project
    expectKnownError(await get('github', { type: 'link', token: 'garbage' }), 'UNPARSABLE_ACCESS_TOKEN', 401);
    const other = await newProject(svc);
    const stranger = await signUp(other);
    const wrong = await fetch(`${svc.url}/api/v1/auth/oauth/authorize/github?${new URLSearchParams({
      client_id: p.id, client_secret: p.keys.publishableClientKey, redirect_uri: REDIRECT, scope: 'legacy', state: 's',
      grant_type: 'authorization_code', code_challenge: 'c', code_challenge_method: 'S256', response_type: 'code', type: 'link', token: stranger.accessToken,
    })}`, { redirect: 'manual' });
    expect({ status: wrong.status, text: await wrong.text() }).toEqual({ status: 403, text: 'The access token is not valid for this project' });
  });
});

describe('sign-in and sign-up', () => {
  test('sign-up, then sign-in again as the same user; tokens work on /users/me', async () => {
    const p = await oauthProject({ create_team_on_sign_up: true });
    const who = login('alice');
    const email = uniqueEmail('alice');
    idp.setAccount(who, { email, emailVerified: true, name: 'Alice Anders' });

    const d = await dance(p, who);
    expect(d.cb.status).toBe(307);
    expect(d.cb.body).toEqual({});
    const back = new URL(d.cb.location);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe(d.state);
    expect(back.searchParams.get('code')).toMatch(/^[0-9a-f]{64}$/);
    expect(back.searchParams.has('iss')).toBe(false);
    expect(d.cb.headers.get('set-cookie')).toMatch(new RegExp(`^${d.cookie.split('=')[0]}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0`));

    const res = await exchange(p, d.code!, d.verifier);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'afterCallbackRedirectUrl', 'after_callback_redirect_url', 'expires_in', 'is_new_user', 'newUser', 'refresh_token', 'scope', 'token_type']);
    expect(res.body).toMatchObject({ is_new_user: true, newUser: true, scope: 'legacy', token_type: 'Bearer', after_callback_redirect_url: null, afterCallbackRedirectUrl: null });
    expect(res.body.refresh_token).toHaveLength(45);

    const user = await me(p, res.body.access_token);
    expect(user).toMatchObject({
      display_name: 'Alice Anders', primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true,
      has_password: false, oauth_providers: [{ id: 'github', account_id: who, email }],
    });
    expect(user.profile_image_url).toStartWith(idp.issuer);
    expect(user.selected_team).not.toBeNull(); // team on sign-up

    const again = await oauthSignIn(p, who);
    expect(again.is_new_user).toBe(false);
    expect((await me(p, again.access_token)).id).toBe(user.id);
    // the refresh token is a real session
    const refreshed = await p.client.post('/auth/oauth/token', { grant_type: 'refresh_token', refresh_token: again.refresh_token, client_id: p.id, client_secret: p.keys.publishableClientKey }, { form: true });
    expect(refreshed.status).toBe(200);
  });

  test('two first sign-ins of one account at once end as one user', async () => {
    const p = await oauthProject();
    const who = login('race');
    const starts = await Promise.all([authorize(p), authorize(p), authorize(p)]);
    const callbacks = await Promise.all(starts.map((a) => completeProviderLogin(a.location, { login: who })));
    const results = await Promise.all(callbacks.map((url, i) => callback(url, starts[i].cookie)));
    expect(results.map((r) => r.status)).toEqual([307, 307, 307]);
    const tokens = await Promise.all(results.map((r, i) => exchange(p, new URL(r.location).searchParams.get('code')!, starts[i].verifier)));
    const ids = new Set(await Promise.all(tokens.map(async (t) => (await me(p, t.body.access_token)).id)));
    expect(ids.size).toBe(1);
    expect(tokens.filter((t) => t.body.is_new_user)).toHaveLength(1);
  });

  test('shared provider signs in with the operator keys (here the override issuer)', async () => {
    const p = await oauthProject();
    const tokens = await oauthSignIn(p, login('shared'), { provider: 'google' });
    expect((await me(p, tokens.access_token)).oauth_providers[0].id).toBe('google');
  });

  test("Apple's form_post callback", async () => {
    const p = await oauthProject();
    const a = await authorize(p, 'apple');
    expect(new URL(a.location).searchParams.get('response_mode')).toBe('form_post');
    const raw = await completeProviderLoginRaw(a.location, { login: login('apple') });
    expect(raw.method).toBe('POST');
    if (raw.method !== 'POST') return;
    const cb = await callback(raw.url, a.cookie, { method: 'POST', body: raw.body });
    expect(cb.status).toBe(307);
    const res = await exchange(p, new URL(cb.location).searchParams.get('code')!, a.verifier);
    expect(res.status).toBe(200);
  });

  test('sign-up disabled: known error, or a redirect to a trusted error page', async () => {
    const p = await oauthProject({ sign_up_enabled: false });
    const d = await dance(p, login());
    expectKnownError(d.cb as any, 'SIGN_UP_NOT_ENABLED', 400);
    const r = await dance(p, login(), { query: { error_redirect_url: ERROR_PAGE } });
    expect(r.cb.status).toBe(307);
    const url = new URL(r.cb.location);
    expect(`${url.origin}${url.pathname}`).toBe(ERROR_PAGE);
    expect(url.searchParams.get('errorCode')).toBe('SIGN_UP_NOT_ENABLED');
    expect(url.searchParams.get('message')).toBeTruthy();
    expect(url.searchParams.get('details')).toBe('{}');
    // untrusted error page ⇒ plain JSON error
    const u = await dance(p, login(), { query: { error_redirect_uri: 'http://evil-website.example.com/err' } });
    expectKnownError(u.cb as any, 'SIGN_UP_NOT_ENABLED', 400);
  });

  test('access denied at the provider goes to the error page', async () => {
    const p = await oauthProject();
    const d = await dance(p, login(), { approve: false, query: { error_redirect_url: ERROR_PAGE } });
    expect(d.cb.status).toBe(307);
    const url = new URL(d.cb.location);
    expect(url.searchParams.get('errorCode')).toBe('OAUTH_PROVIDER_ACCESS_DENIED');
    expect(url.searchParams.get('message')).toBe('The OAuth provider denied access to the user.');
    expect(url.searchParams.get('details')).toBe('{}');
    const plain = await dance(p, login(), { approve: false });
    expectKnownError(plain.cb as any, 'OAUTH_PROVIDER_ACCESS_DENIED', 400);
  });

  test('untrusted redirect_uri is refused at the callback, before any account exists', async () => {
    const p = await oauthProject();
    const who = login();
    const d = await dance(p, who, { query: { redirect_uri: 'http://evil-website.example.com/cb' } });
    expectKnownError(d.cb as any, 'REDIRECT_URL_NOT_WHITELISTED', 400);
    const tokens = await oauthSignIn(p, who);
    expect(tokens.is_new_user).toBe(true);
    // trusted through a project domain
    const q = await oauthProject({ domains: [{ domain: 'https://app.example.com/base', handler_path: '/handler' }], allow_localhost: false });
    const ok = await dance(q, login(), { query: { redirect_uri: 'https://app.example.com/base/oauth-callback?x=1#frag' } });
    expect(ok.cb.status).toBe(307);
    const back = new URL(ok.cb.location);
    expect(back.searchParams.get('x')).toBe('1');
    expect(back.hash).toBe('');
    expect((await exchange(q, ok.code!, ok.verifier, 'https://app.example.com/base/oauth-callback?x=1')).status).toBe(200);
    const local = await dance(q, login());
    expectKnownError(local.cb as any, 'REDIRECT_URL_NOT_WHITELISTED', 400);
  });

  test('cookie checks: missing, wrong state, replayed callback', async () => {
    const p = await oauthProject();
    const a = await authorize(p);
    const providerCallback = await completeProviderLogin(a.location, { login: login() });
    let cb = await callback(providerCallback, undefined);
    expect({ status: cb.status, text: cb.text }).toEqual({ status: 400, text: COOKIE_NOT_FOUND });
    cb = await callback(providerCallback, `${a.cookie.split('=')[0]}=false`);
    expect({ status: cb.status, text: cb.text }).toEqual({ status: 400, text: COOKIE_NOT_FOUND });
    const wrongState = new URL(providerCallback);
    wrongState.searchParams.set('state', 'another-state');
    cb = await callback(wrongState.href, a.cookie);
    expect({ status: cb.status, text: cb.text }).toEqual({ status: 400, text: COOKIE_NOT_FOUND });
    wrongState.searchParams.set('state', 'x\r\nset-cookie: evil=1');
    cb = await callback(wrongState.href, a.cookie);
    expect({ status: cb.status, text: cb.text, cookie: cb.headers.get('set-cookie') }).toEqual({ status: 400, text: COOKIE_NOT_FOUND, cookie: null });
    cb = await callback(providerCallback, a.cookie);
    expect(cb.status).toBe(307);
    cb = await callback(providerCallback, a.cookie);
    expect({ status: cb.status, text: cb.text }).toEqual({ status: 400, text: 'Invalid OAuth cookie. Please try signing in again.' });
    expect(cb.headers.get('set-cookie')).toContain('Max-Age=0');
  });
});

describe('provider errors at the callback (plain text, never redirected)', () => {
  test('invalid_grant: a provider code the provider does not know', async () => {
    const p = await oauthProject();
    const a = await authorize(p, 'github', { error_redirect_url: ERROR_PAGE });
    const forged = new URL(await completeProviderLogin(a.location, { login: login() }));
    forged.searchParams.set('code', rand(32));
    const cb = await callback(forged.href, a.cookie);
    expect({ status: cb.status, text: cb.text }).toEqual({ status: 400, text: 'Inner OAuth callback failed due to invalid grant. Please try again.' });
    expect(cb.headers.get('content-type')).toContain('text/plain');
    expect(cb.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await p.server.get('/users')).body.items).toEqual([]);
  });

  test('invalid_client: the project configured a wrong client secret', async () => {
    const p = await oauthProject({ oauth_providers: [{ ...standard('github'), client_secret: 'not-the-secret' }] });
    const d = await dance(p, login(), { query: { error_redirect_url: ERROR_PAGE } });
    expect({ status: d.cb.status, text: d.cb.text }).toEqual({
      status: 400, text: 'Invalid client credentials for this OAuth provider. Please ensure the configuration in the Stack Auth dashboard is correct.',
    });
    expect(d.cb.headers.get('content-type')).toContain('text/plain');
    expect((await p.server.get('/users')).body.items).toEqual([]);
  });
});

describe('account merge strategies', () => {
  async function existingUser(p: TestProject, verified: boolean) {
    const email = uniqueEmail('existing');
    const res = await p.server.post('/users', { primary_email: email, primary_email_verified: verified, primary_email_auth_enabled: true });
    expect(res.status).toBe(201);
    return { email, id: res.body.id as string };
  }

  test('link_method: verified on both sides ⇒ same user; otherwise 409', async () => {
    const p = await oauthProject(); // link_method is the default
    const u = await existingUser(p, true);
    const who = login();
    idp.setAccount(who, { email: u.email, emailVerified: true });
    const tokens = await oauthSignIn(p, who);
    expect(tokens.is_new_user).toBe(false);
    const user = await me(p, tokens.access_token);
    expect(user.id).toBe(u.id);
    expect(user.oauth_providers).toEqual([{ id: 'github', account_id: who, email: u.email }]);

    const unverifiedAtProvider = login();
    idp.setAccount(unverifiedAtProvider, { email: u.email, emailVerified: false });
    const d = await dance(p, unverifiedAtProvider);
    expectKnownError(d.cb as any, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', 409);
    expect(d.cb.body.details).toEqual({ type: 'email', contact_channel_value: u.email });
    expect(d.cb.body.error).toBe(`The email (${u.email}) is already used for authentication by another account.`);

    const v = await existingUser(p, false);
    const other = login();
    idp.setAccount(other, { email: v.email, emailVerified: true });
    expectKnownError((await dance(p, other)).cb as any, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', 409);
  });

  test('raise_error: always 409', async () => {
    const p = await oauthProject({ oauth_account_merge_strategy: 'raise_error' });
    const u = await existingUser(p, true);
    const who = login();
    idp.setAccount(who, { email: u.email, emailVerified: true });
    expectKnownError((await dance(p, who)).cb as any, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', 409);
  });

  test('allow_duplicates: a new user whose copy of the email does not sign in', async () => {
    const p = await oauthProject({ oauth_account_merge_strategy: 'allow_duplicates' });
    const u = await existingUser(p, true);
    const who = login();
    idp.setAccount(who, { email: u.email, emailVerified: true });
    const tokens = await oauthSignIn(p, who);
    expect(tokens.is_new_user).toBe(true);
    const user = await me(p, tokens.access_token);
    expect(user.id).not.toBe(u.id);
    expect(user).toMatchObject({ primary_email: u.email, primary_email_auth_enabled: false });
  });
});

describe('link', () => {
  test('connects a provider account to the signed-in user; conflicts are refused', async () => {
    const p = await oauthProject();
    const u = await signUp(p);
    const who = login('link');
    const tokens = await oauthSignIn(p, who, { query: { type: 'link', token: u.accessToken, after_callback_redirect_url: 'http://localhost:12345/settings' } });
    expect(tokens).toMatchObject({ is_new_user: false, after_callback_redirect_url: 'http://localhost:12345/settings', afterCallbackRedirectUrl: 'http://localhost:12345/settings' });
    const user = await me(p, tokens.access_token);
    expect(user.id).toBe(u.userId);
    expect(user.oauth_providers.map((o: any) => o.account_id)).toEqual([who]);
    expect(user.has_password).toBe(true);

    // linking the same account again is fine
    expect((await oauthSignIn(p, who, { query: { type: 'link', token: u.accessToken } })).is_new_user).toBe(false);
    // a second github account for the same user
    const second = await dance(p, login('second'), { query: { type: 'link', token: u.accessToken } });
    expectKnownError(second.cb as any, 'USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION', 409);
    // the account is someone else's
    const v = await signUp(p);
    const taken = await dance(p, who, { query: { type: 'link', token: v.accessToken } });
    expectKnownError(taken.cb as any, 'OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER', 409);
    // and the linked account signs in as the user it is linked to
    const signIn = await oauthSignIn(p, who);
    expect((await me(p, signIn.access_token)).id).toBe(u.userId);
  });
});

describe('token endpoint (authorization_code)', () => {
  test('a code is redeemed once, even by 20 concurrent exchanges', async () => {
    const p = await oauthProject();
    const d = await dance(p, login());
    const results = await Promise.all(Array.from({ length: 20 }, () => exchange(p, d.code!, d.verifier)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expectKnownError(r, 'INVALID_AUTHORIZATION_CODE', 400);
    expectKnownError(await exchange(p, d.code!, d.verifier), 'INVALID_AUTHORIZATION_CODE', 400);
  });

  test('PKCE, redirect_uri, client and parameter checks', async () => {
    const p = await oauthProject();
    const d = await dance(p, login());
    expectKnownError(await exchange(p, d.code!, rand(32)), 'INVALID_AUTHORIZATION_CODE', 400);
    expectKnownError(await exchange(p, d.code!, undefined), 'INVALID_AUTHORIZATION_CODE', 400);
    expectKnownError(await exchange(p, d.code!, d.verifier, 'http://localhost:12345/other'), 'REDIRECT_URL_NOT_WHITELISTED', 400);
    expectKnownError(await exchange(p, 'f'.repeat(64), d.verifier), 'INVALID_AUTHORIZATION_CODE', 400);
    const other = await oauthProject();
    const foreign = await other.client.post('/auth/oauth/token', { grant_type: 'authorization_code', code: d.code, redirect_uri: REDIRECT, code_verifier: d.verifier, client_id: other.id, client_secret: other.keys.publishableClientKey }, { form: true });
    expectKnownError(foreign, 'INVALID_AUTHORIZATION_CODE', 400);
    const badSecret = await p.client.post('/auth/oauth/token', { grant_type: 'authorization_code', code: d.code, redirect_uri: REDIRECT, code_verifier: d.verifier, client_id: p.id, client_secret: 'nope' }, { form: true });
    expectKnownError(badSecret, 'INVALID_OAUTH_CLIENT_ID_OR_SECRET', 400);
    const missing = await p.client.post('/auth/oauth/token', { grant_type: 'authorization_code', code_verifier: d.verifier, client_id: p.id, client_secret: p.keys.publishableClientKey, redirect_uri: REDIRECT }, { form: true });
    expect({ status: missing.status, error: missing.body.error }).toEqual({ status: 400, error: 'invalid_request' });
    // wrong attempts did not burn the code: the real app still redeems it (JSON body accepted too)
    const res = await p.client.post('/auth/oauth/token', { grant_type: 'authorization_code', code: d.code, redirect_uri: REDIRECT, code_verifier: d.verifier, client_id: p.id, client_secret: p.keys.publishableClientKey });
    expect(res.status).toBe(200);
  });

  test('redirect_uri must be repeated exactly as sent to authorize (no normalisation)', async () => {
    const p = await oauthProject();
    const d = await dance(p, login(), { query: { redirect_uri: 'http://localhost:12345' } });
    expect(d.cb.location).toStartWith('http://localhost:12345/?code=');
    expectKnownError(await exchange(p, d.code!, d.verifier, 'http://localhost:12345/'), 'REDIRECT_URL_NOT_WHITELISTED', 400);
    expect((await exchange(p, d.code!, d.verifier, 'http://localhost:12345')).status).toBe(200);
  });

  test('plain PKCE', async () => {
    const p = await oauthProject();
    const d = await dance(p, login(), { query: { code_challenge_method: 'plain' } });
    expect((await exchange(p, d.code!, d.verifier)).status).toBe(200);
  });

  test('a user with TOTP gets MULTI_FACTOR_AUTHENTICATION_REQUIRED with an attempt code', async () => {
    const p = await oauthProject();
    const who = login('mfa');
    const first = await oauthSignIn(p, who);
    const patch = await p.client.patch('/users/me', { totp_secret_base64: Buffer.from(randomBytes(20)).toString('base64') }, { accessToken: first.access_token });
    expect(patch.status).toBe(200);
    const d = await dance(p, who);
    const res = await exchange(p, d.code!, d.verifier);
    expectKnownError(res, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400);
    expect(res.body.details.attempt_code).toHaveLength(45);
    // the code was used up by that attempt
    expectKnownError(await exchange(p, d.code!, d.verifier), 'INVALID_AUTHORIZATION_CODE', 400);
  });
});

describe('connected accounts', () => {
  const tokenOf = (p: TestProject, accessToken: string, provider: string, scope?: string, userId = 'me') =>
    p.client.post(`/connected-accounts/${userId}/${provider}/access-token`, scope === undefined ? {} : { scope }, { accessToken });

  async function userinfo(issuer: string, token: string) {
    const res = await fetch(`${issuer}/me`, { headers: { authorization: `Bearer ${token}` } });
    return res.status;
  }

  test('stored token with the granted scopes; missing scope; provider_scope at link time', async () => {
    const p = await oauthProject();
    const tokens = await oauthSignIn(p, login('ca'));
    const res = await tokenOf(p, tokens.access_token, 'github', 'user:email');
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['access_token']);
    expect(await userinfo(idp.issuer, res.body.access_token)).toBe(200);
    expect((await tokenOf(p, tokens.access_token, 'github')).body.access_token).toBe(res.body.access_token);
    // deprecated alias
    const alias = await p.client.post('/auth/oauth/connected-accounts/github/access-token', { scope: 'user:email' }, { accessToken: tokens.access_token });
    expect(alias.status).toBe(201);
    expectKnownError(await tokenOf(p, tokens.access_token, 'github', 'repo'), 'OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE', 400);

    // link again asking for `repo`: now it is there
    const u = await signUp(p);
    await oauthSignIn(p, login('scoped'), { query: { type: 'link', token: u.accessToken, provider_scope: 'repo' } });
    const scoped = await tokenOf(p, u.accessToken, 'github', 'repo user:email');
    expect(scoped.status).toBe(201);
    expect(await userinfo(idp.issuer, scoped.body.access_token)).toBe(200);
  });

  test('expiring tokens are refreshed with the stored refresh token', async () => {
    const p = await oauthProject();
    const tokens = await oauthSignIn(p, login('refresh'), { provider: 'gitlab' });
    const first = await tokenOf(p, tokens.access_token, 'gitlab', 'read_user');
    expect(first.status).toBe(201);
    const second = await tokenOf(p, tokens.access_token, 'gitlab', 'read_user');
    expect(second.status).toBe(201);
    // each stored token expires within 5 minutes, so each request refreshes
    expect(second.body.access_token).not.toBe(first.body.access_token);
    expect(await userinfo(shortIdp.issuer, first.body.access_token)).toBe(200);
    expect(await userinfo(shortIdp.issuer, second.body.access_token)).toBe(200);
    expectKnownError(await tokenOf(p, tokens.access_token, 'gitlab', 'api'), 'OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE', 400);
  });

  test('errors: shared keys, not connected, other users, disabled provider', async () => {
    const p = await oauthProject();
    const shared = await oauthSignIn(p, login('sh'), { provider: 'google' });
    expectKnownError(await tokenOf(p, shared.access_token, 'google'), 'OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS', 400);
    const u = await signUp(p);
    expectKnownError(await tokenOf(p, u.accessToken, 'github'), 'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER', 400);
    expectKnownError(await tokenOf(p, u.accessToken, 'spotify'), 'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED', 400);
    const other = await tokenOf(p, u.accessToken, 'github', undefined, shared.access_token ? (await me(p, shared.access_token)).id : '');
    expect({ status: other.status, text: other.text }).toEqual({ status: 403, text: 'Client can only access its own connected accounts' });
    expectKnownError(await p.client.post('/connected-accounts/me/github/access-token', {}), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    // server access for any user
    const ghUser = await oauthSignIn(p, login('srv'));
    const id = (await me(p, ghUser.access_token)).id;
    const res = await p.server.post(`/connected-accounts/${id}/github/access-token`, { scope: 'user:email' });
    expect(res.status).toBe(201);
  });
});

describe('development OpenID provider (npm start without keys)', () => {
  test('stands in for shared providers without operator keys', async () => {
    const dev = await startService({ env: { GATEHOUSE_DEV_OIDC: 'true', GATEHOUSE_OAUTH_ISSUER_OVERRIDES: '' } });
    try {
      const p = await newProject(dev, { config: { oauth_providers: [{ id: 'spotify', type: 'shared', enabled: true }] } });
      const verifier = rand(32);
      const q = new URLSearchParams({
        client_id: p.id, client_secret: p.keys.publishableClientKey, redirect_uri: REDIRECT, scope: 'legacy', state: 'st',
        grant_type: 'authorization_code', code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256', response_type: 'code',
      });
      const a = await fetch(`${dev.url}/api/v1/auth/oauth/authorize/spotify?${q}`, { redirect: 'manual' });
      expect(a.status).toBe(307);
      const location = a.headers.get('location')!;
      expect(new URL(location).searchParams.get('client_id')).toBe('gatehouse-dev-spotify');
      expect(dev.output()).toContain(`Development OpenID provider on ${new URL(location).origin}`);
      const cb = await callback(await completeProviderLogin(location, { login: 'dev-user' }), a.headers.get('set-cookie')!.split(';')[0]);
      expect(cb.status).toBe(307);
      const res = await exchange(p, new URL(cb.location).searchParams.get('code')!, verifier);
      expect(res.status).toBe(200);
      expect((await me(p, res.body.access_token)).primary_email).toBe('dev-user@example.com');
    } finally {
      await dev.stop();
    }
  }, 60_000);

  test('a shared provider with no keys and no development provider: a clear error', async () => {
    const plain = await sharedService(); // GATEHOUSE_DEV_OIDC=false, no issuer overrides
    const p = await newProject(plain, { config: { oauth_providers: [{ id: 'spotify', type: 'shared', enabled: true }] } });
    const q = new URLSearchParams({
      client_id: p.id, client_secret: p.keys.publishableClientKey, redirect_uri: REDIRECT, scope: 'legacy', state: 'st',
      grant_type: 'authorization_code', code_challenge: 'c', code_challenge_method: 'S256', response_type: 'code',
    });
    const res = await fetch(`${plain.url}/api/v1/auth/oauth/authorize/spotify?${q}`, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(await res.text()).toStartWith('Shared OAuth keys for "spotify" are not configured on this server.');
  }, 60_000);
});

test('no request ended in an unexpected error', () => {
  expect(svc.output()).not.toContain(' failed:');
});

describe('disconnecting an OAuth account (issue 30, ASVS 3.5.1)', () => {
  test('never the last way to sign in; with a password the user disconnects it and its stored tokens go', async () => {
    const p = await oauthProject();
    const tokens = await oauthSignIn(p, login('dc'));
    const token = { accessToken: tokens.access_token as string };
    expect((await p.client.post('/connected-accounts/me/github/access-token', {}, token)).status).toBe(201);
    const last = await p.client.delete('/connected-accounts/me/github', token);
    expectKnownError(last, 'LAST_SIGN_IN_METHOD', 400);
    expect(last.body.error).toBe('This is the last way to sign in to this account. Add another sign-in method before removing it.');
    expect((await me(p, tokens.access_token)).oauth_providers).toHaveLength(1);

    // A first password, set by the user (a server-set password would end the session).
    expect((await p.client.post('/auth/password/set', { password: 'a-long-password-1' }, token)).status).toBe(200);
    const done = await p.client.delete('/connected-accounts/me/github', token);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ success: true });
    expect((await me(p, tokens.access_token)).oauth_providers).toEqual([]);
    expectKnownError(await p.client.post('/connected-accounts/me/github/access-token', {}, token), 'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER', 400);
    expectKnownError(await p.client.delete('/connected-accounts/me/github', token), 'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER', 400);
  });

  test("an owner (server or admin access) disconnects a user's account; a client cannot touch another user's", async () => {
    const p = await oauthProject();
    const a = await oauthSignIn(p, login('own'));
    const aId = (await me(p, a.access_token)).id as string;
    const b = await signUp(p);
    expect((await p.server.patch(`/users/${aId}`, { password: 'a-long-password-1' })).status).toBe(200);
    expect((await p.client.delete(`/connected-accounts/${aId}/github`, { accessToken: b.accessToken })).status).toBe(403);
    const res = await p.server.delete(`/connected-accounts/${aId}/github`);
    expect(res.status).toBe(200);
    expect((await p.server.get(`/users/${aId}`)).body.oauth_providers).toEqual([]);
    expectKnownError(await p.admin.delete(`/connected-accounts/${crypto.randomUUID()}/github`), 'USER_NOT_FOUND', 404);
  });
});
