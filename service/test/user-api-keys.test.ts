// User and team API keys over HTTP: shapes, the secret shown once, last_four afterwards, revoke and expiry,
// the check endpoint and its errors, the project switches, team permissions, client vs server access, isolation.
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { expectKnownError, sharedService, type ApiResponse } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { addMember, serverCreateTeam, teamWithCreatorAndMember } from './support/teams';

setDefaultTimeout(60_000);

const ENABLED = { allow_user_api_keys: true, allow_team_api_keys: true };
const project = async (config: Record<string, unknown> = ENABLED) => newProject(await sharedService(), { config });
const USER_KEY = /^gh_uk_[0-9a-z]{45}$/;
const lastFour = (v: string) => ({ last_four: v.slice(-4) });

function expectText(res: ApiResponse, status: number, text: string) {
  expect({ status: res.status, text: res.text }).toEqual({ status, text });
}

async function createUserKey(p: TestProject, accessToken: string, body: Record<string, unknown> = {}) {
  const res = await p.client.post('/user-api-keys', { description: 'ci', expires_at_millis: null, user_id: 'me', ...body }, { accessToken });
  expect(res.status).toBe(200);
  return res.body;
}

describe('user API keys', () => {
  test('create shows the value once; reads show last_four; list is newest first', async () => {
    const p = await project();
    const u = await signUp(p);
    const before = Date.now();
    const expiresAt = Date.now() + 3_600_000;
    const created = await createUserKey(p, u.accessToken, { description: 'deploy', expires_at_millis: expiresAt });
    expect(Object.keys(created).sort()).toEqual(['created_at_millis', 'description', 'expires_at_millis', 'id', 'is_public', 'type', 'user_id', 'value']);
    expect(created).toMatchObject({ description: 'deploy', expires_at_millis: expiresAt, is_public: false, type: 'user', user_id: u.userId });
    expect(created.value).toMatch(USER_KEY);
    expect(created.created_at_millis).toBeGreaterThanOrEqual(before - 1000);

    const second = await createUserKey(p, u.accessToken, { description: 'public one', is_public: true });
    expect(second.value).toMatch(/^gh_uk_pub_[0-9a-z]{45}$/);
    expect(second.is_public).toBe(true);
    expect('expires_at_millis' in second).toBe(false);

    const list = await p.client.get('/user-api-keys?user_id=me', { accessToken: u.accessToken });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      is_paginated: false,
      items: [{ ...second, value: lastFour(second.value) }, { ...created, value: lastFour(created.value) }],
    });
    expect(list.text).not.toContain(created.value);

    const one = await p.client.get(`/user-api-keys/${created.id}`, { accessToken: u.accessToken });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...created, value: lastFour(created.value) });
    // The server sees the same objects, for any user.
    expect((await p.server.get(`/user-api-keys?user_id=${u.userId}`)).body.items.map((k: { id: string }) => k.id)).toEqual([second.id, created.id]);
    // Servers list one user's keys: user_id is required (the reference's 400).
    const all = await p.server.get('/user-api-keys');
    expectKnownError(all, 'SCHEMA_ERROR', 400);
    expect(all.body.error).toBe('user_id is required for user API keys');
  });

  test('check: valid, then revoked; one-way revoke keeps the first time', async () => {
    const p = await project();
    const u = await signUp(p);
    const k = await createUserKey(p, u.accessToken);
    const ok = await p.server.post('/user-api-keys/check', { api_key: k.value });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ...k, value: lastFour(k.value) });

    const revoked = await p.client.patch(`/user-api-keys/${k.id}?user_id=me`, { revoked: true, description: 'old' }, { accessToken: u.accessToken });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: k.id, description: 'old', value: lastFour(k.value) });
    const at = revoked.body.manually_revoked_at_millis;
    expect(typeof at).toBe('number');
    await Bun.sleep(20);
    const again = await p.client.patch(`/user-api-keys/${k.id}?user_id=me`, { revoked: true }, { accessToken: u.accessToken });
    expect(again.body.manually_revoked_at_millis).toBe(at);

    const check = await p.server.post('/user-api-keys/check', { api_key: k.value });
    expectKnownError(check, 'API_KEY_REVOKED', 401);
    expect(check.body.error).toBe('API key has been revoked.');
    // There is no un-revoke.
    const undo = await p.client.patch(`/user-api-keys/${k.id}`, { revoked: false }, { accessToken: u.accessToken });
    expectKnownError(undo, 'SCHEMA_ERROR', 400);
  });

  test('check: expired, not found, wrong type; revoked wins over expired', async () => {
    const p = await project();
    const u = await signUp(p);
    const expired = await createUserKey(p, u.accessToken, { expires_at_millis: Date.now() - 1000 });
    const exp = await p.server.post('/user-api-keys/check', { api_key: expired.value });
    expectKnownError(exp, 'API_KEY_EXPIRED', 401);
    expect(exp.body.error).toBe('API key has expired.');
    await p.server.patch(`/user-api-keys/${expired.id}`, { revoked: true });
    expectKnownError(await p.server.post('/user-api-keys/check', { api_key: expired.value }), 'API_KEY_REVOKED', 401);

    const nf = await p.server.post('/user-api-keys/check', { api_key: 'gh_uk_' + 'a'.repeat(45) });
    expectKnownError(nf, 'API_KEY_NOT_FOUND', 404);
    expect(nf.body.error).toBe('API key not found.');

    // A server can move the expiry: into the past, then away.
    const k = await createUserKey(p, u.accessToken);
    const moved = await p.server.patch(`/user-api-keys/${k.id}`, { expires_at_millis: Date.now() - 1 });
    expect(moved.status).toBe(200);
    expectKnownError(await p.server.post('/user-api-keys/check', { api_key: k.value }), 'API_KEY_EXPIRED', 401);
    const cleared = await p.server.patch(`/user-api-keys/${k.id}`, { expires_at_millis: null });
    expect('expires_at_millis' in cleared.body).toBe(false);
    expect((await p.server.post('/user-api-keys/check', { api_key: k.value })).status).toBe(200);
    // Clients cannot move the expiry.
    expectKnownError(await p.client.patch(`/user-api-keys/${k.id}`, { expires_at_millis: null }, { accessToken: u.accessToken }), 'SCHEMA_ERROR', 400);

    const team = await serverCreateTeam(p);
    const tk = await p.server.post('/team-api-keys', { description: 't', team_id: team.id });
    expect(tk.status).toBe(200);
    const wrong = await p.server.post('/user-api-keys/check', { api_key: tk.body.value });
    expectKnownError(wrong, 'WRONG_API_KEY_TYPE', 400);
    expect(wrong.body.details).toEqual({ expected_type: 'user', actual_type: 'team' });
    const wrong2 = await p.server.post('/team-api-keys/check', { api_key: k.value });
    expectKnownError(wrong2, 'WRONG_API_KEY_TYPE', 400);
    expect(wrong2.body.details).toEqual({ expected_type: 'team', actual_type: 'user' });
    expect((await p.admin.post('/team-api-keys/check', { api_key: tk.body.value })).body.team_id).toBe(team.id);
  });

  test('clients manage only their own keys; servers any user of the project', async () => {
    const p = await project();
    const a = await signUp(p);
    const b = await signUp(p);
    const ka = await createUserKey(p, a.accessToken);

    expectText(await p.client.post('/user-api-keys', { description: 'x', user_id: b.userId }, { accessToken: a.accessToken }), 403, 'Client can only manage their own api keys');
    expectText(await p.client.get(`/user-api-keys?user_id=${b.userId}`, { accessToken: a.accessToken }), 403, 'Client can only manage their own api keys');
    expectText(await p.client.get('/user-api-keys', { accessToken: a.accessToken }), 403, 'Client can only manage their own api keys');
    expectKnownError(await p.client.get(`/user-api-keys/${ka.id}`, { accessToken: b.accessToken }), 'API_KEY_NOT_FOUND', 404);
    expectKnownError(await p.client.patch(`/user-api-keys/${ka.id}`, { revoked: true }, { accessToken: b.accessToken }), 'API_KEY_NOT_FOUND', 404);
    expect((await p.client.get(`/user-api-keys/${ka.id}`, { accessToken: a.accessToken })).body.manually_revoked_at_millis).toBeUndefined();
    expectKnownError(await p.client.post('/user-api-keys', { description: 'x', user_id: 'me' }), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    expectKnownError(await p.client.post('/user-api-keys', { description: 'x', user_id: a.userId }), 'USER_AUTHENTICATION_REQUIRED', 401);
    expectKnownError(await p.client.post('/user-api-keys/check', { api_key: ka.value }, { accessToken: a.accessToken }), 'INSUFFICIENT_ACCESS_TYPE', 401);
    // A key id of the other kind is not found on this endpoint; a mismatching owner in the query neither.
    expectKnownError(await p.server.get(`/team-api-keys/${ka.id}`), 'API_KEY_NOT_FOUND', 404);
    expectKnownError(await p.server.get(`/user-api-keys/${ka.id}?user_id=${b.userId}`), 'API_KEY_NOT_FOUND', 404);
    expectKnownError(await p.server.get(`/user-api-keys/${crypto.randomUUID()}`), 'API_KEY_NOT_FOUND', 404);

    const kb = await p.server.post('/user-api-keys', { description: 'by server', user_id: b.userId, is_public: true });
    expect(kb.status).toBe(200);
    expect(kb.body.user_id).toBe(b.userId);
    expectKnownError(await p.server.post('/user-api-keys', { description: 'x', user_id: crypto.randomUUID() }), 'USER_NOT_FOUND', 404);
    expectKnownError(await p.server.post('/user-api-keys', { description: 'x', user_id: 'not-a-uuid' }), 'USER_NOT_FOUND', 404);
    expectKnownError(await p.server.post('/user-api-keys', { user_id: b.userId }), 'SCHEMA_ERROR', 400);
    expectKnownError(await p.server.post('/user-api-keys', { description: 'x', user_id: b.userId, extra: 1 }), 'SCHEMA_ERROR', 400);

    // Deleting a user deletes its keys.
    expect((await p.server.delete(`/users/${b.userId}`)).status).toBe(200);
    expectKnownError(await p.server.post('/user-api-keys/check', { api_key: kb.body.value }), 'API_KEY_NOT_FOUND', 404);
  });
});

