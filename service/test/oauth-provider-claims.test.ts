// Project-defined scopes and custom claims from user metadata (issue 27), driven by openid-client (a certified relying
// party): a project scope granted releases its claims in the ID token and userinfo, one not granted releases nothing,
// a client may be allowed project scopes and is refused others; mappings marked in_access_token go into the project's
// own access tokens (sign-up and refresh), following the metadata; settings that break a rule are refused whole.
import { describe, expect, test } from 'bun:test';
import { decodeJwt } from 'jose';
import { expectKnownError, sharedService } from './support/service';
import { newProject, signUp } from './support/projects';
import { discover, oidc, registerClient, signInThroughConsentApi, startAuthorization, CookieJar, openAuthorization } from './support/oidc-relying-party';

const svc = await sharedService();
const REDIRECT = 'https://app.example.com/callback';

const SCOPES = [{ name: 'billing:read', description: 'See your plan and invoices' }, { name: 'org', description: 'Know your organization' }];
const CLAIMS = [
  { claim: 'plan', source: 'client_metadata.plan', scope: 'billing:read' },
  { claim: 'tier', source: 'server_metadata.tier', scope: 'billing:read', in_access_token: true },
  { claim: 'org_id', source: 'client_read_only_metadata.org.id', scope: 'org' },
  { claim: 'https://example.com/beta', source: 'server_metadata.beta', scope: 'profile' },
  { claim: 'absent', source: 'server_metadata.no.such.key', scope: 'billing:read' },
];

async function configuredProject() {
  const project = await newProject(svc);
  const res = await project.admin.patch('/oauth-provider/settings', { scopes: SCOPES, claims: CLAIMS });
  expect(res.status).toBe(200);
  return project;
}

type Project = Awaited<ReturnType<typeof newProject>>;

async function userWithMetadata(project: Project) {
  const user = await signUp(project);
  const res = await project.server.patch(`/users/${user.userId}`, {
    client_metadata: { plan: 'pro' }, client_read_only_metadata: { org: { id: 'org_7' } }, server_metadata: { tier: 'gold', beta: true },
  });
  expect(res.status).toBe(200);
  return user;
}

describe('settings: project scopes and claim mappings', () => {
  test('kept and answered; offered in discovery', async () => {
    const project = await configuredProject();
    const got = await project.admin.get('/oauth-provider/settings');
    expect(got.body.scopes).toEqual(SCOPES);
    expect(got.body.claims).toEqual(CLAIMS.map((c) => ({ in_access_token: false, ...c })));
    const discovery = await fetch(`${svc.url}/oidc/${project.id}/.well-known/openid-configuration`).then((r) => r.json()) as Record<string, string[]>;
    expect(discovery.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'offline_access', 'billing:read', 'org']));
    expect(discovery.claims_supported).toEqual(expect.arrayContaining(['plan', 'tier', 'org_id', 'https://example.com/beta']));
  });

  test('refused with a known error, nothing written: bad scope token, standard or duplicate scope, reserved, duplicate or unscoped claim, bad source', async () => {
    const project = await configuredProject();
    const before = (await project.admin.get('/oauth-provider/settings')).body;
    const refusals: [Record<string, unknown>, string][] = [
      [{ scopes: [{ name: 'has space', description: 'x' }] }, 'is not a scope token'],
      [{ scopes: [{ name: 'quote"d', description: 'x' }] }, 'is not a scope token'],
      [{ scopes: [{ name: 'email', description: 'x' }] }, 'is a standard scope'],
      [{ scopes: [...SCOPES, { name: 'org', description: 'again' }] }, 'listed twice'],
      [{ claims: [{ claim: 'sub', source: 'server_metadata.id', scope: 'openid' }] }, 'reserved'],
      [{ claims: [{ claim: 'email', source: 'server_metadata.mail', scope: 'email' }] }, 'reserved'],
      [{ claims: [{ claim: 'refreshTokenId', source: 'server_metadata.x', scope: 'openid', in_access_token: true }] }, 'reserved'],
      [{ claims: [CLAIMS[0], { ...CLAIMS[0], source: 'server_metadata.plan' }] }, 'mapped twice'],
      [{ claims: [{ claim: 'x', source: 'server_metadata.x', scope: 'unknown' }] }, 'neither openid, profile, email nor a project scope'],
      [{ claims: [{ claim: 'x', source: 'password_hash', scope: 'openid' }] }, 'must be client_metadata'],
      [{ claims: [{ claim: 'x', source: 'server_metadata..x', scope: 'openid' }] }, 'must be client_metadata'],
      // A scope removed while its claim still names it, or (below) while a client may ask for it.
      [{ scopes: [SCOPES[1]] }, 'neither openid, profile, email nor a project scope'],
    ];
    for (const [body, reason] of refusals) {
      const res = await project.admin.patch('/oauth-provider/settings', body);
      expectKnownError(res, 'OAUTH_PROVIDER_SETTINGS_INVALID', 400);
      expect(res.body.details.reason).toContain(reason);
    }
    await registerClient(project, { display_name: 'Org app', client_type: 'public', redirect_uris: [REDIRECT], scopes: ['openid', 'org'] });
    const orgless = await project.admin.patch('/oauth-provider/settings', { scopes: [SCOPES[0]], claims: CLAIMS.filter((c) => c.scope !== 'org') });
    expectKnownError(orgless, 'OAUTH_PROVIDER_SETTINGS_INVALID', 400);
    expect(orgless.body.details.reason).toContain('"org" is allowed to the OAuth client');
    expect((await project.admin.get('/oauth-provider/settings')).body).toEqual(before);
  });
});

