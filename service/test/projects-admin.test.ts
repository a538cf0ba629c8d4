// Project administration over HTTP: GET/PATCH/DELETE /projects/current (protocol-resources §10.2–§10.4), the
// config rules shared with POST /internal/projects, the access matrix and isolation between projects.
import { beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { Api, DEV_KEYS, adminApi, expectKnownError, sharedService, type SharedService } from './support/service';
import { internalClient, newInternalUser, newProject, signUp } from './support/projects';

// The machine may be busy (several suites at once): allow slow service round-trips.
setDefaultTimeout(60_000);

let svc: SharedService;
beforeAll(async () => { svc = await sharedService(); }, 60_000);

const standardEmail = { type: 'standard', host: 'smtp.example.com', port: 587, username: 'user', password: 'pass', sender_name: 'Sender', sender_email: 'sender@example.com' };

function expectSchemaError(res: { status: number; body: any; headers: Headers }, ...lines: string[]) {
  expectKnownError(res as any, 'SCHEMA_ERROR', 400);
  for (const line of lines) expect(res.body.error).toContain(`  - ${line}`);
}

describe('GET /projects/current', () => {
  test('admin view of a new project', async () => {
    const p = await newProject(svc, { displayName: 'Admin view' });
    const res = await p.admin.get('/projects/current');
    expect(res.status).toBe(200);
    const { config, created_at_millis, ...top } = res.body;
    expect(top).toEqual({ id: p.id, display_name: 'Admin view', description: '', is_production_mode: false, user_count: 0 });
    expect(typeof created_at_millis).toBe('number');
    expect(config).toEqual({
      id: expect.any(String), allow_localhost: true, sign_up_enabled: true, credential_enabled: true, magic_link_enabled: false,
      passkey_enabled: false, client_team_creation_enabled: false, client_user_deletion_enabled: false, create_team_on_sign_up: false,
      allow_user_api_keys: false, allow_team_api_keys: false, domains: [], oauth_providers: [], enabled_oauth_providers: [],
      email_config: { type: 'shared' }, team_creator_default_permissions: [{ id: 'admin' }], team_member_default_permissions: [{ id: 'member' }],
      user_default_permissions: [], oauth_account_merge_strategy: 'link_method',
    });
    // No production-mode errors on the wire: the client library computes them (§10.7).
    expect(Object.keys(res.body).sort()).toEqual(['config', 'created_at_millis', 'description', 'display_name', 'id', 'is_production_mode', 'user_count']);
  });
});

describe('PATCH /projects/current', () => {
  test('changes only what it names; description is kept when omitted and null means ""', async () => {
    const p = await newProject(svc);
    // Production mode with localhost allowed is refused (request-hygiene.test.ts): both change together here.
    let res = await p.admin.patch('/projects/current', { description: 'Kept', is_production_mode: true, config: { allow_localhost: false } });
    expect(res.status).toBe(200);
    expect(res.body.description).toBe('Kept');
    expect(res.body.is_production_mode).toBe(true);
    res = await p.admin.patch('/projects/current', { display_name: 'Renamed' });
    expect({ name: res.body.display_name, description: res.body.description, prod: res.body.is_production_mode }).toEqual({ name: 'Renamed', description: 'Kept', prod: true });
    res = await p.admin.patch('/projects/current', { config: { magic_link_enabled: true, client_team_creation_enabled: true } });
    expect(res.body.config).toMatchObject({ magic_link_enabled: true, client_team_creation_enabled: true, sign_up_enabled: true, credential_enabled: true });
    expect(res.body.description).toBe('Kept');
    res = await p.admin.patch('/projects/current', { description: null });
    expect(res.body.description).toBe('');
    res = await p.admin.patch('/projects/current', {});
    expect(res.status).toBe(200);
    expect((await p.admin.get('/projects/current')).body).toEqual(res.body);
  });

  test('changes take effect at once for every access type (cache invalidated)', async () => {
    const p = await newProject(svc);
    expect((await p.client.get('/projects/current')).body.config.sign_up_enabled).toBe(true);
    expect((await p.admin.patch('/projects/current', { config: { sign_up_enabled: false, oauth_providers: [{ id: 'github', type: 'shared', enabled: true }] } })).status).toBe(200);
    const client = await p.client.get('/projects/current');
    expect(client.body.config.sign_up_enabled).toBe(false);
    expect(client.body.config.enabled_oauth_providers).toEqual([{ id: 'github' }]);
    expect((await p.server.get('/projects/current')).body).toEqual(client.body);
    // The switch is enforced by sign-up right away.
    const signUpRes = await p.client.post('/auth/password/sign-up', { email: 'late@example.com', password: 'correct-horse-1' });
    expectKnownError(signUpRes, 'SIGN_UP_NOT_ENABLED', 400);
  });

  test('read-only and unknown keys are rejected', async () => {
    const p = await newProject(svc);
    expectSchemaError(await p.admin.patch('/projects/current', { config: { id: 'x', enabled_oauth_providers: [] } }), 'body.config contains unknown properties: id, enabled_oauth_providers');
    expectSchemaError(await p.admin.patch('/projects/current', { id: 'x', user_count: 3 }), 'body contains unknown properties: id, user_count');
    expectSchemaError(await p.admin.patch('/projects/current', { display_name: '' }));
    expectSchemaError(await p.admin.patch('/projects/current', { config: { oauth_account_merge_strategy: 'merge' } }),
      'body.config.oauth_account_merge_strategy must be one of the following values: link_method, raise_error, allow_duplicates');
  });

  test('OAuth providers: kept once added, shared only for four, standard needs credentials', async () => {
    const p = await newProject(svc);
    let res = await p.admin.patch('/projects/current', { config: { oauth_providers: [
      { id: 'google', type: 'shared', enabled: true },
      { id: 'discord', type: 'standard', enabled: true, client_id: 'discord-id', client_secret: 'discord-secret' },
    ] } });
    expect(res.status).toBe(200);
    expect(res.body.config.oauth_providers).toEqual([
      { id: 'discord', type: 'standard', enabled: true, client_id: 'discord-id', client_secret: 'discord-secret' },
      { id: 'google', type: 'shared', enabled: true },
    ]);
    expect(res.body.config.enabled_oauth_providers).toEqual([{ id: 'discord' }, { id: 'google' }]);

    res = await p.admin.patch('/projects/current', { config: { oauth_providers: [{ id: 'google', type: 'shared', enabled: true }] } });
    expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: "Provider with id 'discord' not found in the update" });

    res = await p.admin.patch('/projects/current', { config: { oauth_providers: [
      { id: 'google', type: 'shared', enabled: false }, { id: 'discord', type: 'standard', enabled: true, client_id: 'a', client_secret: 'b' },
      { id: 'facebook', type: 'shared', enabled: true },
    ] } });
    expectKnownError(res, 'INVALID_SHARED_OAUTH_PROVIDER_ID', 400);
    expect(res.body.details).toEqual({ provider_id: 'facebook' });

    res = await p.admin.patch('/projects/current', { config: { oauth_providers: [
      { id: 'google', type: 'standard', enabled: true, client_id: 'g' }, { id: 'discord', type: 'standard', enabled: false, client_id: '', client_secret: 'b' },
    ] } });
    expectSchemaError(res, 'body.config.oauth_providers[0].client_secret must be defined', 'body.config.oauth_providers[1].client_id must not be empty');

    // Disabling keeps the provider listed.
    res = await p.admin.patch('/projects/current', { config: { oauth_providers: [
      { id: 'google', type: 'shared', enabled: false }, { id: 'discord', type: 'standard', enabled: true, client_id: 'a', client_secret: 'b' },
    ] } });
    expect(res.body.config.oauth_providers.map((x: any) => [x.id, x.enabled])).toEqual([['discord', true], ['google', false]]);
    expect((await p.client.get('/projects/current')).body.config.enabled_oauth_providers).toEqual([{ id: 'discord' }]);
    // Nothing of the failed updates was written.
    expect((await p.admin.get('/projects/current')).body.config.oauth_providers).toHaveLength(2);
  });

  test('email config: standard needs every field, is returned whole to admins', async () => {
    const p = await newProject(svc);
    let res = await p.admin.patch('/projects/current', { config: { email_config: { type: 'standard', host: 'smtp.example.com', port: 587, username: '' } } });
    expectSchemaError(res, 'body.config.email_config.username must not be empty', 'body.config.email_config.password must be defined',
      'body.config.email_config.sender_name must be defined', 'body.config.email_config.sender_email must be defined');
    expectSchemaError(await p.admin.patch('/projects/current', { config: { email_config: { ...standardEmail, port: 70000 } } }),
      'body.config.email_config.port must be less than or equal to 65535');
    expectSchemaError(await p.admin.patch('/projects/current', { config: { email_config: { ...standardEmail, sender_email: 'nope' } } }),
      'body.config.email_config.sender_email must be a valid email');
    res = await p.admin.patch('/projects/current', { config: { email_config: standardEmail } });
    expect(res.status).toBe(200);
    expect(res.body.config.email_config).toEqual(standardEmail);
    res = await p.admin.patch('/projects/current', { config: { email_config: { type: 'shared' } } });
    expect(res.body.config.email_config).toEqual({ type: 'shared' });
  });

  test('domains: http(s) URL and handler path; duplicates refused; whole-list replacement', async () => {
    const p = await newProject(svc);
    expectSchemaError(await p.admin.patch('/projects/current', { config: { domains: [{ domain: 'ftp://a.com', handler_path: '/handler' }] } }),
      'body.config.domains[0].domain URL must start with http:// or https://');
    expectSchemaError(await p.admin.patch('/projects/current', { config: { domains: [{ domain: 'https://a.com', handler_path: 'handler' }] } }),
      'body.config.domains[0].handler_path Handler path must start with /');
    const dup = await p.admin.patch('/projects/current', { config: { domains: [{ domain: 'https://a.com', handler_path: '/handler' }, { domain: 'https://a.com', handler_path: '/other' }] } });
    expect({ status: dup.status, text: dup.text }).toEqual({ status: 400, text: 'Duplicated domain found' });
    const domains = [{ domain: 'https://b.com', handler_path: '/handler' }, { domain: 'http://a.com', handler_path: '/' }];
    let res = await p.admin.patch('/projects/current', { config: { domains } });
    expect(res.body.config.domains).toEqual(domains);
    res = await p.admin.patch('/projects/current', { config: { domains: [domains[1]] } });
    expect(res.body.config.domains).toEqual([domains[1]]);
  });

  test('default permissions must exist', async () => {
    const p = await newProject(svc);
    let res = await p.admin.patch('/projects/current', { config: { team_creator_default_permissions: [{ id: 'nope' }] } });
    expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: 'Invalid team default permission ids' });
    res = await p.admin.patch('/projects/current', { config: { user_default_permissions: [{ id: 'admin' }, { id: 'ghost' }] } });
    expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: 'Invalid user default permission ids: admin, ghost' });
    res = await p.admin.patch('/projects/current', { config: { team_creator_default_permissions: [{ id: 'member' }, { id: '$update_team' }], team_member_default_permissions: [] } });
    expect(res.status).toBe(200);
    expect(res.body.config.team_creator_default_permissions).toEqual([{ id: '$update_team' }, { id: 'member' }]);
    expect(res.body.config.team_member_default_permissions).toEqual([]);
  });
});

