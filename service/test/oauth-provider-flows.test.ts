// The project as an OpenID provider (issue 27), its grants, driven by openid-client (a certified relying party):
// authorization code with PKCE completed by the user's Gatehouse session through the consent API, ID token and
// userinfo, refresh rotation with reuse detection, revocation, introspection, client credentials, and the refusals.
// The browser path through the account kit's pages is account-kit/test/pages/oauth-consent.test.ts.
import { describe, expect, test } from 'bun:test';
import { expectKnownError, sharedService } from './support/service';
import { newProject, signUp } from './support/projects';
import {
  ALL_SCOPES, CookieJar, discover, followToApplication, formOf, issuerUrl, oauthErrorOf, oidc, openAuthorization, registerClient, startAuthorization,
} from './support/oidc-relying-party';

const svc = await sharedService();
const project = await newProject(svc);
const issuer = issuerUrl(svc, project.id);
const REDIRECT = 'https://app.example.com/callback';
const web = await registerClient(project, { display_name: 'Partner app', client_type: 'confidential', redirect_uris: [REDIRECT], logo_url: 'https://app.example.com/logo.png' });
const webConfig = await discover(svc, project.id, web.clientId, web.clientSecret);

type User = Awaited<ReturnType<typeof signUp>>;

/** The whole authorization request as a browser and the consent page make it; answers the callback URL. */
async function authorize(config: oidc.Configuration, user: User, o: { scope?: string; allow?: boolean; redirectUri?: string } = {}) {
  const jar = new CookieJar();
  const start = await startAuthorization(config, o.redirectUri ?? REDIRECT, o.scope ?? ALL_SCOPES);
  const { interactionId, consentUrl } = await openAuthorization(jar, start);
  expect(consentUrl.pathname).toBe('/handler/oauth-consent');
  const shown = await project.client.get(`/oauth-provider/interactions/${interactionId}`, { accessToken: user.accessToken });
  expect(shown.status).toBe(200);
  const answer = await project.client.post(`/oauth-provider/interactions/${interactionId}`, { allow: o.allow ?? true }, { accessToken: user.accessToken });
  expect(answer.status).toBe(200);
  const callback = await followToApplication(jar, answer.body.redirect_to, issuer);
  return { start, callback, shown: shown.body, interactionId };
}

async function signIn(config: oidc.Configuration, user: User, o: { scope?: string; redirectUri?: string } = {}) {
  const { start, callback } = await authorize(config, user, o);
  return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: start.verifier, expectedState: start.state });
}

