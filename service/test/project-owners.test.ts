// A project's owners through the admin API: the internal users whose managedProjectIds list it (the creator, and a
// co-owner added there), removing one (their other projects kept), never the last one, not even by two owners
// removing each other at once; unknown users, other projects and non-admin access refused.
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Api, DEV_KEYS, expectKnownError, serverApi, sharedService, type RunningService } from './support/service';
import { newInternalUser, newProject, type TestProject } from './support/projects';

setDefaultTimeout(60_000);
let svc: RunningService;
beforeAll(async () => { svc = await sharedService(); }, 120_000);

const internalServer = () => serverApi(svc.url, DEV_KEYS.projectId, DEV_KEYS.secretServerKey);
const ownerApi = (projectId: string, accessToken: string) =>
  new Api(svc.url, { 'x-stack-project-id': projectId, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': accessToken });

/** Makes a new internal user an owner of these projects, as the protocol keeps it (their server metadata). */
async function coOwner(...projectIds: string[]) {
  const user = await newInternalUser(svc);
  expect((await internalServer().patch(`/users/${user.userId}`, { server_metadata: { managedProjectIds: projectIds } })).status).toBe(200);
  return user;
}

const ownerIds = async (p: TestProject) => {
  const res = await p.admin.get('/internal/owners');
  expect(res.status).toBe(200);
  return (res.body.items as any[]).map((o) => o.user_id);
};

describe('project owners', () => {
  test('the creator, then a co-owner; one removed keeps their other projects; the last one stays', async () => {
    const creator = await newInternalUser(svc);
    const p = await newProject(svc, { owner: creator });
    const other = await newProject(svc, { owner: creator });
    const listed = (await p.admin.get('/internal/owners')).body.items;
    expect(listed).toEqual([{ user_id: creator.userId, display_name: null, primary_email: creator.email, signed_up_at_millis: expect.any(Number) }]);
    expectKnownError(await p.admin.delete(`/internal/owners/${creator.userId}`), 'LAST_PROJECT_OWNER', 409);

    const second = await coOwner(p.id);
    expect(await ownerIds(p)).toEqual([creator.userId, second.userId]);
    // The co-owner removes the creator with their own owner token.
    const removed = await ownerApi(p.id, second.accessToken).delete(`/internal/owners/${creator.userId}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true });
    expect(await ownerIds(p)).toEqual([second.userId]);
    expectKnownError(await ownerApi(p.id, creator.accessToken).get('/internal/owners'), 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401);
    expect((await internalServer().get(`/users/${creator.userId}`)).body.server_metadata.managedProjectIds).toEqual([other.id]);
    expect(await ownerIds(other)).toEqual([creator.userId]);
    expectKnownError(await ownerApi(p.id, second.accessToken).delete(`/internal/owners/${second.userId}`), 'LAST_PROJECT_OWNER', 409);
    expect(await ownerIds(p)).toEqual([second.userId]);
    // The removal is in the project's audit log (the refused one is not), naming who removed whom.
    const log = (await p.admin.get('/internal/audit-log?event=project.ownership_changed')).body.items;
    const removals = log.filter((e: { details: { via?: string } }) => e.details.via === 'removal');
    expect(removals.map((e: { actor: { user_id: string }; target: string; details: unknown }) => [e.actor.user_id, e.target, e.details]))
      .toEqual([[second.userId, creator.userId, { removed_project_id: p.id, via: 'removal' }]]);
  });

  test('two owners removing each other at once: exactly one goes', async () => {
    const p = await newProject(svc);
    const [a, b] = [await coOwner(p.id), await coOwner(p.id)];
    const creatorId = (await ownerIds(p))[0]!;
    expect((await p.admin.delete(`/internal/owners/${creatorId}`)).status).toBe(200);
    const results = await Promise.all([
      ownerApi(p.id, a.accessToken).delete(`/internal/owners/${b.userId}`),
      ownerApi(p.id, b.accessToken).delete(`/internal/owners/${a.userId}`),
    ]);
    const statuses = results.map((r) => r.status).sort();
    // The second request is refused either as "last owner" or, once its caller is gone, as "not an admin".
    expect(statuses[0]).toBe(200);
    expect([401, 409]).toContain(statuses[1]!);
    expect(await ownerIds(p)).toHaveLength(1);
  });

  test('an unknown user, another project\'s owner, bad ids and non-admin access are refused', async () => {
    const p = await newProject(svc);
    const q = await newProject(svc);
    const qOwner = (await ownerIds(q))[0]!;
    expectKnownError(await p.admin.delete(`/internal/owners/${crypto.randomUUID()}`), 'PROJECT_OWNER_NOT_FOUND', 404);
    expectKnownError(await p.admin.delete(`/internal/owners/${qOwner}`), 'PROJECT_OWNER_NOT_FOUND', 404);
    expectKnownError(await p.admin.delete('/internal/owners/nope'), 'SCHEMA_ERROR', 400);
    for (const api of [p.client, p.server]) {
      expectKnownError(await api.get('/internal/owners'), 'INSUFFICIENT_ACCESS_TYPE', 401);
      expectKnownError(await api.delete(`/internal/owners/${qOwner}`), 'INSUFFICIENT_ACCESS_TYPE', 401);
    }
    expect(await ownerIds(q)).toEqual([qOwner]);
  });
});