describe('POST /internal/projects applies the same config rules', () => {
  test('valid config is stored; invalid config creates nothing', async () => {
    const owner = await newInternalUser(svc);
    const create = (config: unknown) => internalClient(svc).post('/internal/projects', { display_name: 'With config', config }, { accessToken: owner.accessToken });
    let res = await create({ domains: [{ domain: 'https://a.com', handler_path: '/h' }, { domain: 'https://a.com/', handler_path: '/h' }] });
    expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: 'Duplicated domain found' });
    res = await create({ oauth_providers: [{ id: 'apple', type: 'shared', enabled: true }] });
    expectKnownError(res, 'INVALID_SHARED_OAUTH_PROVIDER_ID', 400);
    expectSchemaError(await create({ email_config: { type: 'standard', host: 'h' } }), 'body.config.email_config.port must be defined');
    res = await create({ user_default_permissions: [{ id: 'x' }] });
    expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: 'Invalid user default permission ids: x' });
    expect((await internalClient(svc).get('/internal/projects', { accessToken: owner.accessToken })).body.items).toEqual([]);

    res = await create({ email_config: standardEmail, team_member_default_permissions: [{ id: '$read_members' }], oauth_providers: [{ id: 'spotify', type: 'shared', enabled: true }] });
    expect(res.status).toBe(201);
    expect(res.body.config).toMatchObject({
      email_config: standardEmail, team_member_default_permissions: [{ id: '$read_members' }], team_creator_default_permissions: [{ id: 'admin' }],
      enabled_oauth_providers: [{ id: 'spotify' }],
    });
  });
});

