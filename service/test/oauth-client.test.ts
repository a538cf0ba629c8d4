// The inner OAuth client against a real OpenID provider (the development provider), plus the provider table.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { buildAuthorizationUrl, exchangeCode, generateCodeVerifier, generateState, refreshAccessToken, type ProviderExtras } from '../src/oauth/client.ts';
import {
  DEV_CLIENT_SECRET,
  ISSUER_OVERRIDES_ENV,
  devClientId,
  issuerOverrideFor,
  resolveProviderEndpoints,
  sharedCredentials,
  type ResolvedProvider,
} from '../src/oauth/endpoints.ts';
import { PROVIDERS, PROVIDER_IDS, type ProviderId } from '../src/oauth/providers.ts';
import { completeProviderLogin, completeProviderLoginRaw, startOidcFixture, type OidcFixture } from './support/oidc.ts';

const CALLBACK_BASE = 'http://localhost:9/api/v1/auth/oauth/callback';
const SECRET = 'fixture-secret';

let idp: OidcFixture;

beforeAll(async () => {
  idp = await startOidcFixture();
  for (const id of PROVIDER_IDS) {
    idp.addClient({
      client_id: `test-${id}`,
      client_secret: SECRET,
      redirect_uris: [`${CALLBACK_BASE}/${id}`],
      token_endpoint_auth_method: PROVIDERS[id].tokenEndpointAuthMethod,
    });
  }
});

afterAll(async () => {
  await idp?.close();
});

/** Authorization URL → provider login → callback URL, with everything exchangeCode needs. */
async function signIn(id: ProviderId, login: string, extras?: { scopes?: string[] }) {
  const provider = await resolveProviderEndpoints(id, { issuerOverride: idp.issuer });
  const state = generateState();
  const codeVerifier = generateCodeVerifier();
  const redirectUri = `${CALLBACK_BASE}/${id}`;
  const url = await buildAuthorizationUrl({ provider, clientId: `test-${id}`, redirectUri, state, codeVerifier, scopes: extras?.scopes });
  const callback = new URL(await completeProviderLogin(url, { login }));
  const exchange = { provider, clientId: `test-${id}`, clientSecret: SECRET, redirectUri, expectedState: state, codeVerifier, scopes: extras?.scopes };
  return { provider, url, callback, exchange, callbackParams: callback.searchParams };
}

