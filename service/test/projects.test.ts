// The current project's views, project ownership through /internal/projects, and project API key sets
// (protocol-resources §10.1, §10.2, §10.5, §11.1).
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { DEV_KEYS, clientApi, expectKnownError, serverApi, sharedService, type SharedService } from './support/service';
import { internalClient, newInternalUser, newProject, signUp, type TestProject } from './support/projects';

// The machine may be busy (other suites, password hashing): bun's default of 5 s per test is too tight.
setDefaultTimeout(60_000);

let svc: SharedService;
let p: TestProject;

beforeAll(async () => {
  svc = await sharedService();
  p = await newProject(svc, { displayName: 'Views' });
}, 60_000);

const CLIENT_CONFIG_KEYS = [
  'allow_team_api_keys', 'allow_user_api_keys', 'client_team_creation_enabled', 'client_user_deletion_enabled',
  'credential_enabled', 'enabled_oauth_providers', 'magic_link_enabled', 'passkey_enabled', 'sign_up_enabled',
];
const ADMIN_CONFIG_KEYS = [
  'allow_localhost', 'allow_team_api_keys', 'allow_user_api_keys', 'client_team_creation_enabled', 'client_user_deletion_enabled',
  'create_team_on_sign_up', 'credential_enabled', 'domains', 'email_config', 'enabled_oauth_providers', 'id', 'magic_link_enabled',
  'oauth_account_merge_strategy', 'oauth_providers', 'passkey_enabled', 'sign_up_enabled', 'team_creator_default_permissions',
  'team_member_default_permissions', 'user_default_permissions',
];
const ADMIN_KEYS = ['config', 'created_at_millis', 'description', 'display_name', 'id', 'is_production_mode', 'user_count'];

describe('GET /projects/current', () => {
  test('client and server get the client view', async () => {
    for (const api of [p.client, p.server]) {
      const res = await api.get('/projects/current');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: p.id, display_name: 'Views',
        config: {
          sign_up_enabled: true, credential_enabled: true, magic_link_enabled: false, passkey_enabled: false,
          client_team_creation_enabled: false, client_user_deletion_enabled: false, allow_user_api_keys: false,
          allow_team_api_keys: false, enabled_oauth_providers: [],
        },
      });
      expect(Object.keys(res.body.config).sort()).toEqual(CLIENT_CONFIG_KEYS);
    }
  });

  test('admin gets the admin view with the defaults of a new project', async () => {
    for (const api of [p.admin, p.ownerAdmin]) {
      const res = await api.get('/projects/current');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(ADMIN_KEYS);
      expect(Object.keys(res.body.config).sort()).toEqual(ADMIN_CONFIG_KEYS);
      expect(res.body).toMatchObject({ id: p.id, display_name: 'Views', description: '', is_production_mode: false });
      expect(res.body.config).toMatchObject({
        allow_localhost: true, sign_up_enabled: true, credential_enabled: true, magic_link_enabled: false, passkey_enabled: false,
        client_team_creation_enabled: false, client_user_deletion_enabled: false, create_team_on_sign_up: false,
        allow_user_api_keys: false, allow_team_api_keys: false, domains: [], oauth_providers: [], enabled_oauth_providers: [],
        email_config: { type: 'shared' }, oauth_account_merge_strategy: 'link_method',
        team_creator_default_permissions: [{ id: 'admin' }], team_member_default_permissions: [{ id: 'member' }], user_default_permissions: [],
      });
      expect(typeof res.body.config.id).toBe('string');
    }
  });

  test('user_count follows sign-ups and deletions', async () => {
    const fresh = await newProject(svc);
    expect((await fresh.admin.get('/projects/current')).body.user_count).toBe(0);
    const u = await signUp(fresh);
    await signUp(fresh);
    expect((await fresh.admin.get('/projects/current')).body.user_count).toBe(2);
    await fresh.server.delete(`/users/${u.userId}`);
    expect((await fresh.admin.get('/projects/current')).body.user_count).toBe(1);
  });

  test('needs an access type', async () => {
    const res = await internalClient(svc).with({ 'x-stack-access-type': undefined, 'x-stack-publishable-client-key': undefined }).get('/projects/current');
    expectKnownError(res, 'ACCESS_TYPE_REQUIRED', 400);
  });
});

