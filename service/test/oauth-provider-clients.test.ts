// The project as an OpenID provider (issue 27), its clients: the admin API /oauth-provider/clients and the
// provider's discovery document and keys, against a started service (PGlite, or PostgreSQL with DATABASE_URL).
import { describe, expect, test } from 'bun:test';
import { expectKnownError, sharedService } from './support/service';
import { newProject } from './support/projects';
import { discover, issuerUrl, registerClient } from './support/oidc-relying-party';

const svc = await sharedService();
const project = await newProject(svc);
const WEB = { display_name: 'Partner web app', client_type: 'confidential', redirect_uris: ['https://partner.example.com/callback'], logo_url: 'https://partner.example.com/logo.png' };

describe('OAuth clients (admin API)', () => {
  test('create answers the secret once; get and list never do; update and delete', async () => {
    const created = await project.admin.post('/oauth-provider/clients', WEB);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      display_name: 'Partner web app', client_type: 'confidential', redirect_uris: ['https://partner.example.com/callback'],
      grant_types: ['authorization_code', 'refresh_token'], scopes: ['openid', 'profile', 'email', 'offline_access'],
      logo_url: 'https://partner.example.com/logo.png',
    });
    expect(created.body.client_id).toMatch(/^ghc_/);
    expect(created.body.client_secret).toMatch(/^ghs_[A-Za-z0-9_-]{43}$/);
    const id = created.body.client_id as string;

    const one = await project.admin.get(`/oauth-provider/clients/${id}`);
    expect(one.status).toBe(200);
    expect(one.body.client_secret).toBeUndefined();
    expect(one.text).not.toContain(created.body.client_secret);
    const list = await project.admin.get('/oauth-provider/clients');
    expect(list.body.items.map((c: { client_id: string }) => c.client_id)).toContain(id);
    expect(list.text).not.toContain(created.body.client_secret);

    const changed = await project.admin.patch(`/oauth-provider/clients/${id}`, { display_name: 'Partner', scopes: ['openid', 'email'], logo_url: null });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ display_name: 'Partner', scopes: ['openid', 'email'], logo_url: null, redirect_uris: WEB.redirect_uris });

    expect((await project.admin.delete(`/oauth-provider/clients/${id}`)).body).toEqual({ success: true });
    expectKnownError(await project.admin.get(`/oauth-provider/clients/${id}`), 'OAUTH_PROVIDER_CLIENT_NOT_FOUND', 404);
    expectKnownError(await project.admin.delete(`/oauth-provider/clients/${id}`), 'OAUTH_PROVIDER_CLIENT_NOT_FOUND', 404);
  });

  test('a public client has no secret; a machine client needs no redirect URI', async () => {
    const pub = await project.admin.post('/oauth-provider/clients', { display_name: 'CLI', client_type: 'public', redirect_uris: ['http://127.0.0.1:8765/callback'] });
    expect(pub.status).toBe(201);
    expect(pub.body.client_secret).toBeNull();
    const machine = await project.admin.post('/oauth-provider/clients', { display_name: 'Cron', client_type: 'confidential', grant_types: ['client_credentials'], scopes: ['openid'] });
    expect(machine.status).toBe(201);
    expect(machine.body).toMatchObject({ grant_types: ['client_credentials'], redirect_uris: [] });
  });

  test('settings that do not work together are refused with a known error, and nothing is written', async () => {
    const before = (await project.admin.get('/oauth-provider/clients')).body.items.length;
    const cases: Record<string, unknown>[] = [
      { display_name: 'x', client_type: 'public', grant_types: ['client_credentials'] },
      { display_name: 'x', client_type: 'confidential', grant_types: ['authorization_code'] },
      { display_name: 'x', client_type: 'confidential', grant_types: ['refresh_token', 'client_credentials'] },
      { display_name: 'x', client_type: 'public', redirect_uris: ['https://a.example.com/cb'], scopes: [] },
      { display_name: 'x', client_type: 'confidential', grant_types: [] },
    ];
    for (const body of cases) expectKnownError(await project.admin.post('/oauth-provider/clients', body), 'OAUTH_PROVIDER_CLIENT_INVALID', 400);
    const existing = await registerClient(project, { display_name: 'y', client_type: 'public', redirect_uris: ['https://y.example.com/cb'] });
    expectKnownError(await project.admin.patch(`/oauth-provider/clients/${existing.clientId}`, { redirect_uris: [] }), 'OAUTH_PROVIDER_CLIENT_INVALID', 400);
    expectKnownError(await project.admin.patch(`/oauth-provider/clients/${existing.clientId}`, { grant_types: ['client_credentials'] }), 'OAUTH_PROVIDER_CLIENT_INVALID', 400);
    expect((await project.admin.get(`/oauth-provider/clients/${existing.clientId}`)).body.redirect_uris).toEqual(['https://y.example.com/cb']);
    expect((await project.admin.get('/oauth-provider/clients')).body.items.length).toBe(before + 1);
  });

  test('malformed fields are schema errors', async () => {
    const bad: Record<string, unknown>[] = [
      { display_name: '', client_type: 'public', redirect_uris: ['https://a.example.com/cb'] },
      { display_name: 'x', client_type: 'secret', redirect_uris: ['https://a.example.com/cb'] },
      { display_name: 'x', client_type: 'public', redirect_uris: ['/relative'] },
      { display_name: 'x', client_type: 'public', redirect_uris: ['https://a.example.com/cb#frag'] },
      { display_name: 'x', client_type: 'public', redirect_uris: ['https://a.example.com/cb'], grant_types: ['password'] },
      { display_name: 'x', client_type: 'public', redirect_uris: ['https://a.example.com/cb'], grant_types: ['implicit'] },
      { display_name: 'x', client_type: 'public', redirect_uris: ['https://a.example.com/cb'], scopes: ['not a scope token'] },
      { display_name: 'x', client_type: 'public', redirect_uris: ['https://a.example.com/cb'], logo_url: 'javascript:alert(1)' },
      { display_name: 'x', client_type: 'public', redirect_uris: ['https://a.example.com/cb'], client_secret: 'mine' },
    ];
    for (const body of bad) {
      const res = await project.admin.post('/oauth-provider/clients', body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'SCHEMA_ERROR' });
    }
    // A well-formed scope that is neither standard nor one of the project's own (its settings): the client is refused.
    const unknownScope = await project.admin.post('/oauth-provider/clients', { display_name: 'x', client_type: 'public', redirect_uris: ['https://a.example.com/cb'], scopes: ['admin'] });
    expectKnownError(unknownScope, 'OAUTH_PROVIDER_CLIENT_INVALID', 400);
  });

  test('only admin access manages clients; another project sees none of them', async () => {
    const { clientId } = await registerClient(project, { display_name: 'z', client_type: 'public', redirect_uris: ['https://z.example.com/cb'] });
    expect((await project.server.get('/oauth-provider/clients')).status).toBe(401);
    expect((await project.client.post('/oauth-provider/clients', WEB)).status).toBe(401);
    const other = await newProject(svc);
    expectKnownError(await other.admin.get(`/oauth-provider/clients/${clientId}`), 'OAUTH_PROVIDER_CLIENT_NOT_FOUND', 404);
    expectKnownError(await other.admin.patch(`/oauth-provider/clients/${clientId}`, { display_name: 'taken' }), 'OAUTH_PROVIDER_CLIENT_NOT_FOUND', 404);
    expect((await other.admin.get('/oauth-provider/clients')).body.items).toEqual([]);
  });
});