describe('DELETE /projects/current', () => {
  test('deletes the project and its data, and removes it from every owner list', async () => {
    const owner = await newInternalUser(svc);
    const keep = await newProject(svc, { owner });
    const gone = await newProject(svc, { owner });
    await signUp(gone);
    expect((await gone.admin.get('/projects/current')).body.user_count).toBe(1);

    const res = await gone.ownerAdmin.delete('/projects/current');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });

    const list = await internalClient(svc).get('/internal/projects', { accessToken: owner.accessToken });
    expect(list.body.items.map((x: any) => x.id)).toEqual([keep.id]);
    // The owner's token no longer grants access; the project's keys are gone with it.
    expectKnownError(await gone.ownerAdmin.get('/projects/current'), 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401);
    expectKnownError(await gone.admin.get('/projects/current'), 'INVALID_SUPER_SECRET_ADMIN_KEY', 401);
    expectKnownError(await gone.client.get('/projects/current'), 'INVALID_PUBLISHABLE_CLIENT_KEY', 401);
    // The other project is untouched.
    expect((await keep.ownerAdmin.get('/projects/current')).status).toBe(200);
  });

  test('the internal project cannot be deleted', async () => {
    const res = await adminApi(svc.url, DEV_KEYS.projectId, DEV_KEYS.superSecretAdminKey).delete('/projects/current');
    expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: 'The internal project cannot be deleted.' });
    expect((await internalClient(svc).get('/projects/current')).status).toBe(200);
  });
});