describe('/internal/projects', () => {
  test('POST as a signed-in internal user: 201 admin view, owned by the creator', async () => {
    const owner = await newInternalUser(svc);
    const res = await internalClient(svc).post('/internal/projects', {
      display_name: 'Mine', description: 'about', config: { sign_up_enabled: false, magic_link_enabled: true, domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }] },
    }, { accessToken: owner.accessToken });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(ADMIN_KEYS);
    expect(res.body).toMatchObject({ display_name: 'Mine', description: 'about', user_count: 0, is_production_mode: false });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.config).toMatchObject({ sign_up_enabled: false, magic_link_enabled: true, credential_enabled: true, domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }] });

    // Ownership: the creator's server metadata lists the project, and their token is an admin token for it.
    const internalAdmin = clientApi(svc.url, 'internal', DEV_KEYS.publishableClientKey).with({ 'x-stack-access-type': 'server', 'x-stack-secret-server-key': DEV_KEYS.secretServerKey });
    const me = await internalAdmin.get(`/users/${owner.userId}`);
    expect(me.body.server_metadata.managedProjectIds).toEqual([res.body.id]);
    const admin = p.ownerAdmin.with({ 'x-stack-project-id': res.body.id, 'x-stack-admin-access-token': owner.accessToken });
    expect((await admin.get('/projects/current')).body.id).toBe(res.body.id);
  });

  test('GET lists the projects of the signed-in user only, newest first', async () => {
    const owner = await newInternalUser(svc);
    const first = await newProject(svc, { owner, displayName: 'First' });
    const second = await newProject(svc, { owner, displayName: 'Second' });
    const res = await internalClient(svc).get('/internal/projects', { accessToken: owner.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.is_paginated).toBe(false);
    expect(res.body.items.map((x: any) => x.id)).toEqual([second.id, first.id]);
    expect(Object.keys(res.body.items[0]).sort()).toEqual(ADMIN_KEYS);

    const stranger = await newInternalUser(svc);
    expect((await internalClient(svc).get('/internal/projects', { accessToken: stranger.accessToken })).body.items).toEqual([]);
  });

  test('USER_AUTHENTICATION_REQUIRED without a user; EXPECTED_INTERNAL_PROJECT elsewhere', async () => {
    const none = await internalClient(svc).get('/internal/projects');
    expectKnownError(none, 'USER_AUTHENTICATION_REQUIRED', 401);
    expect(none.body.error).toBe('User authentication required for this endpoint.');
    expectKnownError(await internalClient(svc).post('/internal/projects', { display_name: 'x' }), 'USER_AUTHENTICATION_REQUIRED', 401);

    const u = await signUp(p);
    for (const res of [
      await p.client.get('/internal/projects', { accessToken: u.accessToken }),
      await p.client.post('/internal/projects', { display_name: 'x' }, { accessToken: u.accessToken }),
      await p.admin.get('/internal/projects'),
    ]) {
      expectKnownError(res, 'EXPECTED_INTERNAL_PROJECT', 401);
      expect(res.body.error).toBe('The project ID is expected to be internal.');
    }
  });

  test('the body is validated', async () => {
    const owner = await newInternalUser(svc);
    const missing = await internalClient(svc).post('/internal/projects', {}, { accessToken: owner.accessToken });
    expectKnownError(missing, 'SCHEMA_ERROR', 400);
    expect(missing.body.error).toContain('  - body.display_name must be defined');
    const unknown = await internalClient(svc).post('/internal/projects', { display_name: 'x', config: { id: 'x', nope: 1 } }, { accessToken: owner.accessToken });
    expectKnownError(unknown, 'SCHEMA_ERROR', 400);
    expect(unknown.body.error).toContain('  - body.config contains unknown properties: id, nope');
    expect((await internalClient(svc).get('/internal/projects', { accessToken: owner.accessToken })).body.items).toEqual([]);
  });
});