describe('team API keys', () => {
  test('members need $manage_api_keys (creators have it through admin), others get API_KEY_NOT_FOUND; servers need an existing team', async () => {
    const p = await project();
    const { team, creator, member } = await teamWithCreatorAndMember(p);
    const outsider = await signUp(p);
    const body = { description: 'team ci', expires_at_millis: null, is_public: false, team_id: team.id };

    const created = await p.client.post('/team-api-keys', body, { accessToken: creator.accessToken });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body).sort()).toEqual(['created_at_millis', 'description', 'id', 'is_public', 'team_id', 'type', 'value']);
    expect(created.body).toMatchObject({ type: 'team', team_id: team.id, description: 'team ci', is_public: false });
    expect(created.body.value).toMatch(/^gh_tk_[0-9a-z]{45}$/);

    // Without $manage_api_keys, member or not, the answer is API_KEY_NOT_FOUND, which tells nothing of the team (issue 30
    // §5b: the reference's api-keys.test.ts "can manage API keys if and only if the respective team permission is
    // granted", and its handler, which answers every client lacking the permission so).
    for (const who of [member, outsider]) {
      const opts = { accessToken: who.accessToken };
      expectKnownError(await p.client.post('/team-api-keys', body, opts), 'API_KEY_NOT_FOUND', 404);
      expectKnownError(await p.client.get(`/team-api-keys?team_id=${team.id}`, opts), 'API_KEY_NOT_FOUND', 404);
      expectKnownError(await p.client.get(`/team-api-keys/${created.body.id}`, opts), 'API_KEY_NOT_FOUND', 404);
      expectKnownError(await p.client.patch(`/team-api-keys/${created.body.id}?team_id=${team.id}`, { revoked: true }, opts), 'API_KEY_NOT_FOUND', 404);
      expectKnownError(await p.client.patch(`/team-api-keys/${created.body.id}`, { revoked: true }, opts), 'API_KEY_NOT_FOUND', 404);
    }
    expect((await p.client.get(`/team-api-keys/${created.body.id}`, { accessToken: creator.accessToken })).body.manually_revoked_at_millis).toBeUndefined();
    expectKnownError(await p.client.post('/team-api-keys', body), 'USER_AUTHENTICATION_REQUIRED', 401);
    expectText(await p.client.get('/team-api-keys', { accessToken: creator.accessToken }), 403, 'Client can only manage their own api keys');

    // Granting the permission directly opens the endpoints to the member.
    expect((await p.server.post(`/team-permissions/${team.id}/${member.userId}/$manage_api_keys`, {})).status).toBe(201);
    const list = await p.client.get(`/team-api-keys?team_id=${team.id}`, { accessToken: member.accessToken });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ is_paginated: false, items: [{ ...created.body, value: lastFour(created.body.value) }] });
    const revoked = await p.client.patch(`/team-api-keys/${created.body.id}?team_id=${team.id}`, { revoked: true }, { accessToken: member.accessToken });
    expect(revoked.status).toBe(200);
    expect(typeof revoked.body.manually_revoked_at_millis).toBe('number');
    expectKnownError(await p.server.post('/team-api-keys/check', { api_key: created.body.value }), 'API_KEY_REVOKED', 401);

    expectKnownError(await p.server.post('/team-api-keys', { ...body, team_id: crypto.randomUUID() }), 'TEAM_NOT_FOUND', 404);
    const other = await serverCreateTeam(p);
    await addMember(p, other.id, creator.userId);
    const srv = await p.server.post('/team-api-keys', { description: 'srv', team_id: other.id });
    expect(srv.status).toBe(200);
    // A key of another team is not found under this team's id.
    expectKnownError(await p.server.get(`/team-api-keys/${srv.body.id}?team_id=${team.id}`), 'API_KEY_NOT_FOUND', 404);
    expect((await p.server.get('/team-api-keys')).body.items.length).toBe(2);
    expect((await p.server.delete(`/teams/${other.id}`)).status).toBe(200);
    expectKnownError(await p.server.post('/team-api-keys/check', { api_key: srv.body.value }), 'API_KEY_NOT_FOUND', 404);
  });
});

