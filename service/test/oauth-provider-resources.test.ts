// The project's OpenID provider for MCP servers and other APIs (issue 27): the settings resource
// (/oauth-provider/settings), dynamic client registration (RFC 7591, off by default), resource indicators (RFC 8707:
// a JWT access token whose audience is the resource) and protected-resource metadata (RFC 9728). Driven by
// openid-client and verified with jose against the issuer's JWKS, as a resource server would.
import { describe, expect, test } from 'bun:test';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { expectKnownError, sharedService } from './support/service';
import { newProject, signUp } from './support/projects';
import {
  CookieJar, followToApplication, issuerUrl, oauthErrorOf, oidc, openAuthorization, registerClient, startAuthorization, discover,
} from './support/oidc-relying-party';

const svc = await sharedService();
const REDIRECT = 'http://127.0.0.1:47012/callback';
const RESOURCE = 'https://mcp.example.com/mcp';
const OTHER_RESOURCE = 'https://other.example.com/api';

async function discoveryOf(projectId: string): Promise<Record<string, unknown>> {
  return (await fetch(`${issuerUrl(svc, projectId).href}/.well-known/openid-configuration`)).json() as Promise<Record<string, unknown>>;
}

const register = (projectId: string) => oidc.dynamicClientRegistration(issuerUrl(svc, projectId), {
  client_name: 'An MCP client', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none',
}, oidc.None(), { execute: [oidc.allowInsecureRequests] });

describe('settings (admin API)', () => {
  test('defaults: registration off, no resources; a change is kept; bad input is a schema error; admin only', async () => {
    const project = await newProject(svc);
    expect((await project.admin.get('/oauth-provider/settings')).body).toEqual({ dynamic_client_registration: false, resources: [], scopes: [], claims: [], updated_at_millis: null });
    const changed = await project.admin.patch('/oauth-provider/settings', { dynamic_client_registration: true, resources: [RESOURCE, RESOURCE] });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ dynamic_client_registration: true, resources: [RESOURCE] });
    expect(changed.body.updated_at_millis).toBeNumber();
    // A field left out keeps its value.
    expect((await project.admin.patch('/oauth-provider/settings', { resources: [] })).body).toMatchObject({ dynamic_client_registration: true, resources: [] });
    expectKnownError(await project.admin.patch('/oauth-provider/settings', { resources: ['not a url'] }), 'SCHEMA_ERROR', 400);
    expectKnownError(await project.admin.patch('/oauth-provider/settings', { resources: ['https://a.example.com/x#frag'] }), 'SCHEMA_ERROR', 400);
    expectKnownError(await project.admin.patch('/oauth-provider/settings', { other: 1 }), 'SCHEMA_ERROR', 400);
    expect((await project.server.patch('/oauth-provider/settings', { dynamic_client_registration: false })).status).toBeGreaterThanOrEqual(400);
    expect((await project.admin.get('/oauth-provider/settings')).body).toMatchObject({ dynamic_client_registration: true, resources: [] });
    // Another project's settings are its own.
    const other = await newProject(svc);
    expect((await other.admin.get('/oauth-provider/settings')).body.dynamic_client_registration).toBe(false);
  });
});