describe('project scopes and custom claims with a real relying party', () => {
  test('a project scope granted releases its claims in the ID token and userinfo; not granted, nothing; the consent names it', async () => {
    const project = await configuredProject();
    const app = await registerClient(project, { display_name: 'Billing app', client_type: 'confidential', redirect_uris: [REDIRECT], scopes: ['openid', 'profile', 'billing:read'] });
    const config = await discover(svc, project.id, app.clientId, app.clientSecret);
    const user = await userWithMetadata(project);

    // The consent API gives the page each project scope's description.
    const jar = new CookieJar();
    const { interactionId } = await openAuthorization(jar, await startAuthorization(config, REDIRECT, 'openid billing:read'));
    const shown = await project.client.get(`/oauth-provider/interactions/${interactionId}`, { accessToken: user.accessToken });
    expect(shown.body).toMatchObject({ scopes: ['openid', 'billing:read'], scope_descriptions: { 'billing:read': 'See your plan and invoices' } });

    const granted = await signInThroughConsentApi(svc, project, config, user.accessToken, REDIRECT, 'openid billing:read');
    const idClaims = granted.claims()!;
    expect(idClaims).toMatchObject({ sub: user.userId, plan: 'pro', tier: 'gold' });
    // Other scopes' claims, and a mapping whose source is missing, are left out.
    for (const name of ['org_id', 'https://example.com/beta', 'absent', 'email']) expect(idClaims[name]).toBeUndefined();
    expect(await oidc.fetchUserInfo(config, granted.access_token, user.userId)).toEqual({ sub: user.userId, plan: 'pro', tier: 'gold' });
    // Connected apps (the user's, and the user's page in the console) name the project scope by the same description.
    const connected = await project.client.get('/oauth-provider/connected-apps', { accessToken: user.accessToken });
    expect(connected.body.items[0]).toMatchObject({ scopes: ['openid', 'billing:read'], scope_descriptions: { 'billing:read': 'See your plan and invoices' } });
    const consents = await project.admin.get(`/oauth-provider/consents?user_id=${user.userId}`);
    expect(consents.body.items[0].scope_descriptions).toEqual({ 'billing:read': 'See your plan and invoices' });

    const bare = await signInThroughConsentApi(svc, project, config, user.accessToken, REDIRECT, 'openid profile');
    expect(bare.claims()!.plan).toBeUndefined();
    expect(bare.claims()!.tier).toBeUndefined();
    // A claim mapped under a standard scope comes with it.
    expect(await oidc.fetchUserInfo(config, bare.access_token, user.userId)).toEqual({ sub: user.userId, 'https://example.com/beta': true });
  });

  test('a client may be allowed project scopes only: one it may not have is refused (admin API and authorization request)', async () => {
    const project = await configuredProject();
    const unknown = await project.admin.post('/oauth-provider/clients', { display_name: 'Greedy', client_type: 'public', redirect_uris: [REDIRECT], scopes: ['openid', 'admin:all'] });
    expectKnownError(unknown, 'OAUTH_PROVIDER_CLIENT_INVALID', 400);
    const badToken = await project.admin.post('/oauth-provider/clients', { display_name: 'Odd', client_type: 'public', redirect_uris: [REDIRECT], scopes: ['openid', 'a b'] });
    expectKnownError(badToken, 'SCHEMA_ERROR', 400);
    const narrow = await registerClient(project, { display_name: 'Narrow', client_type: 'confidential', redirect_uris: [REDIRECT], scopes: ['openid', 'org'] });
    const config = await discover(svc, project.id, narrow.clientId, narrow.clientSecret);
    const res = await fetch((await startAuthorization(config, REDIRECT, 'openid billing:read')).url, { redirect: 'manual' });
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
    // The scope it may have works, with its claim.
    const user = await userWithMetadata(project);
    const tokens = await signInThroughConsentApi(svc, project, config, user.accessToken, REDIRECT, 'openid org');
    expect(tokens.claims()).toMatchObject({ org_id: 'org_7' });
  });

  test('a scope taken away while a client is being given it: one of the two wins, never both (the configuration lock)', async () => {
    for (let round = 0; round < 6; round++) {
      const project = await configuredProject();
      const [created, changed] = await Promise.all([
        project.admin.post('/oauth-provider/clients', { display_name: 'Racing', client_type: 'public', redirect_uris: [REDIRECT], scopes: ['openid', 'org'] }),
        project.admin.patch('/oauth-provider/settings', { scopes: SCOPES.filter((s) => s.name !== 'org'), claims: CLAIMS.filter((c) => c.scope !== 'org') }),
      ]);
      const clients = (await project.admin.get('/oauth-provider/clients')).body.items as { scopes: string[] }[];
      const scopes = ((await project.admin.get('/oauth-provider/settings')).body.scopes as { name: string }[]).map((s) => s.name);
      if (created.status === 201) {
        expectKnownError(changed, 'OAUTH_PROVIDER_SETTINGS_INVALID', 400);
        expect([clients.length, scopes.includes('org')]).toEqual([1, true]);
      } else {
        expectKnownError(created, 'OAUTH_PROVIDER_CLIENT_INVALID', 400);
        expect(changed.status).toBe(200);
        expect([clients.length, scopes.includes('org')]).toEqual([0, false]);
      }
    }
  });

  test('105 clients created together: exactly the limit of 100 are made', async () => {
    const project = await newProject(svc);
    const answers = await Promise.all(Array.from({ length: 105 }, (_, i) => project.admin.post('/oauth-provider/clients', {
      display_name: `App ${i}`, client_type: 'public', redirect_uris: [REDIRECT], scopes: ['openid'],
    })));
    const created = answers.filter((a) => a.status === 201).length;
    const listed = (await project.admin.get('/oauth-provider/clients')).body.items.length;
    expect([created, listed]).toEqual([100, 100]);
    for (const refused of answers.filter((a) => a.status !== 201)) expectKnownError(refused, 'OAUTH_PROVIDER_CLIENT_INVALID', 400);
  });
});