describe('authorization code with PKCE', () => {
  test('sign-in: the consent API shows the client, the ID token and userinfo carry the user, consent is remembered', async () => {
    const user = await signUp(project);
    const { start, callback, shown } = await authorize(webConfig, user);
    expect(shown).toMatchObject({
      client_id: web.clientId, client_display_name: 'Partner app', client_logo_url: 'https://app.example.com/logo.png',
      scopes: ['openid', 'profile', 'email', 'offline_access'], consent_remembered: false,
    });
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    expect(callback.searchParams.get('iss')).toBe(issuer.href);
    const tokens = await oidc.authorizationCodeGrant(webConfig, callback, { pkceCodeVerifier: start.verifier, expectedState: start.state });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: issuer.href, sub: user.userId, aud: web.clientId });
    // The granted scopes' claims are in the ID token too (conformIdTokenClaims off, providers.ts), as in userinfo.
    expect(claims.email).toBe(user.email);
    expect(JSON.parse(Buffer.from(tokens.id_token!.split('.')[0]!, 'base64url').toString()).alg).toBe('ES256');
    expect(tokens.refresh_token).toBeString();
    const info = await oidc.fetchUserInfo(webConfig, tokens.access_token, user.userId);
    expect(info).toEqual({ sub: user.userId, email: user.email, email_verified: false });

    const again = await authorize(webConfig, user);
    expect(again.shown.consent_remembered).toBe(true);
    // A Gatehouse user of another project cannot answer this project's requests, nor can a signed-out caller.
    const jar = new CookieJar();
    const pending = await openAuthorization(jar, await startAuthorization(webConfig, REDIRECT));
    expectKnownError(await project.client.get(`/oauth-provider/interactions/${pending.interactionId}`), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    const other = await newProject(svc);
    const stranger = await signUp(other);
    expectKnownError(await other.client.get(`/oauth-provider/interactions/${pending.interactionId}`, { accessToken: stranger.accessToken }), 'OAUTH_PROVIDER_INTERACTION_NOT_FOUND', 404);
  });

  test('scopes decide the claims: without email and profile, userinfo has neither; no offline_access, no refresh token', async () => {
    const user = await signUp(project);
    const tokens = await signIn(webConfig, user, { scope: 'openid' });
    expect(tokens.refresh_token).toBeUndefined();
    expect(await oidc.fetchUserInfo(webConfig, tokens.access_token, user.userId)).toEqual({ sub: user.userId });
  });

  test('refresh tokens rotate; a rotated one used again revokes the whole family', async () => {
    const user = await signUp(project);
    const first = await signIn(webConfig, user);
    const second = await oidc.refreshTokenGrant(webConfig, first.refresh_token!);
    expect(second.refresh_token).toBeString();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await oidc.tokenIntrospection(webConfig, second.access_token)).active).toBe(true);
    expect(await oauthErrorOf(oidc.refreshTokenGrant(webConfig, first.refresh_token!))).toBe('invalid_grant');
    // The reuse revoked the grant: the newest refresh token and its access token are dead too.
    expect(await oauthErrorOf(oidc.refreshTokenGrant(webConfig, second.refresh_token!))).toBe('invalid_grant');
    expect((await oidc.tokenIntrospection(webConfig, second.access_token)).active).toBe(false);
  });

  test('revocation (RFC 7009) and introspection (RFC 7662)', async () => {
    const user = await signUp(project);
    const tokens = await signIn(webConfig, user);
    const active = await oidc.tokenIntrospection(webConfig, tokens.access_token);
    expect(active).toMatchObject({ active: true, sub: user.userId, client_id: web.clientId, iss: issuer.href });
    expect(String(active.scope).split(' ').sort()).toEqual(['email', 'offline_access', 'openid', 'profile']);
    await oidc.tokenRevocation(webConfig, tokens.access_token);
    expect((await oidc.tokenIntrospection(webConfig, tokens.access_token)).active).toBe(false);
    expect(await oauthErrorOf(oidc.fetchUserInfo(webConfig, tokens.access_token, user.userId))).toBe('invalid_token');
    await oidc.tokenRevocation(webConfig, tokens.refresh_token!);
    expect(await oauthErrorOf(oidc.refreshTokenGrant(webConfig, tokens.refresh_token!))).toBe('invalid_grant');
  });

  test('a public client signs in with PKCE alone; introspection answers it nothing (confidential clients only)', async () => {
    const app = await registerClient(project, { display_name: 'Desktop app', client_type: 'public', redirect_uris: ['http://127.0.0.1:47011/cb'] });
    const config = await discover(svc, project.id, app.clientId);
    const user = await signUp(project);
    const tokens = await signIn(config, user, { redirectUri: 'http://127.0.0.1:47011/cb' });
    expect(tokens.claims()!.sub).toBe(user.userId);
    expect(await oidc.tokenIntrospection(config, tokens.access_token)).toEqual({ active: false });
    expect((await oidc.tokenIntrospection(webConfig, tokens.access_token)).active).toBe(true);
  });

  test('RP-initiated logout: the end-session endpoint takes the ID token hint', async () => {
    const user = await signUp(project);
    const tokens = await signIn(webConfig, user);
    const url = oidc.buildEndSessionUrl(webConfig, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: REDIRECT });
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('form');
  });
});