describe('dynamic client registration (RFC 7591)', () => {
  test('off: not advertised, and a registration is refused', async () => {
    const project = await newProject(svc);
    expect((await discoveryOf(project.id)).registration_endpoint).toBeUndefined();
    const res = await fetch(`${issuerUrl(svc, project.id).href}/reg`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
    });
    expect(res.status).toBe(404);
    await expect(register(project.id)).rejects.toThrow();
    expect((await project.admin.get('/oauth-provider/clients')).body.items).toEqual([]);
  });

  test('on: advertised; openid-client registers a public client, which signs in with PKCE (and not without)', async () => {
    const project = await newProject(svc);
    await project.admin.patch('/oauth-provider/settings', { dynamic_client_registration: true });
    expect((await discoveryOf(project.id)).registration_endpoint).toBe(`${issuerUrl(svc, project.id).href}/reg`);
    const config = await register(project.id);
    const clientId = config.clientMetadata().client_id;
    expect(clientId).toMatch(/^ghc_/);
    expect(config.clientMetadata().client_secret).toBeUndefined();
    const listed = (await project.admin.get(`/oauth-provider/clients/${clientId}`)).body;
    expect(listed).toMatchObject({ client_type: 'public', display_name: 'An MCP client', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'] });

    // Without PKCE: refused at the authorization endpoint.
    const noPkce = new URL(`${issuerUrl(svc, project.id).href}/auth`);
    for (const [k, v] of Object.entries({ client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', scope: 'openid', state: 's' })) noPkce.searchParams.set(k, v);
    const refused = await fetch(noPkce, { redirect: 'manual' });
    expect(new URL(refused.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');

    const user = await signUp(project);
    const tokens = await signIn(project, config, user.accessToken, {});
    expect(tokens.claims()!.sub).toBe(user.userId);
  });

  test('a client cannot register itself for what needs no person (client credentials) or what Gatehouse refuses', async () => {
    const project = await newProject(svc);
    await project.admin.patch('/oauth-provider/settings', { dynamic_client_registration: true });
    const reg = async (body: Record<string, unknown>) => {
      const res = await fetch(`${issuerUrl(svc, project.id).href}/reg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: await res.json() as Record<string, unknown> };
    };
    for (const body of [
      { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['client_credentials'], response_types: [] },
      { redirect_uris: [REDIRECT], grant_types: ['client_credentials', 'authorization_code'] },
      { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['refresh_token'], response_types: [] },
      { token_endpoint_auth_method: 'none', grant_types: ['urn:ietf:params:oauth:grant-type:device_code'], response_types: [] },
      { redirect_uris: Array.from({ length: 21 }, (_, i) => `${REDIRECT}${i}`), token_endpoint_auth_method: 'none' },
      { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', scope: 'openid admin' },
      { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', logo_uri: 'javascript:alert(1)' },
    ]) {
      const refused = await reg(body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invalid_client_metadata');
    }
    expect((await project.admin.get('/oauth-provider/clients')).body.items).toEqual([]);
    // A confidential client may register: its secret is answered once and stored as a hash; it signs in like any other.
    const made = await reg({ redirect_uris: [REDIRECT], client_name: 'Server-side MCP host' });
    expect(made.status).toBe(201);
    expect(made.body.client_secret).toMatch(/^ghs_/);
    const listed = await project.admin.get(`/oauth-provider/clients/${made.body.client_id}`);
    expect(listed.body).toMatchObject({ client_type: 'confidential', grant_types: ['authorization_code'], display_name: 'Server-side MCP host' });
    expect(listed.text).not.toContain(String(made.body.client_secret));
    const config = await discover(svc, project.id, String(made.body.client_id), String(made.body.client_secret));
    const user = await signUp(project);
    expect((await signIn(project, config, user.accessToken, {})).claims()!.sub).toBe(user.userId);
  });

  test('open registration stops at the project\'s client limit with invalid_client_metadata', async () => {
    const project = await newProject(svc);
    await project.admin.patch('/oauth-provider/settings', { dynamic_client_registration: true });
    for (let i = 0; i < 99; i++) await registerClient(project, { display_name: `App ${i}`, client_type: 'public', redirect_uris: [REDIRECT] });
    await register(project.id);
    const body = JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    const refused = await fetch(`${issuerUrl(svc, project.id).href}/reg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_client_metadata' });
    expect((await project.admin.get('/oauth-provider/clients')).body.items).toHaveLength(100);
  }, 60_000);
});

async function signIn(project: Awaited<ReturnType<typeof newProject>>, config: oidc.Configuration, accessToken: string, o: { resource?: string; scope?: string }) {
  const jar = new CookieJar();
  const start = await startAuthorization(config, REDIRECT, o.scope ?? 'openid', o.resource ? { resource: o.resource } : {});
  const { interactionId } = await openAuthorization(jar, start);
  const answer = await project.client.post(`/oauth-provider/interactions/${interactionId}`, { allow: true }, { accessToken });
  expect(answer.status).toBe(200);
  const callback = await followToApplication(jar, answer.body.redirect_to, issuerUrl(svc, project.id));
  return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: start.verifier, expectedState: start.state }, o.resource ? { resource: o.resource } : undefined);
}

describe('resource indicators (RFC 8707) and protected-resource metadata (RFC 9728)', () => {
  test('a token for a declared resource is a JWT with it as audience, verified with the JWKS; another resource is invalid_target', async () => {
    const project = await newProject(svc);
    await project.admin.patch('/oauth-provider/settings', { resources: [RESOURCE] });
    const issuer = issuerUrl(svc, project.id);
    const app = await registerClient(project, { display_name: 'MCP host', client_type: 'public', redirect_uris: [REDIRECT] });
    const config = await discover(svc, project.id, app.clientId);
    const user = await signUp(project);
    const tokens = await signIn(project, config, user.accessToken, { resource: RESOURCE });
    const jwks = createRemoteJWKSet(new URL(`${issuer.href}/jwks`));
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, { issuer: issuer.href, audience: RESOURCE, typ: 'at+jwt' });
    expect(protectedHeader.alg).toBe('ES256');
    expect(payload).toMatchObject({ sub: user.userId, client_id: app.clientId });
    // Bound to that resource: a resource server with another identifier refuses it.
    await expect(jwtVerify(tokens.access_token, jwks, { issuer: issuer.href, audience: OTHER_RESOURCE })).rejects.toThrow();

    // Refreshed (as an MCP client does when its token expires): a new JWT for the same resource; once the project no
    // longer declares the resource, the refresh is invalid_target.
    const offline = await signIn(project, config, user.accessToken, { resource: RESOURCE, scope: 'openid offline_access' });
    const refreshed = await oidc.refreshTokenGrant(config, offline.refresh_token!, { resource: RESOURCE });
    expect((await jwtVerify(refreshed.access_token, jwks, { issuer: issuer.href, audience: RESOURCE })).payload.sub).toBe(user.userId);
    await project.admin.patch('/oauth-provider/settings', { resources: [] });
    expect(await oauthErrorOf(oidc.refreshTokenGrant(config, refreshed.refresh_token!, { resource: RESOURCE }))).toBe('invalid_target');
    await project.admin.patch('/oauth-provider/settings', { resources: [RESOURCE] });

    // Not declared: the authorization request is refused with invalid_target (back at the application).
    const jar = new CookieJar();
    const start = await startAuthorization(config, REDIRECT, 'openid', { resource: OTHER_RESOURCE });
    const res = await jar.fetch(start.url);
    const back = new URL(res.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('invalid_target');
    // And at the token endpoint: a machine client asking for an undeclared resource.
    const machine = await registerClient(project, { display_name: 'Worker', client_type: 'confidential', grant_types: ['client_credentials'], scopes: ['openid'] });
    const machineConfig = await discover(svc, project.id, machine.clientId, machine.clientSecret);
    expect(await oauthErrorOf(oidc.clientCredentialsGrant(machineConfig, { resource: OTHER_RESOURCE }))).toBe('invalid_target');
    const machineToken = await oidc.clientCredentialsGrant(machineConfig, { resource: RESOURCE });
    expect(decodeJwt(machineToken.access_token).aud).toBe(RESOURCE);
  });

  test("the metadata document names the project's issuer; an undeclared resource has none", async () => {
    const project = await newProject(svc);
    await project.admin.patch('/oauth-provider/settings', { resources: [RESOURCE] });
    const issuer = issuerUrl(svc, project.id).href;
    const url = `${issuer}/protected-resource?resource=${encodeURIComponent(RESOURCE)}`;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ resource: RESOURCE, authorization_servers: [issuer], bearer_methods_supported: ['header'] });
    expect((await fetch(`${issuer}/protected-resource?resource=${encodeURIComponent(OTHER_RESOURCE)}`)).status).toBe(404);
    expect((await fetch(`${issuer}/protected-resource`)).status).toBe(404);
    // The authorization server's own metadata, as an MCP client reads it after the resource's.
    const discovery = await discoveryOf(project.id);
    expect(discovery.issuer).toBe(issuer);
    expect(discovery.code_challenge_methods_supported).toEqual(['S256']);
    // RFC 8414 §3.1: the same document where an issuer with a path has it (MCP clients look there first).
    for (const wellKnown of ['oauth-authorization-server', 'openid-configuration']) {
      const placed = await fetch(`${svc.url}/.well-known/${wellKnown}/oidc/${project.id}`);
      expect(placed.status).toBe(200);
      expect(await placed.json()).toEqual(discovery);
    }
    expect((await fetch(`${svc.url}/.well-known/oauth-authorization-server/oidc/no-such-project`)).status).toBe(404);
  });
});
