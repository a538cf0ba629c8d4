// Project (user-level) permission definitions and grants over HTTP: scope rules, cycles, nested grants with
// recursive listing, direct-only revoke, defaults for new users, access types and isolation.
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Api, expectKnownError, sharedService } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';

setDefaultTimeout(60_000);

const project = async (config?: Record<string, unknown>) => newProject(await sharedService(), config ? { config } : {});

async function define(p: TestProject, id: string, contained: string[] = []) {
  const res = await p.admin.post('/project-permission-definitions', { id, contained_permission_ids: contained });
  expect(res.status).toBe(201);
  return res.body;
}

async function ids(p: TestProject, userId: string, recursive?: boolean) {
  const res = await p.server.get(`/project-permissions?user_id=${userId}${recursive === undefined ? '' : `&recursive=${recursive}`}`);
  expect(res.status).toBe(200);
  return (res.body.items as { id: string }[]).map((i) => i.id);
}

describe('definitions', () => {
  test('empty on a new project; create, patch, rename, delete; project scope only', async () => {
    const p = await project();
    expect((await p.admin.get('/project-permission-definitions')).body).toEqual({ items: [], is_paginated: false });
    expect(await define(p, 'read')).toEqual({ id: 'read', contained_permission_ids: [] });
    const write = await p.admin.post('/project-permission-definitions', { id: 'write', description: 'Write', contained_permission_ids: ['read'] });
    expect(write.status).toBe(201);
    expect(write.body).toEqual({ id: 'write', description: 'Write', contained_permission_ids: ['read'] });

    expectKnownError(await p.admin.post('/project-permission-definitions', { id: 'x', contained_permission_ids: ['member'] }), 'CONTAINED_PERMISSION_NOT_FOUND', 400);
    expectKnownError(await p.admin.post('/project-permission-definitions', { id: 'x', contained_permission_ids: ['$read_members'] }), 'CONTAINED_PERMISSION_NOT_FOUND', 400);
    expectKnownError(await p.admin.post('/project-permission-definitions', { id: 'admin' }), 'PERMISSION_ID_ALREADY_EXISTS', 400);
    expectKnownError(await p.admin.post('/project-permission-definitions', { id: 'read' }), 'PERMISSION_ID_ALREADY_EXISTS', 400);
    const cycle = await p.admin.patch('/project-permission-definitions/read', { contained_permission_ids: ['write'] });
    expectKnownError(cycle, 'SCHEMA_ERROR', 400);
    expect(cycle.body.error).toContain('cycle: read -> write -> read');

    const renamed = await p.admin.patch('/project-permission-definitions/read', { id: 'view' });
    expect(renamed.body).toEqual({ id: 'view', contained_permission_ids: [] });
    const list = (await p.admin.get('/project-permission-definitions')).body.items;
    expect(list).toEqual([{ id: 'view', contained_permission_ids: [] }, { id: 'write', description: 'Write', contained_permission_ids: ['view'] }]);
    expectKnownError(await p.admin.patch('/project-permission-definitions/member', { description: 'x' }), 'PERMISSION_NOT_FOUND', 404);
    expectKnownError(await p.admin.delete('/project-permission-definitions/admin'), 'PERMISSION_NOT_FOUND', 404);
    expect((await p.admin.delete('/project-permission-definitions/view')).body).toEqual({ success: true });
    expect((await p.admin.get('/project-permission-definitions')).body.items).toEqual([{ id: 'write', description: 'Write', contained_permission_ids: [] }]);
    // The team definitions are untouched by project changes.
    expect((await p.admin.get('/team-permission-definitions')).body.items.map((d: { id: string }) => d.id)).toContain('admin');
  });
});

