// OpenID Connect connections of teams (issue 28), with a real OpenID provider (the project's oidc-provider) as the
// organization's IdP and openid-client on Gatehouse's side: discovery at creation, the sign-in (authorization code
// with PKCE and a nonce, the ID token's issuer, audience, nonce and signature checked), just-in-time users and
// membership; an issuer whose discovery names another issuer, and an authorization response carrying another
// nonce, are refused.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { expectKnownError } from './support/service';
import { newProject, type TestProject } from './support/projects';
import { startServiceWithDns, teamWithVerifiedDomain, uniqueDomain, type ServiceWithDns } from './support/team-enterprise';
import { completeProviderLogin, startOidcFixture, type OidcFixture } from './support/oidc';
import { redeem, startSso } from './support/sso-flow';
import { DEV_CLIENT_SECRET, devClientId } from '../src/oauth/endpoints';

setDefaultTimeout(60_000);
let env: ServiceWithDns;
let p: TestProject;
let idp: OidcFixture;

beforeAll(async () => {
  idp = await startOidcFixture();
  // The same provider also stands in for every social OAuth provider (GitHub below), as in development.
  env = await startServiceWithDns(idp.overridesEnv());
  idp.addDevClients(env.svc.url);
  p = await newProject(env.svc, { config: { oauth_providers: [{ id: 'github', type: 'standard', enabled: true, client_id: devClientId('github'), client_secret: DEV_CLIENT_SECRET }] } });
});
afterAll(async () => { await idp?.close(); await env?.stop(); });

async function oidcOrg() {
  const domain = uniqueDomain('globex');
  const { teamId } = await teamWithVerifiedDomain(p, env.dns, domain);
  const clientId = `globex-${crypto.randomUUID().slice(0, 8)}`;
  // The organization's administrator registers Gatehouse at their provider with the redirect URI Gatehouse shows.
  const created = await p.server.post(`/teams/${teamId}/sso-connections`, { type: 'oidc', display_name: 'Globex', issuer: idp.issuer, client_id: clientId, client_secret: 'globex-secret' });
  expect(created.status).toBe(201);
  idp.addClient({ client_id: clientId, client_secret: 'globex-secret', redirect_uris: [created.body.redirect_uri] });
  return { teamId, domain, connection: created.body };
}

describe('an OIDC connection', () => {
  test('its view: the issuer, the client id, whether a secret is kept (never the secret), the redirect URI', async () => {
    const { connection } = await oidcOrg();
    expect(connection).toMatchObject({
      type: 'oidc', issuer: idp.issuer, has_client_secret: true, idp_entity_id: null, acs_url: null,
      redirect_uri: `${env.svc.url}/api/v1/auth/sso/callback/${connection.id}`,
    });
    expect(JSON.stringify(connection)).not.toContain('globex-secret');
  });

  test('an issuer that is not one, or whose discovery names another issuer, is refused at creation', async () => {
    const { teamId } = await teamWithVerifiedDomain(p, env.dns, uniqueDomain());
    const mismatched = idp.issuer.replace('localhost', '127.0.0.1');
    expect(mismatched).not.toBe(idp.issuer);
    const res = await p.server.post(`/teams/${teamId}/sso-connections`, { type: 'oidc', issuer: mismatched, client_id: 'x' });
    expectKnownError(res, 'INVALID_SSO_CONNECTION', 400);
    expect(res.body.details.problem).toMatch(/^the issuer's discovery failed \(.*issuer.*\)\.$/);
    expectKnownError(await p.server.post(`/teams/${teamId}/sso-connections`, { type: 'oidc', issuer: 'not a url', client_id: 'x' }), 'INVALID_SSO_CONNECTION', 400);
    expectKnownError(await p.server.post(`/teams/${teamId}/sso-connections`, { type: 'oidc', issuer: idp.issuer }), 'INVALID_SSO_CONNECTION', 400);
  });

  test('sign-in: just-in-time user at the verified domain, member of the team, the code redeemed', async () => {
    const org = await oidcOrg();
    const email = `hank.${crypto.randomUUID().slice(0, 6)}@${org.domain}`;
    const login = `hank-${crypto.randomUUID().slice(0, 6)}`;
    idp.setAccount(login, { email, emailVerified: true, name: 'Hank Scorpio' });
    const start = await startSso(p, { email });
    expect(start.status).toBe(307);
    const authorization = new URL(start.location);
    expect(authorization.origin).toBe(new URL(idp.issuer).origin);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('nonce')).toBeTruthy();
    expect(authorization.searchParams.get('login_hint')).toBe(email);

    const callback = await completeProviderLogin(authorization, { login });
    const back = await fetch(callback, { headers: { cookie: start.cookie }, redirect: 'manual' });
    expect(back.status === 307 ? 307 : await back.text()).toBe(307);
    const location = back.headers.get('location')!;
    const tokens = await redeem(p, location, start.verifier);
    expect(tokens.status).toBe(200);
    expect(tokens.body.is_new_user).toBe(true);
    const me = (await p.client.get('/users/me', { accessToken: tokens.body.access_token })).body;
    expect(me).toMatchObject({ primary_email: email, primary_email_verified: true, display_name: 'Hank Scorpio' });
    expect(((await p.server.get(`/users?team_id=${org.teamId}`)).body.items as { id: string }[]).map((u) => u.id)).toEqual([me.id]);
  });

  test('an authorization response carrying another nonce (an injected code) is refused', async () => {
    const org = await oidcOrg();
    const login = `mallory-${crypto.randomUUID().slice(0, 6)}`;
    idp.setAccount(login, { email: `mallory@${org.domain}`, emailVerified: true });
    const start = await startSso(p, { email: `mallory@${org.domain}` });
    const tampered = new URL(start.location);
    tampered.searchParams.set('nonce', 'a-nonce-gatehouse-never-sent');
    const callback = await completeProviderLogin(tampered, { login });
    const back = await fetch(callback, { headers: { cookie: start.cookie }, redirect: 'manual' });
    expect(back.status).toBe(401);
    const body = await back.json();
    expect(body.code).toBe('SSO_SIGN_IN_FAILED');
    expect(body.details.reason).toMatch(/nonce/);
    for (let i = 0; i < 50 && !env.svc.output().includes(`"connection_id":"${org.connection.id}"`); i++) await Bun.sleep(40);
    expect(env.svc.output()).toContain(`"connection_id":"${org.connection.id}"`);
  });

  test('a callback without the browser\'s cookie, or used twice, is refused', async () => {
    const org = await oidcOrg();
    const login = `twice-${crypto.randomUUID().slice(0, 6)}`;
    idp.setAccount(login, { email: `twice@${org.domain}`, emailVerified: true });
    const start = await startSso(p, { email: `twice@${org.domain}` });
    const callback = await completeProviderLogin(start.location, { login });
    const noCookie = await fetch(callback, { redirect: 'manual' });
    expect((await noCookie.json()).code).toBe('SSO_SIGN_IN_FAILED');
    expect((await fetch(callback, { headers: { cookie: start.cookie }, redirect: 'manual' })).status).toBe(307);
    const again = await fetch(callback, { headers: { cookie: start.cookie }, redirect: 'manual' });
    expect((await again.json()).details.reason).toMatch(/already been used/);
  });
});