describe('refusals', () => {
  test('a redirect URI that differs by a trailing slash', async () => {
    const jar = new CookieJar();
    const start = await startAuthorization(webConfig, `${REDIRECT}/`);
    const res = await jar.fetch(start.url);
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('invalid_redirect_uri');
  });

  test('a reused authorization code fails and revokes what the code gave', async () => {
    const user = await signUp(project);
    const { start, callback } = await authorize(webConfig, user);
    const tokens = await oidc.authorizationCodeGrant(webConfig, callback, { pkceCodeVerifier: start.verifier, expectedState: start.state });
    expect(await oauthErrorOf(oidc.authorizationCodeGrant(webConfig, callback, { pkceCodeVerifier: start.verifier, expectedState: start.state }))).toBe('invalid_grant');
    expect((await oidc.tokenIntrospection(webConfig, tokens.access_token)).active).toBe(false);
    expect(await oauthErrorOf(oidc.refreshTokenGrant(webConfig, tokens.refresh_token!))).toBe('invalid_grant');
  });

  test('a code verifier that does not match', async () => {
    const user = await signUp(project);
    const { start, callback } = await authorize(webConfig, user);
    expect(await oauthErrorOf(oidc.authorizationCodeGrant(webConfig, callback, { pkceCodeVerifier: oidc.randomPKCECodeVerifier(), expectedState: start.state }))).toBe('invalid_grant');
  });

  test('an authorization request without PKCE', async () => {
    const url = oidc.buildAuthorizationUrl(webConfig, { redirect_uri: REDIRECT, scope: 'openid', state: 'x' });
    const res = await fetch(url, { redirect: 'manual' });
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toContain('PKCE');
  });

  test('a client of another project', async () => {
    const other = await newProject(svc);
    const config = await discover(svc, other.id, web.clientId, web.clientSecret);
    const res = await fetch((await startAuthorization(config, REDIRECT)).url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('invalid_client');
    expect(await oauthErrorOf(oidc.clientCredentialsGrant(config))).toBe('invalid_client');
  });

  test('a scope the client may not ask for', async () => {
    const narrow = await registerClient(project, { display_name: 'Narrow', client_type: 'confidential', redirect_uris: [REDIRECT], scopes: ['openid'] });
    const config = await discover(svc, project.id, narrow.clientId, narrow.clientSecret);
    const res = await fetch((await startAuthorization(config, REDIRECT, 'openid email')).url, { redirect: 'manual' });
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_scope');
  });

  test('consent denied: the application receives access_denied, and the request cannot be answered again', async () => {
    const user = await signUp(project);
    const { start, callback, interactionId } = await authorize(webConfig, user, { allow: false });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(await oauthErrorOf(oidc.authorizationCodeGrant(webConfig, callback, { pkceCodeVerifier: start.verifier, expectedState: start.state }))).toBe('access_denied');
    expectKnownError(await project.client.post(`/oauth-provider/interactions/${interactionId}`, { allow: true }, { accessToken: user.accessToken }), 'OAUTH_PROVIDER_INTERACTION_NOT_FOUND', 404);
  });

  test('an answer counts only in the browser that made the request (a consent link sent to someone else gives nothing)', async () => {
    const victim = await signUp(project);
    const attackerBrowser = new CookieJar();
    const start = await startAuthorization(webConfig, REDIRECT);
    const { interactionId } = await openAuthorization(attackerBrowser, start);
    // The victim opens the consent page the link names, signed in to their own account, and allows.
    const answer = await project.client.post(`/oauth-provider/interactions/${interactionId}`, { allow: true }, { accessToken: victim.accessToken });
    const finish = new URL(answer.body.redirect_to);
    expect(finish.href).toStartWith(`${issuer.href}/auth/${interactionId}/finish?ticket=`);
    const inVictimBrowser = await new CookieJar().fetch(finish);
    expect(inVictimBrowser.status).toBe(400);
    expect(await inVictimBrowser.text()).toContain('started in another browser');
    // The attacker's browser cannot resume the request without the ticket, nor with a guessed one.
    const resumed = await attackerBrowser.fetch(new URL(`${issuer.href}/auth/${interactionId}`));
    expect(resumed.headers.get('location') ?? '').not.toContain('code=');
    const guessed = new URL(finish);
    guessed.searchParams.set('ticket', 'guess');
    expect((await attackerBrowser.fetch(guessed)).status).toBe(400);
    expect((await attackerBrowser.fetch(new URL(`${issuer.href}/auth/%E0/finish?ticket=x`))).status).toBe(400);
  });

  test('a wrong client secret', async () => {
    const config = await discover(svc, project.id, web.clientId, `${web.clientSecret}x`);
    const user = await signUp(project);
    const { start, callback } = await authorize(webConfig, user);
    expect(await oauthErrorOf(oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: start.verifier, expectedState: start.state }))).toBe('invalid_client');
  });
});