describe('/internal/api-keys', () => {
  const create = (project: TestProject, o: Partial<Record<'has_publishable_client_key' | 'has_secret_server_key' | 'has_super_secret_admin_key', boolean>> = {}) =>
    project.admin.post('/internal/api-keys', {
      description: 'CI keys', expires_at_millis: Date.now() + 3600_000,
      has_publishable_client_key: true, has_secret_server_key: true, has_super_secret_admin_key: false, ...o,
    });

  test('POST: 200 with the requested keys in full, this once', async () => {
    const res = await create(p);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['created_at_millis', 'description', 'expires_at_millis', 'id', 'publishable_client_key', 'secret_server_key']);
    expect(res.body.publishable_client_key).toMatch(/^pck_[0-9a-hjkmnp-tv-z]{45}$/);
    expect(res.body.secret_server_key).toMatch(/^ssk_[0-9a-hjkmnp-tv-z]{45}$/);
    const admin = await create(p, { has_publishable_client_key: false, has_secret_server_key: false, has_super_secret_admin_key: true });
    expect(admin.body.super_secret_admin_key).toMatch(/^sak_[0-9a-hjkmnp-tv-z]{45}$/);
    expect(admin.body.publishable_client_key).toBeUndefined();
    // The new keys work.
    expect((await serverApi(svc.url, p.id, res.body.secret_server_key).get('/users')).status).toBe(200);

    const got = await p.admin.get(`/internal/api-keys/${res.body.id}`);
    expect(got.body).toEqual({
      id: res.body.id, description: 'CI keys', expires_at_millis: res.body.expires_at_millis, created_at_millis: res.body.created_at_millis,
      publishable_client_key: { last_four: res.body.publishable_client_key.slice(-4) },
      secret_server_key: { last_four: res.body.secret_server_key.slice(-4) },
    });
  });

  test('GET lists key sets newest first, with last four characters only', async () => {
    const fresh = await newProject(svc);
    const a = await create(fresh);
    const b = await create(fresh, { has_super_secret_admin_key: true });
    const res = await fresh.admin.get('/internal/api-keys');
    expect(res.status).toBe(200);
    expect(res.body.is_paginated).toBe(false);
    const ids = res.body.items.map((k: any) => k.id);
    expect(ids.indexOf(b.body.id)).toBeLessThan(ids.indexOf(a.body.id));
    expect(JSON.stringify(res.body)).not.toContain(a.body.publishable_client_key);
    const item = res.body.items.find((k: any) => k.id === b.body.id);
    expect(item.super_secret_admin_key).toEqual({ last_four: b.body.super_secret_admin_key.slice(-4) });
  });

  test('PATCH: description, and one-way revocation', async () => {
    const k = await create(p);
    const renamed = await p.admin.patch(`/internal/api-keys/${k.body.id}`, { description: 'renamed' });
    expect(renamed.body.description).toBe('renamed');
    expect(renamed.body.manually_revoked_at_millis).toBeUndefined();

    const revoked = await p.admin.patch(`/internal/api-keys/${k.body.id}`, { revoked: true });
    const at = revoked.body.manually_revoked_at_millis;
    expect(Math.abs(at - Date.now())).toBeLessThan(60_000);
    await Bun.sleep(20);
    // Revoking again keeps the first time (the original overwrote it).
    expect((await p.admin.patch(`/internal/api-keys/${k.body.id}`, { revoked: true })).body.manually_revoked_at_millis).toBe(at);

    const unrevoke = await p.admin.patch(`/internal/api-keys/${k.body.id}`, { revoked: false });
    expectKnownError(unrevoke, 'SCHEMA_ERROR', 400);
    expect(unrevoke.body.error).toContain('  - body.revoked must be one of the following values: true');
    expect((await p.admin.get(`/internal/api-keys/${k.body.id}`)).body.manually_revoked_at_millis).toBe(at);
  });

  test("API_KEY_NOT_FOUND for unknown ids and other projects' key sets", async () => {
    const other = await newProject(svc);
    const foreign = await create(other);
    for (const id of [crypto.randomUUID(), foreign.body.id]) {
      const res = await p.admin.get(`/internal/api-keys/${id}`);
      expectKnownError(res, 'API_KEY_NOT_FOUND', 404);
      expect(res.body.error).toBe('API key not found.');
      expectKnownError(await p.admin.patch(`/internal/api-keys/${id}`, { revoked: true }), 'API_KEY_NOT_FOUND', 404);
    }
    // The foreign key set was not revoked.
    expect((await other.admin.get(`/internal/api-keys/${foreign.body.id}`)).body.manually_revoked_at_millis).toBeUndefined();
    expectKnownError(await p.admin.get('/internal/api-keys/not-a-uuid'), 'SCHEMA_ERROR', 400);
  });

  test('admin only', async () => {
    for (const api of [p.client, p.server]) {
      expectKnownError(await api.get('/internal/api-keys'), 'INSUFFICIENT_ACCESS_TYPE', 401);
      expectKnownError(await api.post('/internal/api-keys', {}), 'INSUFFICIENT_ACCESS_TYPE', 401);
    }
    const missing = await p.admin.post('/internal/api-keys', { description: 'x' });
    expectKnownError(missing, 'SCHEMA_ERROR', 400);
    expect(missing.body.error.split('\n').slice(1).sort()).toEqual([
      '  - body.expires_at_millis must be defined',
      '  - body.has_publishable_client_key must be defined',
      '  - body.has_secret_server_key must be defined',
      '  - body.has_super_secret_admin_key must be defined',
    ]);
  });
});
