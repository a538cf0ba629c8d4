// Admin access through an internal-project user's access token (x-stack-admin-access-token, protocol-resources
// §10.6) on team memberships, member profiles, invitations and project API key sets: the project's owner gets
// through; any other internal user (one owning nothing, or the owner of another project) gets
// ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN and changes nothing.
import { describe, expect, test } from 'bun:test';
import { Api, expectKnownError, uniqueEmail, type ApiResponse } from './support/service';
import { newInternalUser, newProject, signUp, type TestProject } from './support/projects';
import { serverCreateTeam } from './support/teams';
import { setupSuite } from './support/suite';

const { svc, p } = await setupSuite();
const CALLBACK = 'http://localhost:3000/handler/team-invitation';

const adminWith = (project: TestProject, token: string) =>
  new Api(svc.url, { 'x-stack-project-id': project.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': token });

/** Admin APIs of internal users who do not own `p`: one owning no project, one owning another project. */
async function nonOwners(): Promise<Api[]> {
  const stranger = await newInternalUser(svc);
  const otherOwner = await newProject(svc);
  return [adminWith(p, stranger.accessToken), adminWith(p, otherOwner.ownerAccessToken)];
}

function expectNotAdmin(res: ApiResponse) {
  expectKnownError(res, 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401);
  expect(res.body.error).toBe('Admin access token does not have the required permissions to access this project.');
}

describe('owner versus non-owner admin access tokens', () => {
  test('/team-memberships', async () => {
    const team = await serverCreateTeam(p);
    const u = await signUp(p);
    for (const api of await nonOwners()) {
      expectNotAdmin(await api.post(`/team-memberships/${team.id}/${u.userId}`, {}));
    }
    expect((await p.server.get(`/users?team_id=${team.id}`)).body.items).toEqual([]);

    const added = await p.ownerAdmin.post(`/team-memberships/${team.id}/${u.userId}`, {});
    expect({ status: added.status, body: added.body }).toEqual({ status: 201, body: { team_id: team.id, user_id: u.userId } });
    for (const api of await nonOwners()) {
      expectNotAdmin(await api.delete(`/team-memberships/${team.id}/${u.userId}`));
    }
    expect((await p.server.get(`/users?team_id=${team.id}`)).body.items.map((x: { id: string }) => x.id)).toEqual([u.userId]);
    const removed = await p.ownerAdmin.delete(`/team-memberships/${team.id}/${u.userId}`);
    expect({ status: removed.status, body: removed.body }).toEqual({ status: 200, body: { success: true } });
    expect((await p.server.get(`/users?team_id=${team.id}`)).body.items).toEqual([]);
  });

  test('/team-member-profiles', async () => {
    const u = await signUp(p);
    const team = await serverCreateTeam(p, { creator_user_id: u.userId });
    const path = `/team-member-profiles/${team.id}/${u.userId}`;
    for (const api of await nonOwners()) {
      expectNotAdmin(await api.get(`/team-member-profiles?team_id=${team.id}`));
      expectNotAdmin(await api.get(path));
      expectNotAdmin(await api.patch(path, { display_name: 'Intruder' }));
    }
    const list = await p.ownerAdmin.get(`/team-member-profiles?team_id=${team.id}`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((x: { user_id: string }) => x.user_id)).toEqual([u.userId]);
    expect(list.body.items[0].user.id).toBe(u.userId); // the server shape
    expect((await p.ownerAdmin.get(path)).body).toMatchObject({ team_id: team.id, user_id: u.userId, display_name: null });
    const patched = await p.ownerAdmin.patch(path, { display_name: 'By owner' });
    expect({ status: patched.status, name: patched.body.display_name }).toEqual({ status: 200, name: 'By owner' });
    expect((await p.server.get(path)).body.display_name).toBe('By owner');
  });

  test('/team-invitations', async () => {
    const team = await serverCreateTeam(p);
    const email = uniqueEmail('invitee');
    for (const api of await nonOwners()) {
      expectNotAdmin(await api.post('/team-invitations/send-code', { team_id: team.id, email, callback_url: CALLBACK }));
      expectNotAdmin(await api.get(`/team-invitations?team_id=${team.id}`));
    }
    expect((await p.server.get(`/team-invitations?team_id=${team.id}`)).body.items).toEqual([]);

    const sent = await p.ownerAdmin.post('/team-invitations/send-code', { team_id: team.id, email, callback_url: CALLBACK });
    expect(sent.status).toBe(200);
    const listed = await p.ownerAdmin.get(`/team-invitations?team_id=${team.id}`);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([{ id: sent.body.id, team_id: team.id, recipient_email: email, expires_at_millis: expect.any(Number) }]);
    for (const api of await nonOwners()) {
      expectNotAdmin(await api.delete(`/team-invitations/${sent.body.id}?team_id=${team.id}`));
    }
    expect((await p.server.get(`/team-invitations?team_id=${team.id}`)).body.items).toHaveLength(1);
    expect((await p.ownerAdmin.delete(`/team-invitations/${sent.body.id}?team_id=${team.id}`)).body).toEqual({ success: true });
    expect((await p.server.get(`/team-invitations?team_id=${team.id}`)).body.items).toEqual([]);
  });

  test('/internal/api-keys', async () => {
    const body = {
      description: 'owner keys', expires_at_millis: Date.now() + 3600_000,
      has_publishable_client_key: false, has_secret_server_key: true, has_super_secret_admin_key: false,
    };
    const before = (await p.admin.get('/internal/api-keys')).body.items.length;
    for (const api of await nonOwners()) {
      expectNotAdmin(await api.post('/internal/api-keys', body));
      expectNotAdmin(await api.get('/internal/api-keys'));
    }
    expect((await p.admin.get('/internal/api-keys')).body.items).toHaveLength(before);

    const created = await p.ownerAdmin.post('/internal/api-keys', body);
    expect(created.status).toBe(200);
    expect(created.body.secret_server_key).toMatch(/^ssk_/);
    const listed = await p.ownerAdmin.get('/internal/api-keys');
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((k: { id: string }) => k.id)).toContain(created.body.id);
    const path = `/internal/api-keys/${created.body.id}`;
    for (const api of await nonOwners()) {
      expectNotAdmin(await api.get(path));
      expectNotAdmin(await api.patch(path, { revoked: true }));
    }
    expect((await p.ownerAdmin.get(path)).body.manually_revoked_at_millis).toBeUndefined();
    const revoked = await p.ownerAdmin.patch(path, { revoked: true });
    expect({ status: revoked.status, revoked: typeof revoked.body.manually_revoked_at_millis }).toEqual({ status: 200, revoked: 'number' });
    expectKnownError(await new Api(svc.url, { 'x-stack-project-id': p.id, 'x-stack-access-type': 'server', 'x-stack-secret-server-key': created.body.secret_server_key }).get('/users'),
      'INVALID_SECRET_SERVER_KEY', 401);
  });
});