describe('a domain that requires SSO', () => {
  test('a social OAuth sign-in with an address there is refused with SSO_REQUIRED; SSO works', async () => {
    const org = await oidcOrg();
    const [domain] = (await p.server.get(`/teams/${org.teamId}/domains`)).body.items;
    expect((await p.server.patch(`/teams/${org.teamId}/domains/${domain.id}`, { sso_required: true })).status).toBe(200);
    const login = `social-${crypto.randomUUID().slice(0, 6)}`;
    idp.setAccount(login, { email: `social@${org.domain}`, emailVerified: true });
    const verifier = crypto.randomUUID() + crypto.randomUUID();
    const q = new URLSearchParams({
      client_id: p.id, client_secret: p.keys.publishableClientKey, redirect_uri: 'http://localhost:12345/handler/oauth-callback', scope: 'legacy', state: 'social-state',
      grant_type: 'authorization_code', code_challenge: new Bun.CryptoHasher('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', response_type: 'code',
    });
    const started = await fetch(`${env.svc.url}/api/v1/auth/oauth/authorize/github?${q}`, { redirect: 'manual' });
    const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0]!;
    const callback = await completeProviderLogin(started.headers.get('location')!, { login });
    const back = await fetch(callback, { headers: { cookie }, redirect: 'manual' });
    const body = await back.json();
    expect({ status: back.status, code: body.code }).toEqual({ status: 403, code: 'SSO_REQUIRED' });

    // The same person through the organization's SSO.
    idp.setAccount(login, { email: `social@${org.domain}`, emailVerified: true });
    const start = await startSso(p, { email: `social@${org.domain}` });
    const sso = await fetch(await completeProviderLogin(start.location, { login }), { headers: { cookie: start.cookie }, redirect: 'manual' });
    expect((await redeem(p, sso.headers.get('location')!, start.verifier)).status).toBe(200);
  });
});

describe('testing an OIDC connection', () => {
  test('the window is bound to the test flow first; the provider\'s answer is reported, nobody signed in', async () => {
    const org = await oidcOrg();
    const login = `tester-${crypto.randomUUID().slice(0, 6)}`;
    const email = `tester@${org.domain}`;
    idp.setAccount(login, { email, emailVerified: true, name: 'Tess Ter' });
    const started = await p.server.post(`/teams/${org.teamId}/sso-connections/${org.connection.id}/test`, {});
    expect(started.body.url.startsWith(`${env.svc.url}/api/v1/auth/sso/test/`)).toBe(true);
    const bind = await fetch(started.body.url, { redirect: 'manual' });
    expect(bind.status).toBe(307);
    const cookie = (bind.headers.get('set-cookie') ?? '').split(';')[0]!;
    const callback = await completeProviderLogin(bind.headers.get('location')!, { login });
    const report = await fetch(callback, { headers: { cookie }, redirect: 'manual' });
    expect(report.status).toBe(200);
    const html = await report.text();
    expect(html).toContain('<h1>Test succeeded</h1>');
    expect(html).toContain(`<code>${email}</code>`);
    expect((await p.server.get(`/users?query=${encodeURIComponent(email)}`)).body.items).toEqual([]);
    expect((await fetch(`${env.svc.url}/api/v1/auth/sso/test/${'x'.repeat(43)}`, { redirect: 'manual' })).status).toBe(404);
  });
});
