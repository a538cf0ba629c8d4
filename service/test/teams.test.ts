// /teams over HTTP: shapes per access type, create rules (creator, add_current_user, client switches), client
// permission checks, personal teams, the access-type matrix and isolation between projects.
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Api, expectKnownError, sharedService } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { addMember, serverCreateTeam, teamWithCreatorAndMember } from './support/teams';

// The first test waits for the shared service to start, which can take a while on a loaded machine.
setDefaultTimeout(60_000);

const CLIENT_KEYS = ['client_metadata', 'client_read_only_metadata', 'display_name', 'id', 'profile_image_url'];
const SERVER_KEYS = [...CLIENT_KEYS, 'created_at_millis', 'server_metadata'].sort();
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const keys = (o: object) => Object.keys(o).sort();

async function project(config: Record<string, unknown> = {}) {
  return newProject(await sharedService(), { config });
}

async function directPermissions(p: TestProject, teamId: string, userId: string) {
  const res = await p.server.get(`/team-permissions?team_id=${teamId}&user_id=${userId}`);
  expect(res.status).toBe(200);
  return (res.body.items as { id: string }[]).map((i) => i.id);
}

describe('server and admin', () => {
  test('create without creator: 201 server shape, no members; get, list, patch, delete', async () => {
    const p = await project();
    const created = await p.server.post('/teams', { display_name: 'Alpha', server_metadata: { s: 1 }, client_read_only_metadata: { r: 2 }, client_metadata: { c: 3 } });
    expect(created.status).toBe(201);
    expect(keys(created.body)).toEqual(SERVER_KEYS);
    expect(created.body).toMatchObject({ display_name: 'Alpha', profile_image_url: null, server_metadata: { s: 1 }, client_read_only_metadata: { r: 2 }, client_metadata: { c: 3 } });
    expect(typeof created.body.created_at_millis).toBe('number');
    const id = created.body.id;

    const members = await p.server.get(`/users?team_id=${id}`);
    expect(members.body.items).toEqual([]);

    const got = await p.admin.get(`/teams/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);

    const second = await serverCreateTeam(p, { display_name: 'Beta' });
    const list = await p.server.get('/teams');
    expect(list.status).toBe(200);
    expect(list.body.is_paginated).toBe(false);
    expect(list.body.items.map((t: { id: string }) => t.id)).toEqual([id, second.id]);

    const patched = await p.server.patch(`/teams/${id}`, { display_name: '', server_metadata: null, profile_image_url: 'https://example.com/a.png' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, display_name: '', server_metadata: null, profile_image_url: 'https://example.com/a.png', client_metadata: { c: 3 } });

    const deleted = await p.server.delete(`/teams/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    expectKnownError(await p.server.get(`/teams/${id}`), 'TEAM_NOT_FOUND', 404);
    expectKnownError(await p.server.patch(`/teams/${id}`, { display_name: 'x' }), 'TEAM_NOT_FOUND', 404);
    expectKnownError(await p.server.delete(`/teams/${id}`), 'TEAM_NOT_FOUND', 404);
    const missing = await p.server.get(`/teams/${id}`);
    expect(missing.body).toMatchObject({ error: `Team ${id} not found.`, details: { team_id: id } });
  });

  test('creator_user_id: member with the creator defaults; listed for the user', async () => {
    const p = await project();
    const u = await signUp(p);
    const team = await serverCreateTeam(p, { display_name: 'Mine', creator_user_id: u.userId });
    expect(await directPermissions(p, team.id, u.userId)).toEqual(['admin']);
    await serverCreateTeam(p, { display_name: 'Not mine' });
    const list = await p.server.get(`/teams?user_id=${u.userId}`);
    expect(list.body.items.map((t: { id: string }) => t.id)).toEqual([team.id]);
    // The creator's team is not made the selected team.
    const user = await p.server.get(`/users/${u.userId}`);
    expect(user.body.selected_team_id).toBeNull();
  });

  test('creator errors and the deprecated add_current_user', async () => {
    const p = await project();
    const u = await signUp(p);
    expectKnownError(await p.server.post('/teams', { display_name: 'x', creator_user_id: crypto.randomUUID() }), 'USER_NOT_FOUND', 404);
    expectKnownError(await p.server.post('/teams', { display_name: 'x', creator_user_id: 'me' }), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    const both = await p.server.post('/teams?add_current_user=true', { display_name: 'x', creator_user_id: u.userId });
    expect(both.status).toBe(400);
    expect(both.text).toBe('Cannot use both creator_user_id and add_current_user. add_current_user is deprecated, please only use creator_user_id in the body.');
    const noUser = await p.server.post('/teams?add_current_user=true', { display_name: 'x' });
    expect(noUser.status).toBe(401);
    expect(noUser.text).toBe('You must be logged in to create a team with the current user as a member.');
    const withUser = await p.server.post('/teams?add_current_user=true', { display_name: 'x' }, { accessToken: u.accessToken });
    expect(withUser.status).toBe(201);
    expect(await directPermissions(p, withUser.body.id, u.userId)).toEqual(['admin']);
    const me = await p.server.post('/teams', { display_name: 'y', creator_user_id: 'me' }, { accessToken: u.accessToken });
    expect(me.status).toBe(201);
    expect(await directPermissions(p, me.body.id, u.userId)).toEqual(['admin']);
    expectKnownError(await p.server.post('/teams?add_current_user=yes', { display_name: 'x' }), 'SCHEMA_ERROR', 400);
    expectKnownError(await p.server.post('/teams', {}), 'SCHEMA_ERROR', 400);
    expectKnownError(await p.server.post('/teams', { display_name: 'x', creator_user_id: 'not-a-user' }), 'USER_NOT_FOUND', 404);
  });

  test('server GET /teams?user_id= of an unknown user is USER_NOT_FOUND; bad ids are SCHEMA_ERROR', async () => {
    const p = await project();
    expectKnownError(await p.server.get(`/teams?user_id=${crypto.randomUUID()}`), 'USER_NOT_FOUND', 404);
    const bad = await p.server.get('/teams/not-a-uuid');
    expectKnownError(bad, 'SCHEMA_ERROR', 400);
    expect(bad.body.error).toContain('params.team_id must be a valid UUID');
  });
});

describe('client', () => {
  test('create: user required, switch, base64 image, creator must be self', async () => {
    const off = await project();
    const u0 = await signUp(off);
    expectKnownError(await off.client.post('/teams', { display_name: 'x' }), 'USER_AUTHENTICATION_REQUIRED', 401);
    const disabled = await off.client.post('/teams', { display_name: 'x' }, { accessToken: u0.accessToken });
    expect(disabled.status).toBe(403);
    expect(disabled.text).toBe('Client team creation is disabled for this project');

    const p = await project({ client_team_creation_enabled: true });
    const u = await signUp(p);
    const other = await signUp(p);
    const url = await p.client.post('/teams', { display_name: 'x', profile_image_url: 'https://example.com/a.png' }, { accessToken: u.accessToken });
    expect(url.status).toBe(400);
    expect(url.text).toBe('Invalid profile image URL');
    const notSelf = await p.client.post('/teams', { display_name: 'x', creator_user_id: other.userId }, { accessToken: u.accessToken });
    expect(notSelf.status).toBe(403);
    expect(notSelf.text).toBe("You cannot create a team as a user that is not yourself. Make sure you set the creator_user_id to 'me'.");
    expectKnownError(await p.client.post('/teams', { display_name: 'x', server_metadata: {} }, { accessToken: u.accessToken }), 'SCHEMA_ERROR', 400);

    const created = await p.client.post('/teams', { display_name: 'Mine', profile_image_url: PNG }, { accessToken: u.accessToken });
    expect(created.status).toBe(201);
    expect(keys(created.body)).toEqual(CLIENT_KEYS);
    expect(created.body.profile_image_url).toBe(PNG);
    expect(await directPermissions(p, created.body.id, u.userId)).toEqual(['admin']);
    const viaMe = await p.client.post('/teams', { display_name: 'Me', creator_user_id: 'me' }, { accessToken: u.accessToken });
    expect(viaMe.status).toBe(201);
    const viaId = await p.client.post('/teams', { display_name: 'Id', creator_user_id: u.userId }, { accessToken: u.accessToken });
    expect(viaId.status).toBe(201);
  });

  test('list only for self', async () => {
    const p = await project();
    const u = await signUp(p);
    const other = await signUp(p);
    const team = await serverCreateTeam(p, { creator_user_id: u.userId });
    await serverCreateTeam(p, { creator_user_id: other.userId });
    const text = 'Client can only list teams for their own user. user_id must be either "me" or the ID of the current user';
    for (const path of ['/teams', `/teams?user_id=${other.userId}`]) {
      const res = await p.client.get(path, { accessToken: u.accessToken });
      expect(res.status).toBe(403);
      expect(res.text).toBe(text);
    }
    expectKnownError(await p.client.get('/teams?user_id=me'), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    for (const path of ['/teams?user_id=me', `/teams?user_id=${u.userId}`]) {
      const res = await p.client.get(path, { accessToken: u.accessToken });
      expect(res.status).toBe(200);
      expect(res.body.items.map((t: object) => keys(t))).toEqual([CLIENT_KEYS]);
      expect(res.body.items[0].id).toBe(team.id);
    }
  });

  test('get needs membership; patch needs $update_team; delete needs $delete_team', async () => {
    const p = await project();
    const { team, creator, member } = await teamWithCreatorAndMember(p);
    const outsider = await signUp(p);
    expectKnownError(await p.client.get(`/teams/${team.id}`), 'USER_AUTHENTICATION_REQUIRED', 401);
    expectKnownError(await p.client.get(`/teams/${team.id}`, { accessToken: outsider.accessToken }), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    expectKnownError(await p.client.get(`/teams/${crypto.randomUUID()}`, { accessToken: outsider.accessToken }), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    const got = await p.client.get(`/teams/${team.id}`, { accessToken: member.accessToken });
    expect(got.status).toBe(200);
    expect(keys(got.body)).toEqual(CLIENT_KEYS);

    expectKnownError(await p.client.patch(`/teams/${team.id}`, { display_name: 'x' }, { accessToken: outsider.accessToken }), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    const denied = await p.client.patch(`/teams/${team.id}`, { display_name: 'x' }, { accessToken: member.accessToken });
    expectKnownError(denied, 'TEAM_PERMISSION_REQUIRED', 401);
    expect(denied.body.details).toEqual({ team_id: team.id, user_id: member.userId, permission_id: '$update_team' });
    expect(denied.body.error).toBe(`User ${member.userId} does not have permission $update_team in team ${team.id}.`);
    expectKnownError(await p.client.patch(`/teams/${team.id}`, { server_metadata: 1 }, { accessToken: creator.accessToken }), 'SCHEMA_ERROR', 400);
    const badImage = await p.client.patch(`/teams/${team.id}`, { profile_image_url: 'https://example.com/x.png' }, { accessToken: creator.accessToken });
    expect(badImage.status).toBe(400);
    expect(badImage.text).toBe('Invalid profile image URL');
    const patched = await p.client.patch(`/teams/${team.id}`, { display_name: '', client_metadata: { a: 1 } }, { accessToken: creator.accessToken });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ display_name: '', client_metadata: { a: 1 } });

    expectKnownError(await p.client.delete(`/teams/${team.id}`, { accessToken: member.accessToken }), 'TEAM_PERMISSION_REQUIRED', 401);
    const deleted = await p.client.delete(`/teams/${team.id}`, { accessToken: creator.accessToken });
    expect(deleted.body).toEqual({ success: true });
    expectKnownError(await p.client.get(`/teams/${team.id}`, { accessToken: creator.accessToken }), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    // Memberships and grants went with the team.
    expect((await p.server.get(`/team-permissions?user_id=${member.userId}`)).body.items).toEqual([]);
  });

  test('a member granted $update_team through a custom definition may patch', async () => {
    const p = await project();
    const { team, member } = await teamWithCreatorAndMember(p);
    expect((await p.admin.post('/team-permission-definitions', { id: 'editor', contained_permission_ids: ['$update_team'] })).status).toBe(201);
    expect((await p.server.post(`/team-permissions/${team.id}/${member.userId}/editor`, {})).status).toBe(201);
    const res = await p.client.patch(`/teams/${team.id}`, { display_name: 'Renamed' }, { accessToken: member.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.display_name).toBe('Renamed');
  });
});

describe('project switches', () => {
  test('create_team_on_sign_up makes a selected personal team with creator permissions', async () => {
    const p = await project({ create_team_on_sign_up: true });
    const u = await signUp(p);
    const me = await p.client.get('/users/me', { accessToken: u.accessToken });
    expect(me.body.selected_team).toMatchObject({ display_name: `${u.email}'s Team` });
    expect(keys(me.body.selected_team)).toEqual(CLIENT_KEYS);
    const teamId = me.body.selected_team_id;
    expect(await directPermissions(p, teamId, u.userId)).toEqual(['admin']);
    const list = await p.client.get('/teams?user_id=me', { accessToken: u.accessToken });
    expect(list.body.items.map((t: { id: string }) => t.id)).toEqual([teamId]);
    const named = await p.server.post('/users', { display_name: 'Ada' });
    const adaTeams = await p.server.get(`/teams?user_id=${named.body.id}`);
    expect(adaTeams.body.items.map((t: { display_name: string }) => t.display_name)).toEqual(["Ada's Team"]);
  });

  test('personal team name: "<display name>\'s Team", else "<primary email>\'s Team", else "Personal Team"', async () => {
    const p = await project({ create_team_on_sign_up: true });
    const email = () => `team-name-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const personalTeamOf = async (body: Record<string, unknown>) => {
      const created = await p.server.post('/users', body);
      expect(created.status).toBe(201);
      const teams = (await p.server.get(`/teams?user_id=${created.body.id}`)).body.items as { id: string; display_name: string }[];
      expect(teams).toHaveLength(1);
      const user = await p.server.get(`/users/${created.body.id}`);
      expect(user.body.selected_team_id).toBe(teams[0].id);
      return teams[0].display_name;
    };
    expect(await personalTeamOf({})).toBe('Personal Team');
    expect(await personalTeamOf({ display_name: null })).toBe('Personal Team');
    const e1 = email();
    expect(await personalTeamOf({ primary_email: e1 })).toBe(`${e1}'s Team`);
    const e2 = email();
    expect(await personalTeamOf({ display_name: 'Bo', primary_email: e2 })).toBe("Bo's Team");
    // An empty display name counts as none (the rule tests for a non-empty name, as the reference does).
    const e3 = email();
    expect(await personalTeamOf({ display_name: '', primary_email: e3 })).toBe(`${e3}'s Team`);
    expect(await personalTeamOf({ display_name: '' })).toBe('Personal Team');
  });
});

describe('access types and isolation', () => {
  test('admin key and owner admin token work; a non-owner admin token does not; no access type is refused', async () => {
    const svc = await sharedService();
    const p = await newProject(svc);
    const other = await newProject(svc);
    const team = await serverCreateTeam(p);
    for (const api of [p.admin, p.ownerAdmin]) {
      const res = await api.get(`/teams/${team.id}`);
      expect(res.status).toBe(200);
      expect(keys(res.body)).toEqual(SERVER_KEYS);
    }
    const foreignOwner = new Api(svc.url, { 'x-stack-project-id': p.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': other.ownerAccessToken });
    expectKnownError(await foreignOwner.get(`/teams/${team.id}`), 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401);
    expectKnownError(await new Api(svc.url).get('/teams'), 'ACCESS_TYPE_REQUIRED', 400);
  });

  test("another project's team is not found through this project's keys", async () => {
    const svc = await sharedService();
    const a = await newProject(svc);
    const b = await newProject(svc, { config: { client_team_creation_enabled: true } });
    const ua = await signUp(a);
    const ub = await signUp(b);
    const teamB = await serverCreateTeam(b, { creator_user_id: ub.userId });
    expectKnownError(await a.server.get(`/teams/${teamB.id}`), 'TEAM_NOT_FOUND', 404);
    expectKnownError(await a.server.patch(`/teams/${teamB.id}`, { display_name: 'x' }), 'TEAM_NOT_FOUND', 404);
    expectKnownError(await a.server.delete(`/teams/${teamB.id}`), 'TEAM_NOT_FOUND', 404);
    expectKnownError(await a.client.get(`/teams/${teamB.id}`, { accessToken: ua.accessToken }), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    expect((await a.server.get('/teams')).body.items).toEqual([]);
    // B's user is not A's user either.
    expectKnownError(await a.server.post('/teams', { display_name: 'x', creator_user_id: ub.userId }), 'USER_NOT_FOUND', 404);
    expectKnownError(await a.server.post(`/team-memberships/${teamB.id}/${ua.userId}`, {}), 'TEAM_NOT_FOUND', 404);
    // B's access token does not work with A's keys.
    expectKnownError(await a.client.get('/teams?user_id=me', { accessToken: ub.accessToken }), 'INVALID_PROJECT_FOR_ACCESS_TOKEN', 401);
    expect((await b.server.get(`/teams/${teamB.id}`)).status).toBe(200);
    await addMember(b, teamB.id, (await signUp(b)).userId);
  });
});