describe('inner OAuth against a real OpenID provider', () => {
  test('authorization URL, login, code exchange with PKCE S256, mapped user info', async () => {
    idp.setAccount('alice', { email: 'alice@corp.test', emailVerified: false, name: 'Alice Anders' });
    const { url, callback, exchange, callbackParams } = await signIn('github', 'alice', { scopes: ['repo'] });

    expect(url.origin + url.pathname).toBe(`${idp.issuer}/auth`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('access_type')).toBe('offline');
    expect(url.searchParams.get('scope')!.split(' ')).toEqual(['openid', 'email', 'profile', 'user:email', 'repo']);
    expect(callback.href.startsWith(`${CALLBACK_BASE}/github?`)).toBe(true);

    const result = await exchangeCode({ ...exchange, callbackParams });
    if (!result.ok) throw new Error(`exchange failed: ${JSON.stringify(result.failure)}`);
    expect(result.userInfo).toEqual({
      accountId: 'alice',
      displayName: 'Alice Anders',
      email: 'alice@corp.test',
      emailVerified: false,
      profileImageUrl: `${idp.issuer}/avatar/alice.svg`,
    });
    expect(result.accessToken.length).toBeGreaterThan(10);
    expect(result.refreshToken).toBeString();
    expect(result.idToken).toBeString();
    expect(result.scopes).toEqual(['user:email', 'repo']);
    expect(result.expiresAt!.getTime()).toBeGreaterThan(Date.now());
  });

  test('default dev account: <login>@example.com, verified', async () => {
    const { exchange, callbackParams } = await signIn('google', 'bob');
    const result = await exchangeCode({ ...exchange, callbackParams });
    if (!result.ok) throw new Error(JSON.stringify(result.failure));
    expect(result.userInfo).toMatchObject({ accountId: 'bob', email: 'bob@example.com', emailVerified: true, displayName: 'bob' });
  });

  test('a wrong state is rejected before the code is redeemed', async () => {
    const { exchange, callbackParams } = await signIn('discord', 'carol');
    const wrong = await exchangeCode({ ...exchange, callbackParams, expectedState: generateState() });
    expect(wrong).toMatchObject({ ok: false, failure: { kind: 'invalid_state', stage: 'callback' } });
    // The code was not spent by the rejected attempt.
    expect((await exchangeCode({ ...exchange, callbackParams })).ok).toBe(true);
  });

  test('a code used twice fails as invalid_grant', async () => {
    const { exchange, callbackParams } = await signIn('gitlab', 'dave');
    expect((await exchangeCode({ ...exchange, callbackParams })).ok).toBe(true);
    const again = await exchangeCode({ ...exchange, callbackParams });
    expect(again).toMatchObject({ ok: false, failure: { kind: 'invalid_grant', stage: 'token', providerError: 'invalid_grant', status: 400 } });
  });

  test('a wrong PKCE verifier fails as invalid_grant', async () => {
    const { exchange, callbackParams } = await signIn('spotify', 'erin');
    const result = await exchangeCode({ ...exchange, callbackParams, codeVerifier: generateCodeVerifier() });
    expect(result).toMatchObject({ ok: false, failure: { kind: 'invalid_grant' } });
  });

  test('wrong client credentials fail as invalid_client (post and basic)', async () => {
    for (const id of ['github', 'x'] as const) {
      const { exchange, callbackParams } = await signIn(id, 'frank');
      const result = await exchangeCode({ ...exchange, callbackParams, clientSecret: 'not-the-secret' });
      expect(result).toMatchObject({ ok: false, failure: { kind: 'invalid_client', stage: 'token' } });
    }
  });

  test('the user declining at the provider is access_denied', async () => {
    const provider = await resolveProviderEndpoints('facebook', { issuerOverride: idp.issuer });
    const state = generateState();
    const codeVerifier = generateCodeVerifier();
    const redirectUri = `${CALLBACK_BASE}/facebook`;
    const url = await buildAuthorizationUrl({ provider, clientId: 'test-facebook', redirectUri, state, codeVerifier });
    const callback = new URL(await completeProviderLogin(url, { login: 'gina', approve: false }));
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const result = await exchangeCode({ provider, clientId: 'test-facebook', clientSecret: SECRET, redirectUri, callbackParams: callback.searchParams, expectedState: state, codeVerifier });
    expect(result).toMatchObject({ ok: false, failure: { kind: 'access_denied', stage: 'callback', providerError: 'access_denied' } });
  });

  test('refresh token grant returns a fresh access token', async () => {
    const { exchange, callbackParams } = await signIn('microsoft', 'hank');
    const first = await exchangeCode({ ...exchange, callbackParams });
    if (!first.ok) throw new Error(JSON.stringify(first.failure));
    expect(first.refreshToken).toBeString();
    const refreshed = await refreshAccessToken({ ...exchange, refreshToken: first.refreshToken! });
    if (!refreshed.ok) throw new Error(JSON.stringify(refreshed.failure));
    expect(refreshed.accessToken).not.toBe(first.accessToken);
    expect(refreshed.refreshToken).toBeString();
    expect(refreshed.scopes).toEqual(['User.Read', 'openid']);

    const bogus = await refreshAccessToken({ ...exchange, refreshToken: 'no-such-token' });
    expect(bogus).toMatchObject({ ok: false, failure: { kind: 'invalid_grant', stage: 'token' } });
  });

  test('LinkedIn: no PKCE in the request or the exchange', async () => {
    const { url, exchange, callbackParams } = await signIn('linkedin', 'ivy');
    expect(url.searchParams.has('code_challenge')).toBe(false);
    const result = await exchangeCode({ ...exchange, callbackParams, codeVerifier: 'ignored' });
    expect(result.ok).toBe(true);
  });

  test('Apple: response_mode=form_post, the callback arrives as a POST body', async () => {
    const provider = await resolveProviderEndpoints('apple', { issuerOverride: idp.issuer });
    const state = generateState();
    const codeVerifier = generateCodeVerifier();
    const redirectUri = `${CALLBACK_BASE}/apple`;
    const url = await buildAuthorizationUrl({ provider, clientId: 'test-apple', redirectUri, state, codeVerifier });
    expect(url.searchParams.get('response_mode')).toBe('form_post');
    const callback = await completeProviderLoginRaw(url, { login: 'jack' });
    if (callback.method !== 'POST') throw new Error('expected form_post');
    expect(callback.url).toBe(redirectUri);
    const result = await exchangeCode({ provider, clientId: 'test-apple', clientSecret: SECRET, redirectUri, callbackParams: callback.body, expectedState: state, codeVerifier });
    if (!result.ok) throw new Error(JSON.stringify(result.failure));
    expect(result.userInfo.accountId).toBe('jack');
  });

  test('environment: override for all providers, development credentials, provider given by id', async () => {
    const apiBase = 'http://localhost:7';
    idp.addDevClients(apiBase);
    const env = { [ISSUER_OVERRIDES_ENV]: JSON.stringify({ '*': idp.issuer }) };
    const credentials = sharedCredentials('bitbucket', env);
    expect(credentials).toEqual({ clientId: devClientId('bitbucket'), clientSecret: DEV_CLIENT_SECRET });
    const provider = await resolveProviderEndpoints('bitbucket', { env });
    const state = generateState();
    const codeVerifier = generateCodeVerifier();
    const redirectUri = `${apiBase}/api/v1/auth/oauth/callback/bitbucket`;
    const url = await buildAuthorizationUrl({ provider, clientId: credentials!.clientId, redirectUri, state, codeVerifier });
    const callback = new URL(await completeProviderLogin(url, { login: 'kim' }));
    const result = await exchangeCode({ provider, ...credentials!, redirectUri, callbackParams: callback.searchParams, expectedState: state, codeVerifier });
    expect(result).toMatchObject({ ok: true, userInfo: { accountId: 'kim', email: 'kim@example.com' } });
  });
});