describe("the project's own access tokens", () => {
  test('a mapping with in_access_token is in the token of sign-up and refresh, and follows the metadata; the others are not', async () => {
    const project = await configuredProject();
    const user = await userWithMetadata(project);
    // Signed up before the metadata was set: nothing to carry yet.
    expect(decodeJwt(user.accessToken).tier).toBeUndefined();
    const refresh = async () => {
      const res = await project.client.post('/auth/sessions/current/refresh', {}, { refreshToken: user.refreshToken });
      expect(res.status).toBe(200);
      return decodeJwt(res.body.access_token as string);
    };
    const first = await refresh();
    expect(first).toMatchObject({ sub: user.userId, aud: project.id, branchId: 'main', tier: 'gold' });
    expect(first.plan).toBeUndefined();
    expect((await project.server.patch(`/users/${user.userId}`, { server_metadata: { tier: 'platinum' } })).status).toBe(200);
    expect((await refresh()).tier).toBe('platinum');
    // A sign-in's first token carries it too.
    const signedIn = await project.client.post('/auth/password/sign-in', { email: user.email, password: user.password });
    expect(decodeJwt(signedIn.body.access_token as string).tier).toBe('platinum');
    // The token still works as one: the service takes it.
    const me = await project.client.get('/users/me', { accessToken: (await project.client.post('/auth/sessions/current/refresh', {}, { refreshToken: user.refreshToken })).body.access_token });
    expect(me.status).toBe(200);
    // A mapping taken out of the access tokens leaves them at once (the project record is read again).
    expect((await project.admin.patch('/oauth-provider/settings', { claims: CLAIMS.map((c) => ({ ...c, in_access_token: false })) })).status).toBe(200);
    expect((await refresh()).tier).toBeUndefined();
    // A project without mappings: exactly the protocol's claims.
    const plain = await newProject(svc);
    const plainUser = await signUp(plain);
    expect(Object.keys(decodeJwt(plainUser.accessToken)).sort()).toEqual(['aud', 'branchId', 'exp', 'iat', 'iss', 'refreshTokenId', 'sub']);
  });
});
