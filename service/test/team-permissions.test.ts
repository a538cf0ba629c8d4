// Team permission definitions and grants over HTTP: system and default definitions, create/patch/rename/delete
// with their errors, containment cycles, grants through nested definitions (recursive listing, checks by the
// client endpoints, revoking only direct grants), access types and isolation.
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Api, expectKnownError, sharedService } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { addMember, serverCreateTeam, teamWithCreatorAndMember } from './support/teams';

setDefaultTimeout(60_000);

const SYSTEM = ['$delete_team', '$invite_members', '$manage_api_keys', '$read_members', '$remove_members', '$update_team'];
const project = async () => newProject(await sharedService());

async function define(p: TestProject, id: string, contained: string[] = [], description?: string) {
  const res = await p.admin.post('/team-permission-definitions', { id, contained_permission_ids: contained, ...(description ? { description } : {}) });
  expect(res.status).toBe(201);
  return res.body;
}

async function permissionIds(p: TestProject, teamId: string, userId: string, recursive?: boolean) {
  const q = recursive === undefined ? '' : `&recursive=${recursive}`;
  const res = await p.server.get(`/team-permissions?team_id=${teamId}&user_id=${userId}${q}`);
  expect(res.status).toBe(200);
  return (res.body.items as { id: string }[]).map((i) => i.id);
}