describe('environment parsing', () => {
  test('GATEHOUSE_OAUTH_ISSUER_OVERRIDES: own key wins over "*", malformed values throw', () => {
    const env = { [ISSUER_OVERRIDES_ENV]: '{"*":"http://a.test","github":"http://b.test"}' };
    expect(issuerOverrideFor('github', env)).toBe('http://b.test');
    expect(issuerOverrideFor('x', env)).toBe('http://a.test');
    expect(issuerOverrideFor('x', {})).toBeNull();
    expect(issuerOverrideFor('x', { [ISSUER_OVERRIDES_ENV]: '{"github":"http://b.test"}' })).toBeNull();
    expect(() => issuerOverrideFor('x', { [ISSUER_OVERRIDES_ENV]: 'http://a.test' })).toThrow(/not valid JSON/);
    expect(() => issuerOverrideFor('x', { [ISSUER_OVERRIDES_ENV]: '{"gitHub":"http://a.test"}' })).toThrow(/unknown provider/);
    expect(() => issuerOverrideFor('x', { [ISSUER_OVERRIDES_ENV]: '{"x":"ftp://a.test"}' })).toThrow(/issuer URL/);
  });

  test('shared credentials from GATEHOUSE_OAUTH_<ID>_CLIENT_ID/_SECRET', () => {
    const env = { GATEHOUSE_OAUTH_X_CLIENT_ID: 'xid', GATEHOUSE_OAUTH_X_CLIENT_SECRET: 'xsecret', GATEHOUSE_OAUTH_GOOGLE_CLIENT_ID: 'only-id' };
    expect(sharedCredentials('x', env)).toEqual({ clientId: 'xid', clientSecret: 'xsecret' });
    expect(sharedCredentials('google', env)).toBeNull();
    expect(sharedCredentials('github', {})).toBeNull();
  });
});