describe("the project's OpenID provider", () => {
  test('discovery: its own issuer, code flow with S256 only, no implicit or password grant, ES256 and RS256 keys', async () => {
    const issuer = issuerUrl(svc, project.id).href;
    const res = await fetch(`${issuer}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const meta = await res.json() as Record<string, any>;
    expect(meta.issuer).toBe(issuer);
    for (const k of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'revocation_endpoint', 'introspection_endpoint', 'end_session_endpoint', 'jwks_uri']) {
      expect(meta[k]).toStartWith(`${issuer}/`);
    }
    expect(meta.response_types_supported).toEqual(['code']);
    expect(meta.code_challenge_methods_supported).toEqual(['S256']);
    expect(meta.grant_types_supported.sort()).toEqual(['authorization_code', 'client_credentials', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code']);
    expect(meta.device_authorization_endpoint).toBe(`${issuer}/device/auth`);
    expect(meta.token_endpoint_auth_methods_supported.sort()).toEqual(['client_secret_basic', 'client_secret_post', 'none']);
    expect(meta.id_token_signing_alg_values_supported).toEqual(['ES256', 'RS256']);
    const rfc8414 = await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json() as Record<string, unknown>;
    expect(rfc8414.issuer).toBe(issuer);

    const jwks = await (await fetch(meta.jwks_uri)).json() as { keys: Record<string, unknown>[] };
    expect(jwks.keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    for (const key of jwks.keys) for (const priv of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key[priv]).toBeUndefined();
    // The same keys on every request (stored, not made per start), and another project's are its own.
    const again = await (await fetch(meta.jwks_uri)).json() as { keys: Record<string, unknown>[] };
    expect(again).toEqual(jwks);
    const other = await newProject(svc);
    const otherKeys = await (await fetch(`${issuerUrl(svc, other.id).href}/jwks`)).json() as { keys: { kid: string }[] };
    expect(otherKeys.keys.map((k) => k.kid).some((kid) => jwks.keys.some((k) => k.kid === kid))).toBe(false);
  });

  test('a body larger than the service takes is refused before the provider reads it', async () => {
    const res = await fetch(`${issuerUrl(svc, project.id).href}/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&pad=${'x'.repeat(3 * 1024 * 1024)}`,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'invalid_request', error_description: 'request body too large' });
  });

  test('openid-client discovers it; an unknown project has no provider', async () => {
    const { clientId } = await registerClient(project, { display_name: 'rp', client_type: 'public', redirect_uris: ['https://rp.example.com/cb'] });
    const config = await discover(svc, project.id, clientId);
    expect(config.serverMetadata().issuer).toBe(issuerUrl(svc, project.id).href);
    expect((await fetch(`${svc.url}/oidc/no-such-project/.well-known/openid-configuration`)).status).toBe(404);
  });
});