describe('definitions', () => {
  test('a new project lists the six system permissions and the admin/member defaults, sorted by id', async () => {
    const p = await project();
    const res = await p.admin.get('/team-permission-definitions');
    expect(res.status).toBe(200);
    expect(res.body.is_paginated).toBe(false);
    expect(res.body.items.map((d: { id: string }) => d.id)).toEqual([...SYSTEM, 'admin', 'member']);
    const byId = Object.fromEntries(res.body.items.map((d: { id: string }) => [d.id, d]));
    expect(byId.admin).toEqual({ id: 'admin', description: 'Default permission for team creators', contained_permission_ids: SYSTEM });
    expect(byId.member).toEqual({ id: 'member', description: 'Default permission for team members', contained_permission_ids: ['$invite_members', '$read_members'] });
    expect(byId.$update_team).toEqual({ id: '$update_team', description: 'Update the team information', contained_permission_ids: [] });
    expect(byId.$manage_api_keys.description).toBe('Create and manage API keys for the team');
  });

  test('create: shapes and errors', async () => {
    const p = await project();
    const plain = await p.admin.post('/team-permission-definitions', { id: 'viewer' });
    expect(plain.status).toBe(201);
    expect(plain.body).toEqual({ id: 'viewer', contained_permission_ids: [] });
    const full = await define(p, 'org:editor', ['viewer', '$update_team', '$read_members', 'viewer'], 'Edits things');
    expect(full).toEqual({ id: 'org:editor', description: 'Edits things', contained_permission_ids: ['$read_members', '$update_team', 'viewer'] });

    const dup = await p.admin.post('/team-permission-definitions', { id: 'viewer' });
    expectKnownError(dup, 'PERMISSION_ID_ALREADY_EXISTS', 400);
    expect(dup.body).toMatchObject({ error: 'Permission with ID "viewer" already exists. Choose a different ID.', details: { permission_id: 'viewer' } });
    expect((await p.admin.post('/project-permission-definitions', { id: 'proj_only' })).status).toBe(201);
    expectKnownError(await p.admin.post('/team-permission-definitions', { id: 'proj_only' }), 'PERMISSION_ID_ALREADY_EXISTS', 400);

    const missing = await p.admin.post('/team-permission-definitions', { id: 'x', contained_permission_ids: ['nope'] });
    expectKnownError(missing, 'CONTAINED_PERMISSION_NOT_FOUND', 400);
    expect(missing.body).toMatchObject({ error: 'Contained permission with ID "nope" not found. Make sure you created it on the dashboard.', details: { permission_id: 'nope' } });
    expectKnownError(await p.admin.post('/team-permission-definitions', { id: 'x', contained_permission_ids: ['proj_only'] }), 'CONTAINED_PERMISSION_NOT_FOUND', 400);

    const badId = await p.admin.post('/team-permission-definitions', { id: 'Bad-Id' });
    expectKnownError(badId, 'SCHEMA_ERROR', 400);
    expect(badId.body.error).toContain('Only lowercase letters, numbers, ":", "_" are allowed');
    expectKnownError(await p.admin.post('/team-permission-definitions', { id: '$update_team' }), 'SCHEMA_ERROR', 400);
    const badSystem = await p.admin.post('/team-permission-definitions', { id: 'y', contained_permission_ids: ['$nope'] });
    expectKnownError(badSystem, 'SCHEMA_ERROR', 400);
    expect(badSystem.body.error).toContain('Invalid system permission');
    expectKnownError(await p.admin.post('/team-permission-definitions', { id: 'y', extra: 1 }), 'SCHEMA_ERROR', 400);
    // Nothing of the failed attempts was written.
    const ids = (await p.admin.get('/team-permission-definitions')).body.items.map((d: { id: string }) => d.id);
    expect(ids).toEqual([...SYSTEM, 'admin', 'member', 'org:editor', 'viewer']);
  });

  test('cycles are rejected with a SCHEMA_ERROR naming the cycle', async () => {
    const p = await project();
    await define(p, 'c', ['$read_members']);
    await define(p, 'b', ['c']);
    await define(p, 'a', ['b']);
    const closing = await p.admin.patch('/team-permission-definitions/c', { contained_permission_ids: ['a'] });
    expectKnownError(closing, 'SCHEMA_ERROR', 400);
    expect(closing.body.error).toContain('body.contained_permission_ids would create a permission containment cycle: c -> a -> b -> c');
    const self = await p.admin.patch('/team-permission-definitions/a', { contained_permission_ids: ['a'] });
    expectKnownError(self, 'SCHEMA_ERROR', 400);
    expect(self.body.error).toContain('cycle: a -> a');
    expectKnownError(await p.admin.post('/team-permission-definitions', { id: 'd', contained_permission_ids: ['d'] }), 'SCHEMA_ERROR', 400);
    // Renaming `b` to `z` while making it contain `a` (which contains b, now z) is a cycle too.
    const renamed = await p.admin.patch('/team-permission-definitions/b', { id: 'z', contained_permission_ids: ['c', 'a'] });
    expectKnownError(renamed, 'SCHEMA_ERROR', 400);
    expect(renamed.body.error).toContain('z -> a -> z');
    // Unchanged after the rejections.
    const defs = (await p.admin.get('/team-permission-definitions')).body.items;
    expect(defs.find((d: { id: string }) => d.id === 'c').contained_permission_ids).toEqual(['$read_members']);
    expect(defs.find((d: { id: string }) => d.id === 'b').contained_permission_ids).toEqual(['c']);
    // A diamond is not a cycle.
    await define(p, 'left', ['c']);
    await define(p, 'right', ['c']);
    expect((await p.admin.patch('/team-permission-definitions/a', { contained_permission_ids: ['left', 'right', 'b'] })).status).toBe(200);
  });

  test('concurrent changes cannot form a cycle together; grants racing a delete never fail', async () => {
    const p = await project();
    await define(p, 'x');
    await define(p, 'y');
    const [xy, yx] = await Promise.all([
      p.admin.patch('/team-permission-definitions/x', { contained_permission_ids: ['y'] }),
      p.admin.patch('/team-permission-definitions/y', { contained_permission_ids: ['x'] }),
    ]);
    expect([xy.status, yx.status].sort()).toEqual([200, 400]);
    for (const r of [xy, yx]) if (r.status === 400) expectKnownError(r, 'SCHEMA_ERROR', 400);

    const { team, member } = await teamWithCreatorAndMember(p);
    await define(p, 'racy', ['$read_members']);
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => p.server.post(`/team-permissions/${team.id}/${member.userId}/racy`, {})),
      p.admin.delete('/team-permission-definitions/racy'),
      ...Array.from({ length: 5 }, () => p.server.post(`/team-permissions/${team.id}/${member.userId}/racy`, {})),
    ]);
    for (const r of results) expect([200, 201, 404]).toContain(r.status);
    // Whatever the order, no grant outlives its definition.
    expect(await permissionIds(p, team.id, member.userId)).toEqual(['member']);
  });

  test('patch: description, contained, rename carried into lists, grants and defaults; errors', async () => {
    const p = await project();
    const { team, member } = await teamWithCreatorAndMember(p);
    await define(p, 'inner', ['$read_members']);
    await define(p, 'outer', ['inner'], 'Outer');
    await p.server.post(`/team-permissions/${team.id}/${member.userId}/inner`, {});

    const desc = await p.admin.patch('/team-permission-definitions/outer', { description: '' });
    expect(desc.body).toEqual({ id: 'outer', contained_permission_ids: ['inner'] });
    const renamed = await p.admin.patch('/team-permission-definitions/inner', { id: 'core', description: 'Core' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ id: 'core', description: 'Core', contained_permission_ids: ['$read_members'] });
    const defs = (await p.admin.get('/team-permission-definitions')).body.items;
    expect(defs.find((d: { id: string }) => d.id === 'outer').contained_permission_ids).toEqual(['core']);
    expect(await permissionIds(p, team.id, member.userId)).toEqual(['core', 'member']);

    // Renaming a default permission keeps it the default.
    await p.admin.patch('/team-permission-definitions/member', { id: 'crew' });
    const newcomer = await signUp(p);
    await addMember(p, team.id, newcomer.userId);
    expect(await permissionIds(p, team.id, newcomer.userId)).toEqual(['crew']);
    expect((await p.admin.get('/projects/current')).body.config.team_member_default_permissions).toEqual([{ id: 'crew' }]);

    const clash = await p.admin.patch('/team-permission-definitions/core', { id: 'outer' });
    expectKnownError(clash, 'PERMISSION_ID_ALREADY_EXISTS', 400);
    expect(clash.body.details).toEqual({ permission_id: 'outer' });
    expectKnownError(await p.admin.patch('/team-permission-definitions/nothing', { description: 'x' }), 'PERMISSION_NOT_FOUND', 404);
    expectKnownError(await p.admin.patch('/team-permission-definitions/$update_team', { description: 'x' }), 'PERMISSION_NOT_FOUND', 404);
    expectKnownError(await p.admin.patch('/team-permission-definitions/core', { contained_permission_ids: ['ghost'] }), 'CONTAINED_PERMISSION_NOT_FOUND', 400);
    expectKnownError(await p.admin.patch('/team-permission-definitions/core', { id: 'Bad' }), 'SCHEMA_ERROR', 400);
    expectKnownError(await p.admin.patch('/team-permission-definitions/Bad', {}), 'SCHEMA_ERROR', 400);
  });

  test('delete: removed from contained lists, grants and default lists', async () => {
    const p = await project();
    const { team, creator, member } = await teamWithCreatorAndMember(p);
    await define(p, 'leaf', ['$read_members']);
    await define(p, 'branch', ['leaf', '$update_team']);
    await p.server.post(`/team-permissions/${team.id}/${member.userId}/leaf`, {});

    const res = await p.admin.delete('/team-permission-definitions/leaf');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const defs = (await p.admin.get('/team-permission-definitions')).body.items;
    expect(defs.find((d: { id: string }) => d.id === 'branch').contained_permission_ids).toEqual(['$update_team']);
    expect(await permissionIds(p, team.id, member.userId)).toEqual(['member']);
    const notFound = await p.admin.delete('/team-permission-definitions/leaf');
    expectKnownError(notFound, 'PERMISSION_NOT_FOUND', 404);
    expect(notFound.body.error).toBe('Permission "leaf" not found. Make sure you created it on the dashboard.');

    // Deleting the member default: existing members lose it, new members get nothing.
    expect((await p.admin.delete('/team-permission-definitions/member')).status).toBe(200);
    expect(await permissionIds(p, team.id, member.userId)).toEqual([]);
    expect(await permissionIds(p, team.id, creator.userId)).toEqual(['admin']);
    const newcomer = await signUp(p);
    await addMember(p, team.id, newcomer.userId);
    expect(await permissionIds(p, team.id, newcomer.userId)).toEqual([]);
    // A project definition is not deleted through the team endpoint.
    await p.admin.post('/project-permission-definitions', { id: 'proj' });
    expectKnownError(await p.admin.delete('/team-permission-definitions/proj'), 'PERMISSION_NOT_FOUND', 404);
    expect((await p.admin.get('/project-permission-definitions')).body.items.map((d: { id: string }) => d.id)).toEqual(['proj']);
  });
});