// protocol-auth §3.6.1 "Provider base scopes", verbatim.
const SPEC_BASE_SCOPES: Record<ProviderId, string> = {
  google: 'https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile',
  github: 'user:email',
  microsoft: 'User.Read openid',
  spotify: 'user-read-email user-read-private',
  facebook: 'openid public_profile email',
  discord: 'identify email',
  gitlab: 'read_user',
  bitbucket: 'account email',
  linkedin: 'openid profile email',
  apple: 'name email',
  x: 'users.read offline.access tweet.read',
};

describe('provider table', () => {
  test('every provider: https endpoints, spec base scopes, PKCE except LinkedIn', async () => {
    expect(([...PROVIDER_IDS] as string[]).sort()).toEqual(Object.keys(SPEC_BASE_SCOPES).sort());
    for (const id of PROVIDER_IDS) {
      const def = PROVIDERS[id];
      expect(def.id).toBe(id);
      for (const endpoint of [def.issuer, def.authorizationEndpoint, def.tokenEndpoint, ...Object.values(def.userInfoRequests)]) {
        expect(new URL(endpoint.replace('{tenant}', 'common')).protocol).toBe('https:');
      }
      expect(def.baseScopes.join(' ')).toBe(SPEC_BASE_SCOPES[id]);
      expect(def.pkce).toBe(id !== 'linkedin');
      expect(Object.keys(def.userInfoRequests).length > 0 || def.usesIdToken === true).toBe(true);
    }
  });

  test('real authorization URLs: base scopes, access_type=offline, provider extras', async () => {
    const urlFor = async (id: ProviderId, extras?: ProviderExtras) => {
      const provider: ResolvedProvider = await resolveProviderEndpoints(id, { issuerOverride: null, microsoftTenantId: extras?.microsoftTenantId });
      expect(provider.allowInsecureRequests).toBe(false);
      return buildAuthorizationUrl({ provider, clientId: 'cid', redirectUri: `https://gh.test/cb/${id}`, state: 's', codeVerifier: generateCodeVerifier(), extras });
    };
    for (const id of PROVIDER_IDS) {
      const url = await urlFor(id);
      expect(url.protocol).toBe('https:');
      expect(url.searchParams.get('scope')).toBe(SPEC_BASE_SCOPES[id]);
      expect(url.searchParams.get('access_type')).toBe('offline');
      expect(url.searchParams.get('response_type')).toBe('code');
      expect(url.searchParams.get('state')).toBe('s');
      expect(url.searchParams.has('code_challenge')).toBe(id !== 'linkedin');
    }
    expect((await urlFor('apple')).searchParams.get('response_mode')).toBe('form_post');
    expect((await urlFor('facebook', { facebookConfigId: '1234' })).searchParams.get('config_id')).toBe('1234');
    expect((await urlFor('github', { facebookConfigId: '1234' })).searchParams.has('config_id')).toBe(false);
    expect((await urlFor('microsoft')).pathname).toBe('/common/oauth2/v2.0/authorize');
    expect((await urlFor('microsoft', { microsoftTenantId: 'contoso.onmicrosoft.com' })).pathname).toBe('/contoso.onmicrosoft.com/oauth2/v2.0/authorize');
    const ms = await resolveProviderEndpoints('microsoft', { issuerOverride: null, microsoftTenantId: 'contoso.onmicrosoft.com' });
    expect(ms.authorizationServer.token_endpoint).toBe('https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/token');
    await expect(resolveProviderEndpoints('microsoft', { issuerOverride: null, microsoftTenantId: '../evil' })).rejects.toThrow();
  });
});