describe('access matrix and isolation', () => {
  test('client and server get INSUFFICIENT_ACCESS_TYPE; owners pass with their token, other users do not', async () => {
    const p = await newProject(svc);
    for (const [api, type] of [[p.client, 'client'], [p.server, 'server']] as const) {
      for (const res of [await api.patch('/projects/current', { display_name: 'x' }), await api.delete('/projects/current')]) {
        expectKnownError(res, 'INSUFFICIENT_ACCESS_TYPE', 401);
        expect(res.body.details).toEqual({ actual_access_type: type, allowed_access_types: ['admin'] });
      }
    }
    const stranger = await newInternalUser(svc);
    const strangerAdmin = new Api(svc.url, { 'x-stack-project-id': p.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': stranger.accessToken });
    expectKnownError(await strangerAdmin.patch('/projects/current', { display_name: 'x' }), 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401);
    expectKnownError(await strangerAdmin.delete('/projects/current'), 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401);
    const res = await p.ownerAdmin.patch('/projects/current', { display_name: 'By owner' });
    expect(res.status).toBe(200);
    expect(res.body.display_name).toBe('By owner');
  });

  test("one project's changes never touch another's", async () => {
    const a = await newProject(svc);
    const b = await newProject(svc);
    const before = (await b.admin.get('/projects/current')).body;
    await a.admin.patch('/projects/current', { display_name: 'A only', config: { sign_up_enabled: false, domains: [{ domain: 'https://a.com', handler_path: '/' }] } });
    expect((await b.admin.get('/projects/current')).body).toEqual(before);
    // A's admin key cannot address B.
    expectKnownError(await adminApi(svc.url, b.id, a.keys.superSecretAdminKey).patch('/projects/current', { display_name: 'x' }), 'INVALID_SUPER_SECRET_ADMIN_KEY', 401);
  });
});