describe('grants', () => {
  test('nested definitions: a contains b contains $read_members; recursive listing, checks, revoke only direct', async () => {
    const p = await project();
    const { team, creator, member } = await teamWithCreatorAndMember(p);
    await define(p, 'b', ['$read_members']);
    await define(p, 'a', ['b']);
    await p.server.delete(`/team-permissions/${team.id}/${member.userId}/member`);
    expectKnownError(await p.client.get(`/team-member-profiles?team_id=${team.id}`, { accessToken: member.accessToken }), 'TEAM_PERMISSION_REQUIRED', 401);

    const granted = await p.server.post(`/team-permissions/${team.id}/${member.userId}/a`, {});
    expect(granted.status).toBe(201);
    expect(granted.body).toEqual({ id: 'a', team_id: team.id, user_id: member.userId });
    expect((await p.server.post(`/team-permissions/${team.id}/${member.userId}/a`)).status).toBe(201);

    expect(await permissionIds(p, team.id, member.userId)).toEqual(['a']);
    expect(await permissionIds(p, team.id, member.userId, false)).toEqual(['a']);
    expect(await permissionIds(p, team.id, member.userId, true)).toEqual(['$read_members', 'a', 'b']);
    const filtered = await p.server.get(`/team-permissions?team_id=${team.id}&user_id=${member.userId}&recursive=true&permission_id=$read_members`);
    expect(filtered.body.items).toEqual([{ id: '$read_members', team_id: team.id, user_id: member.userId }]);
    const filteredDirect = await p.server.get(`/team-permissions?team_id=${team.id}&user_id=${member.userId}&permission_id=$read_members`);
    expect(filteredDirect.body.items).toEqual([]);

    // The client check follows containment.
    const profiles = await p.client.get(`/team-member-profiles?team_id=${team.id}`, { accessToken: member.accessToken });
    expect(profiles.status).toBe(200);
    expect(profiles.body.items).toHaveLength(2);
    const mine = await p.client.get(`/team-permissions?team_id=${team.id}&user_id=me&recursive=true`, { accessToken: member.accessToken });
    expect(mine.body.items.map((i: { id: string }) => i.id)).toEqual(['$read_members', 'a', 'b']);

    const indirect = await p.server.delete(`/team-permissions/${team.id}/${member.userId}/b`);
    expectKnownError(indirect, 'TEAM_PERMISSION_NOT_FOUND', 401);
    expect(indirect.body).toMatchObject({ error: `User ${member.userId} does not have permission b in team ${team.id}.`, details: { team_id: team.id, user_id: member.userId, permission_id: 'b' } });
    const revoked = await p.server.delete(`/team-permissions/${team.id}/${member.userId}/a`);
    expect(revoked.body).toEqual({ success: true });
    expect(await permissionIds(p, team.id, member.userId, true)).toEqual([]);
    expectKnownError(await p.server.delete(`/team-permissions/${team.id}/${member.userId}/a`), 'TEAM_PERMISSION_NOT_FOUND', 401);

    // The creator's `admin` expands to all six system permissions.
    expect(await permissionIds(p, team.id, creator.userId, true)).toEqual([...SYSTEM, 'admin']);
  });

  test('grant and revoke errors; system permissions by path; list rules', async () => {
    const p = await project();
    const { team, member } = await teamWithCreatorAndMember(p);
    const outsider = await signUp(p);
    await p.admin.post('/project-permission-definitions', { id: 'proj' });
    const base = `/team-permissions/${team.id}`;
    expectKnownError(await p.server.post(`${base}/${crypto.randomUUID()}/member`, {}), 'USER_NOT_FOUND', 404);
    expectKnownError(await p.server.post(`${base}/${outsider.userId}/member`, {}), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    expectKnownError(await p.server.post(`/team-permissions/${crypto.randomUUID()}/${member.userId}/member`, {}), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    const unknown = await p.server.post(`${base}/${member.userId}/ghost`, {});
    expectKnownError(unknown, 'PERMISSION_NOT_FOUND', 404);
    expect(unknown.body.details).toEqual({ permission_id: 'ghost' });
    expectKnownError(await p.server.post(`${base}/${member.userId}/proj`, {}), 'PERMISSION_NOT_FOUND', 404);
    const badSystem = await p.server.post(`${base}/${member.userId}/$nope`, {});
    expectKnownError(badSystem, 'SCHEMA_ERROR', 400);
    expect(badSystem.body.error).toContain('Invalid system permission');
    const badId = await p.server.post(`${base}/${member.userId}/Bad-Id`, {});
    expect(badId.body.error).toContain('Only lowercase letters, numbers, ":", "_" and optional "$" at the beginning are allowed');
    expectKnownError(await p.client.post(`${base}/${member.userId}/member`, {}, { accessToken: member.accessToken }), 'INSUFFICIENT_ACCESS_TYPE', 401);
    expectKnownError(await p.client.delete(`${base}/${member.userId}/member`, { accessToken: member.accessToken }), 'INSUFFICIENT_ACCESS_TYPE', 401);
    expectKnownError(await p.server.delete(`${base}/${outsider.userId}/member`), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);

    const sys = await p.admin.post(`${base}/${member.userId}/%24delete_team`, {});
    expect(sys.body).toEqual({ id: '$delete_team', team_id: team.id, user_id: member.userId });
    expect(await permissionIds(p, team.id, member.userId)).toEqual(['$delete_team', 'member']);
    expect((await p.admin.delete(`${base}/${member.userId}/%24delete_team`)).body).toEqual({ success: true });

    const text = 'Client can only list permissions for their own user. user_id must be either "me" or the ID of the current user';
    for (const q of ['', `?user_id=${outsider.userId}`]) {
      const res = await p.client.get(`/team-permissions${q}`, { accessToken: member.accessToken });
      expect(res.status).toBe(403);
      expect(res.text).toBe(text);
    }
    expectKnownError(await p.server.get('/team-permissions?recursive=yes'), 'SCHEMA_ERROR', 400);
    expectKnownError(await p.server.get('/team-permissions?team_id=nope'), 'SCHEMA_ERROR', 400);

    // Server listing without filters: every grant of the project, sorted by team_id, user_id, id.
    const other = await serverCreateTeam(p, { creator_user_id: member.userId });
    const all = (await p.server.get('/team-permissions')).body.items as { id: string; team_id: string; user_id: string }[];
    expect(all).toHaveLength(3);
    const key = (i: { id: string; team_id: string; user_id: string }) => `${i.team_id} ${i.user_id} ${i.id}`;
    expect(all.map(key)).toEqual(all.map(key).sort());
    expect(all.some((i) => i.team_id === other.id && i.id === 'admin')).toBe(true);
  });
});

describe('access types and isolation', () => {
  test('definitions are admin only; owner tokens work, other owners do not', async () => {
    const svc = await sharedService();
    const p = await newProject(svc);
    const other = await newProject(svc);
    for (const api of [p.client, p.server]) {
      const res = await api.get('/team-permission-definitions');
      expectKnownError(res, 'INSUFFICIENT_ACCESS_TYPE', 401);
      expect(res.body.details.allowed_access_types).toEqual(['admin']);
      expectKnownError(await api.post('/team-permission-definitions', { id: 'x' }), 'INSUFFICIENT_ACCESS_TYPE', 401);
    }
    expect((await p.ownerAdmin.post('/team-permission-definitions', { id: 'by_owner' })).status).toBe(201);
    const foreign = new Api(svc.url, { 'x-stack-project-id': p.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': other.ownerAccessToken });
    expectKnownError(await foreign.get('/team-permission-definitions'), 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401);
    // Definitions are per project.
    const otherIds = (await other.admin.get('/team-permission-definitions')).body.items.map((d: { id: string }) => d.id);
    expect(otherIds).not.toContain('by_owner');
    expectKnownError(await other.admin.delete('/team-permission-definitions/by_owner'), 'PERMISSION_NOT_FOUND', 404);
  });

  test("grants cannot reach another project's teams", async () => {
    const svc = await sharedService();
    const a = await newProject(svc);
    const b = await newProject(svc);
    const { team: teamB, member: memberB } = await teamWithCreatorAndMember(b);
    expectKnownError(await a.server.post(`/team-permissions/${teamB.id}/${memberB.userId}/member`, {}), 'USER_NOT_FOUND', 404);
    expectKnownError(await a.server.delete(`/team-permissions/${teamB.id}/${memberB.userId}/member`), 'USER_NOT_FOUND', 404);
    expect((await a.server.get(`/team-permissions?team_id=${teamB.id}`)).body.items).toEqual([]);
    expect(await permissionIds(b, teamB.id, memberB.userId)).toEqual(['member']);
  });
});
