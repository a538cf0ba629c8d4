// The admin app's calls for the project's own OpenID provider (issue 27) against the real service: OAuth clients
// created (the secret once), listed through the cached read, updated and deleted; refusals as known errors.
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sharedService, type RunningService } from '../../../service/test/support/service.ts';
import { newProject, type TestProject } from '../../../service/test/support/projects.ts';
import { KnownErrors } from '../../src/known-errors.ts';
import { adminFor } from './service-helpers.ts';

setDefaultTimeout(90_000);
let svc: RunningService;
let project: TestProject;

beforeAll(async () => {
  svc = await sharedService();
  project = await newProject(svc);
}, 180_000);

describe('admin app: OAuth provider clients', () => {
  test('create shows the secret once; the cached list, update and delete stay current', async () => {
    const app = adminFor(project);
    const read = app.adminReads.oauthProviderClients();
    expect(await read.get()).toEqual([]);
    const created = await app.createOAuthProviderClient({ displayName: 'Partner', clientType: 'confidential', redirectUris: ['https://partner.example.com/cb'] });
    expect(created).toMatchObject({
      displayName: 'Partner', clientType: 'confidential', redirectUris: ['https://partner.example.com/cb'],
      grantTypes: ['authorization_code', 'refresh_token'], scopes: ['openid', 'profile', 'email', 'offline_access'], logoUrl: null,
    });
    expect(created.clientSecret).toMatch(/^ghs_/);
    expect(created.createdAt).toBeInstanceOf(Date);
    const listed = await read.get();
    expect(listed.map((c) => c.clientId)).toEqual([created.clientId]);
    expect('clientSecret' in listed[0]!).toBe(false);

    const updated = await app.updateOAuthProviderClient(created.clientId, { displayName: 'Partner Inc.', scopes: ['openid'] });
    expect(updated).toMatchObject({ displayName: 'Partner Inc.', scopes: ['openid'] });
    expect((await read.get())[0]!.displayName).toBe('Partner Inc.');
    expect(created).toMatchObject({ accessTokenLifetimeSeconds: 3600, idTokenLifetimeSeconds: 3600, refreshTokenLifetimeSeconds: 30 * 86400 });
    const lifetimes = await app.updateOAuthProviderClient(created.clientId, { accessTokenLifetimeSeconds: 120, idTokenLifetimeSeconds: 300, refreshTokenLifetimeSeconds: 3600 });
    expect(lifetimes).toMatchObject({ displayName: 'Partner Inc.', accessTokenLifetimeSeconds: 120, idTokenLifetimeSeconds: 300, refreshTokenLifetimeSeconds: 3600 });
    expect((await read.get())[0]!.accessTokenLifetimeSeconds).toBe(120);

    const pub = await app.createOAuthProviderClient({ displayName: 'CLI', clientType: 'public', redirectUris: ['http://127.0.0.1:9000/cb'] });
    expect(pub.clientSecret).toBeNull();
    await app.deleteOAuthProviderClient(created.clientId);
    expect((await app.listOAuthProviderClients()).map((c) => c.clientId)).toEqual([pub.clientId]);
  });

  test('refusals come back as known errors', async () => {
    const app = adminFor(project);
    await expect(app.createOAuthProviderClient({ displayName: 'x', clientType: 'public', grantTypes: ['client_credentials'] }))
      .rejects.toBeInstanceOf(KnownErrors.OAuthProviderClientInvalid);
    await expect(app.createOAuthProviderClient({ displayName: 'x', clientType: 'public', redirectUris: ['https://a.example.com/cb'], accessTokenLifetimeSeconds: 59 }))
      .rejects.toBeInstanceOf(KnownErrors.SchemaError);
    await expect(app.updateOAuthProviderClient('ghc_missing', { displayName: 'y' })).rejects.toBeInstanceOf(KnownErrors.OAuthProviderClientNotFound);
    await expect(app.deleteOAuthProviderClient('ghc_missing')).rejects.toBeInstanceOf(KnownErrors.OAuthProviderClientNotFound);
  });

  test("a user's consents: none yet, a revoke of none and an unknown user are known errors", async () => {
    const app = adminFor(project);
    const user = await project.server.post('/users', { primary_email: `consents-${Date.now()}@example.com` });
    expect(await app.listOAuthProviderConsents(user.body.id)).toEqual([]);
    await expect(app.revokeOAuthProviderConsent(user.body.id, 'ghc_missing')).rejects.toBeInstanceOf(KnownErrors.OAuthProviderClientNotFound);
    await expect(app.listOAuthProviderConsents(crypto.randomUUID())).rejects.toBeInstanceOf(KnownErrors.UserNotFound);
  });

  test("a client's activity: counts and the last token as a Date (null before any), a missing client a known error", async () => {
    const app = adminFor(project);
    const machine = await app.createOAuthProviderClient({ displayName: 'Cron', clientType: 'confidential', grantTypes: ['client_credentials'], scopes: ['openid'] });
    expect(await app.getOAuthProviderClientActivity(machine.clientId)).toEqual({ consentsGranted: 0, liveTokens: 0, lastTokenIssuedAt: null });
    const res = await fetch(`${svc.url}/oidc/${project.id}/token`, {
      method: 'POST', body: 'grant_type=client_credentials',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${btoa(`${machine.clientId}:${machine.clientSecret}`)}` },
    });
    expect(res.status).toBe(200);
    const activity = await app.getOAuthProviderClientActivity(machine.clientId);
    expect(activity).toMatchObject({ consentsGranted: 0, liveTokens: 1 });
    expect(activity.lastTokenIssuedAt).toBeInstanceOf(Date);
    await expect(app.getOAuthProviderClientActivity('ghc_missing')).rejects.toBeInstanceOf(KnownErrors.OAuthProviderClientNotFound);
  });
});

describe('admin app: OAuth provider settings', () => {
  test('read the defaults, change them, and a bad resource is a known error', async () => {
    const app = adminFor(await newProject(svc));
    expect(await app.getOAuthProviderSettings()).toEqual({ dynamicClientRegistration: false, resources: [], scopes: [], claims: [], updatedAt: null });
    const changed = await app.updateOAuthProviderSettings({ dynamicClientRegistration: true, resources: ['https://mcp.example.com/mcp'] });
    expect(changed).toMatchObject({ dynamicClientRegistration: true, resources: ['https://mcp.example.com/mcp'] });
    expect(changed.updatedAt).toBeInstanceOf(Date);
    expect((await app.updateOAuthProviderSettings({ resources: [] })).dynamicClientRegistration).toBe(true);
    await expect(app.updateOAuthProviderSettings({ resources: ['not a url'] })).rejects.toBeInstanceOf(KnownErrors.SchemaError);
  });

  test('project scopes and claim mappings: kept in camelCase; a reserved claim is a known error', async () => {
    const app = adminFor(await newProject(svc));
    const changed = await app.updateOAuthProviderSettings({
      scopes: [{ name: 'billing:read', description: 'See your plan' }],
      claims: [{ claim: 'plan', source: 'client_metadata.plan', scope: 'billing:read', inAccessToken: true }, { claim: 'org', source: 'server_metadata.org', scope: 'profile' }],
    });
    expect(changed.scopes).toEqual([{ name: 'billing:read', description: 'See your plan' }]);
    expect(changed.claims).toEqual([
      { claim: 'plan', source: 'client_metadata.plan', scope: 'billing:read', inAccessToken: true },
      { claim: 'org', source: 'server_metadata.org', scope: 'profile', inAccessToken: false },
    ]);
    await expect(app.updateOAuthProviderSettings({ claims: [{ claim: 'aud', source: 'server_metadata.x', scope: 'openid' }] }))
      .rejects.toBeInstanceOf(KnownErrors.OAuthProviderSettingsInvalid);
    expect((await app.getOAuthProviderSettings()).claims).toHaveLength(2);
  });
});