describe('grants', () => {
  test('grant, nested recursive listing, revoke only direct', async () => {
    const p = await project();
    const u = await signUp(p);
    await define(p, 'b');
    await define(p, 'a', ['b']);
    await define(p, 'top', ['a']);
    const res = await p.server.post(`/project-permissions/${u.userId}/top`, {});
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 'top', user_id: u.userId });
    expect((await p.admin.post(`/project-permissions/${u.userId}/top`)).status).toBe(201);
    expect(await ids(p, u.userId)).toEqual(['top']);
    expect(await ids(p, u.userId, false)).toEqual(['top']);
    expect(await ids(p, u.userId, true)).toEqual(['a', 'b', 'top']);
    const filtered = await p.server.get(`/project-permissions?user_id=${u.userId}&recursive=true&permission_id=b`);
    expect(filtered.body.items).toEqual([{ id: 'b', user_id: u.userId }]);

    const mine = await p.client.get('/project-permissions?user_id=me&recursive=true', { accessToken: u.accessToken });
    expect(mine.body).toEqual({ is_paginated: false, items: ['a', 'b', 'top'].map((id) => ({ id, user_id: u.userId })) });

    const indirect = await p.server.delete(`/project-permissions/${u.userId}/a`);
    expectKnownError(indirect, 'PERMISSION_NOT_FOUND', 404);
    expect(indirect.body.error).toBe('Permission "a" not found. Make sure you created it on the dashboard.');
    expect((await p.server.delete(`/project-permissions/${u.userId}/top`)).body).toEqual({ success: true });
    expect(await ids(p, u.userId, true)).toEqual([]);
  });

  test('errors, client rules and sort order', async () => {
    const p = await project();
    const u = await signUp(p);
    const v = await signUp(p);
    await define(p, 'p1');
    await define(p, 'p2');
    expectKnownError(await p.server.post(`/project-permissions/${crypto.randomUUID()}/p1`, {}), 'USER_NOT_FOUND', 404);
    expectKnownError(await p.server.post(`/project-permissions/${u.userId}/member`, {}), 'PERMISSION_NOT_FOUND', 404);
    expectKnownError(await p.server.post(`/project-permissions/${u.userId}/$read_members`, {}), 'PERMISSION_NOT_FOUND', 404);
    expectKnownError(await p.server.post(`/project-permissions/${u.userId}/$nope`, {}), 'SCHEMA_ERROR', 400);
    expectKnownError(await p.server.delete(`/project-permissions/${crypto.randomUUID()}/p1`), 'USER_NOT_FOUND', 404);
    expectKnownError(await p.client.post(`/project-permissions/${u.userId}/p1`, {}, { accessToken: u.accessToken }), 'INSUFFICIENT_ACCESS_TYPE', 401);
    expectKnownError(await p.client.delete(`/project-permissions/${u.userId}/p1`, { accessToken: u.accessToken }), 'INSUFFICIENT_ACCESS_TYPE', 401);

    const me = await p.server.post('/project-permissions/me/p2', {}, { accessToken: u.accessToken });
    expect(me.body).toEqual({ id: 'p2', user_id: u.userId });
    await p.server.post(`/project-permissions/${u.userId}/p1`, {});
    await p.server.post(`/project-permissions/${v.userId}/p1`, {});
    const all = (await p.server.get('/project-permissions')).body.items as { id: string; user_id: string }[];
    const sorted = [...all].sort((x, y) => (x.user_id + x.id < y.user_id + y.id ? -1 : 1));
    expect(all).toEqual(sorted);
    expect(all).toHaveLength(3);

    const text = 'Client can only list permissions for their own user. user_id must be either "me" or the ID of the current user';
    for (const q of ['', `?user_id=${v.userId}`]) {
      const res = await p.client.get(`/project-permissions${q}`, { accessToken: u.accessToken });
      expect(res.status).toBe(403);
      expect(res.text).toBe(text);
    }
    expectKnownError(await p.client.get('/project-permissions?user_id=me'), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    expectKnownError(await p.server.get('/project-permissions?recursive=1'), 'SCHEMA_ERROR', 400);
    expect((await p.client.get(`/project-permissions?user_id=${u.userId}`, { accessToken: u.accessToken })).body.items.map((i: { id: string }) => i.id)).toEqual(['p1', 'p2']);
  });

  test('user_default_permissions go to new users only, and follow renames and deletes', async () => {
    const p = await project();
    await define(p, 'test');
    const earlier = await signUp(p);
    const configured = await p.admin.patch('/projects/current', { config: { user_default_permissions: [{ id: 'test' }] } });
    expect(configured.status).toBe(200);
    const after = await signUp(p);
    expect((await p.server.get(`/project-permissions?user_id=${after.userId}`)).body.items).toEqual([{ id: 'test', user_id: after.userId }]);
    expect(await ids(p, earlier.userId)).toEqual([]);

    await p.admin.patch('/project-permission-definitions/test', { id: 'tested' });
    const third = await signUp(p);
    expect(await ids(p, third.userId)).toEqual(['tested']);
    expect(await ids(p, after.userId)).toEqual(['tested']);
    await p.admin.delete('/project-permission-definitions/tested');
    expect((await p.admin.get('/projects/current')).body.config.user_default_permissions).toEqual([]);
    const fourth = await signUp(p);
    expect(await ids(p, fourth.userId)).toEqual([]);
    expect(await ids(p, third.userId)).toEqual([]);
  });
});

describe('access types and isolation', () => {
  test('definitions are admin only; owner admin tokens only for owned projects; grants stay in their project', async () => {
    const svc = await sharedService();
    const a = await newProject(svc);
    const b = await newProject(svc);
    for (const api of [a.client, a.server]) expectKnownError(await api.get('/project-permission-definitions'), 'INSUFFICIENT_ACCESS_TYPE', 401);
    expect((await a.ownerAdmin.post('/project-permission-definitions', { id: 'shared_name' })).status).toBe(201);
    const foreign = new Api(svc.url, { 'x-stack-project-id': a.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': b.ownerAccessToken });
    expectKnownError(await foreign.get('/project-permission-definitions'), 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401);
    expect((await b.admin.get('/project-permission-definitions')).body.items).toEqual([]);

    const ub = await signUp(b);
    await define(b, 'shared_name');
    expect((await b.server.post(`/project-permissions/${ub.userId}/shared_name`, {})).status).toBe(201);
    expectKnownError(await a.server.post(`/project-permissions/${ub.userId}/shared_name`, {}), 'USER_NOT_FOUND', 404);
    expectKnownError(await a.server.delete(`/project-permissions/${ub.userId}/shared_name`), 'USER_NOT_FOUND', 404);
    expect((await a.server.get(`/project-permissions?user_id=${ub.userId}`)).body.items).toEqual([]);
    expect((await a.server.get('/project-permissions')).body.items).toEqual([]);
    expect(await ids(b, ub.userId)).toEqual(['shared_name']);
  });
});