describe('project switches and isolation', () => {
  test('both kinds answer 400 text while the switch is off (default), and again after switching off', async () => {
    const p = await project({});
    const u = await signUp(p);
    const team = await serverCreateTeam(p);
    const userOff = 'User API keys are not enabled for this project.';
    const teamOff = 'Team API keys are not enabled for this project.';
    expectText(await p.client.post('/user-api-keys', { description: 'x', user_id: 'me' }, { accessToken: u.accessToken }), 400, userOff);
    expectText(await p.client.get('/user-api-keys?user_id=me', { accessToken: u.accessToken }), 400, userOff);
    expectText(await p.server.post('/user-api-keys/check', { api_key: 'x' }), 400, userOff);
    expectText(await p.server.get(`/user-api-keys/${crypto.randomUUID()}`), 400, userOff);
    expectText(await p.server.post('/team-api-keys', { description: 'x', team_id: team.id }), 400, teamOff);
    expectText(await p.server.post('/team-api-keys/check', { api_key: 'x' }), 400, teamOff);

    // One switch does not open the other kind.
    expect((await p.admin.patch('/projects/current', { config: { allow_user_api_keys: true } })).status).toBe(200);
    const k = await createUserKey(p, u.accessToken);
    expectText(await p.server.post('/team-api-keys', { description: 'x', team_id: team.id }), 400, teamOff);
    expect((await p.admin.patch('/projects/current', { config: { allow_user_api_keys: false } })).status).toBe(200);
    expectText(await p.server.post('/user-api-keys/check', { api_key: k.value }), 400, userOff);
  });

  test("one project's keys are invisible to another project", async () => {
    const p1 = await project();
    const p2 = await project();
    const u1 = await signUp(p1);
    const k = await createUserKey(p1, u1.accessToken);
    expectKnownError(await p2.server.post('/user-api-keys/check', { api_key: k.value }), 'API_KEY_NOT_FOUND', 404);
    expectKnownError(await p2.server.get(`/user-api-keys/${k.id}`), 'API_KEY_NOT_FOUND', 404);
    expectKnownError(await p2.server.patch(`/user-api-keys/${k.id}`, { revoked: true }), 'API_KEY_NOT_FOUND', 404);
    expectKnownError(await p2.server.post('/user-api-keys', { description: 'x', user_id: u1.userId }), 'USER_NOT_FOUND', 404);
    expectKnownError(await p2.server.get(`/user-api-keys?user_id=${u1.userId}`), 'USER_NOT_FOUND', 404);
    const team = await serverCreateTeam(p1);
    expectKnownError(await p2.server.post('/team-api-keys', { description: 'x', team_id: team.id }), 'TEAM_NOT_FOUND', 404);
    expect((await p1.server.post('/user-api-keys/check', { api_key: k.value })).status).toBe(200);
  });
});