describe('connected apps', () => {
  test('the user lists the applications they allowed and revokes one: its tokens die and consent is asked again', async () => {
    const user = await signUp(project);
    const tokens = await signIn(webConfig, user);
    const listed = await project.client.get('/oauth-provider/connected-apps', { accessToken: user.accessToken });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([{
      client_id: web.clientId, display_name: 'Partner app', logo_url: 'https://app.example.com/logo.png',
      scopes: ['openid', 'profile', 'email', 'offline_access'], scope_descriptions: {}, granted_at_millis: expect.any(Number),
    }]);
    // Another user's list does not show it, and they cannot revoke it.
    const other = await signUp(project);
    expect((await project.client.get('/oauth-provider/connected-apps', { accessToken: other.accessToken })).body.items).toEqual([]);
    expectKnownError(await project.client.delete(`/oauth-provider/connected-apps/${web.clientId}`, { accessToken: other.accessToken }), 'OAUTH_PROVIDER_CLIENT_NOT_FOUND', 404);
    expect((await oidc.tokenIntrospection(webConfig, tokens.access_token)).active).toBe(true);

    expect((await project.client.delete(`/oauth-provider/connected-apps/${web.clientId}`, { accessToken: user.accessToken })).body).toEqual({ success: true });
    expect((await oidc.tokenIntrospection(webConfig, tokens.access_token)).active).toBe(false);
    expect(await oauthErrorOf(oidc.refreshTokenGrant(webConfig, tokens.refresh_token!))).toBe('invalid_grant');
    expect((await project.client.get('/oauth-provider/connected-apps', { accessToken: user.accessToken })).body.items).toEqual([]);
    expect((await authorize(webConfig, user)).shown.consent_remembered).toBe(false);
    expectKnownError(await project.client.get('/oauth-provider/connected-apps'), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
  });
});

describe('a deleted user', () => {
  test("the user's grants and tokens go with them", async () => {
    const user = await signUp(project);
    const tokens = await signIn(webConfig, user);
    expect((await oidc.tokenIntrospection(webConfig, tokens.access_token)).active).toBe(true);
    expect((await project.server.delete(`/users/${user.userId}`)).status).toBe(200);
    expect((await oidc.tokenIntrospection(webConfig, tokens.access_token)).active).toBe(false);
    expect(await oauthErrorOf(oidc.refreshTokenGrant(webConfig, tokens.refresh_token!))).toBe('invalid_grant');
  });
});

describe('client credentials', () => {
  test('a confidential machine client gets an access token that introspects as its own', async () => {
    const machine = await registerClient(project, { display_name: 'Cron', client_type: 'confidential', grant_types: ['client_credentials'], scopes: ['openid'] });
    const config = await discover(svc, project.id, machine.clientId, machine.clientSecret);
    const tokens = await oidc.clientCredentialsGrant(config);
    expect(tokens.access_token).toBeString();
    expect(tokens.refresh_token).toBeUndefined();
    expect(await oidc.tokenIntrospection(config, tokens.access_token)).toMatchObject({ active: true, client_id: machine.clientId });
    // A client registered without the grant may not use it.
    const refused = await oidc.clientCredentialsGrant(webConfig).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(oidc.ResponseBodyError);
    expect(refused).toMatchObject({ error: 'invalid_request', error_description: 'requested grant type is not allowed for this client' });
  });
});

describe("a client's activity (GET /oauth-provider/clients/{id}/activity, the console's OAuth apps screen)", () => {
  test('consents granted and live tokens are counted per client, in its own project only', async () => {
    const app = await registerClient(project, {
      display_name: 'Counted', client_type: 'confidential', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
    });
    const activity = async () => (await project.admin.get(`/oauth-provider/clients/${app.clientId}/activity`)).body;
    expect(await activity()).toEqual({ consents_granted: 0, live_tokens: 0, last_token_issued_at_millis: null });

    const config = await discover(svc, project.id, app.clientId, app.clientSecret);
    const before = Date.now() - 1_000;
    await oidc.clientCredentialsGrant(config);
    const machine = await activity();
    expect(machine).toMatchObject({ consents_granted: 0, live_tokens: 1 });
    expect(machine.last_token_issued_at_millis).toBeGreaterThanOrEqual(before);
    expect(machine.last_token_issued_at_millis).toBeLessThanOrEqual(Date.now() + 1_000);

    // A person signs in through it: one consent, and an access and a refresh token more.
    await signIn(config, await signUp(project));
    expect(await activity()).toMatchObject({ consents_granted: 1, live_tokens: 3 });

    const other = await newProject(svc);
    expectKnownError(await other.admin.get(`/oauth-provider/clients/${app.clientId}/activity`), 'OAUTH_PROVIDER_CLIENT_NOT_FOUND', 404);
    expectKnownError(await project.admin.get('/oauth-provider/clients/nope/activity'), 'OAUTH_PROVIDER_CLIENT_NOT_FOUND', 404);
  });
});

describe('device authorization grant (RFC 8628)', () => {
  test('the device polls while the person types its code, signs in (Gatehouse session) and allows', async () => {
    const tv = await registerClient(project, { display_name: 'Living room TV', client_type: 'public', grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'] });
    const config = await discover(svc, project.id, tv.clientId);
    const device = await oidc.initiateDeviceAuthorization(config, { scope: 'openid email' });
    expect(device.verification_uri).toBe(`${issuer.href}/device`);
    expect(device.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    const polled = oidc.pollDeviceAuthorizationGrant(config, device);

    // The person, on a phone: the code page, then "Continue" on the confirmation, then the consent page.
    const user = await signUp(project);
    const phone = new CookieJar();
    const entry = await phone.fetch(`${issuer.href}/device`);
    const input = formOf(await entry.text(), 'op.deviceInputForm');
    const confirmPage = await phone.fetch(new URL(input.action, issuer), {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...input.fields, user_code: device.user_code }),
    });
    const confirmHtml = await confirmPage.text();
    expect(confirmHtml).toContain('Living room TV');
    const confirm = formOf(confirmHtml, 'op.deviceConfirmForm');
    const toConsent = await phone.fetch(new URL(confirm.action, issuer), {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(confirm.fields),
    });
    const consentUrl = new URL(toConsent.headers.get('location')!, issuer);
    expect(consentUrl.pathname).toBe('/handler/oauth-consent');
    const interactionId = consentUrl.searchParams.get('interaction')!;
    const shown = await project.client.get(`/oauth-provider/interactions/${interactionId}`, { accessToken: user.accessToken });
    expect(shown.body).toMatchObject({ client_display_name: 'Living room TV', scopes: ['openid', 'email'] });
    const answer = await project.client.post(`/oauth-provider/interactions/${interactionId}`, { allow: true }, { accessToken: user.accessToken });
    expect(answer.body.redirect_to).toStartWith(`${issuer.href}/device/`);
    let next = new URL(answer.body.redirect_to);
    let res = await phone.fetch(next);
    for (let hops = 0; res.status === 303 && hops < 5; hops++) {
      next = new URL(res.headers.get('location')!, next);
      res = await phone.fetch(next);
    }
    expect(await res.text()).toContain('Device connected');

    const tokens = await polled;
    expect(tokens.claims()!.sub).toBe(user.userId);
    expect(await oidc.fetchUserInfo(config, tokens.access_token, user.userId)).toMatchObject({ email: user.email });
  });

  test('a wrong code is refused on the page; a device still waiting is told so', async () => {
    const tv = await registerClient(project, { display_name: 'Kiosk', client_type: 'public', grant_types: ['urn:ietf:params:oauth:grant-type:device_code'] });
    const config = await discover(svc, project.id, tv.clientId);
    const device = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
    const early = await fetch(config.serverMetadata().token_endpoint!, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: device.device_code, client_id: tv.clientId }),
    });
    expect(early.status).toBe(400);
    expect(await early.json()).toMatchObject({ error: 'authorization_pending' });
    const phone = new CookieJar();
    const entry = formOf(await (await phone.fetch(`${issuer.href}/device`)).text(), 'op.deviceInputForm');
    const wrong = await phone.fetch(new URL(entry.action, issuer), {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ ...entry.fields, user_code: 'BCDF-GHJK' }),
    });
    expect(await wrong.text()).toContain('That code is not valid');
  });
});
