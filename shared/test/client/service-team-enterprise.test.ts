// The client library's team enterprise calls that the console's Enterprise SSO tab uses, against the service:
// naming a group ahead of SCIM (with its permissions; the cached group list follows; a taken name and an unknown
// permission refused as known errors, nothing written), and a team's provisioning log from the audit log.
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sharedService, type SharedService } from '../../../service/test/support/service.ts';
import { newProject, type TestProject } from '../../../service/test/support/projects.ts';
import { KnownError } from '../../src/known-errors.ts';
import { adminFor } from './service-helpers.ts';

setDefaultTimeout(90_000);

let svc: SharedService;
let project: TestProject;

beforeAll(async () => {
  svc = await sharedService();
  project = await newProject(svc);
  expect((await project.admin.post('/team-permission-definitions', { id: 'billing' })).status).toBe(201);
}, 180_000);

const refusal = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => (e instanceof KnownError ? { code: e.errorCode, status: e.statusCode } : e));

describe('team enterprise through the admin app', () => {
  test('a group named ahead of SCIM, with its permissions; the cached list follows; bad names and permissions refused', async () => {
    const app = adminFor(project);
    const team = await app.createTeam({ displayName: 'Groups ahead' });
    const groups = team.enterprise.reads.scimGroups();
    const unsubscribe = groups.subscribe(() => {});
    try {
      expect(await groups.get()).toEqual([]);
      const made = await team.enterprise.createScimGroup('Finance', ['billing']);
      expect(made).toMatchObject({ displayName: 'Finance', externalId: null, memberCount: 0, permissionIds: ['billing'] });
      expect((await groups.get()).map((g) => [g.id, g.displayName, [...g.permissionIds]])).toEqual([[made.id, 'Finance', ['billing']]]);

      const bare = await team.enterprise.createScimGroup('Engineering');
      expect([...bare.permissionIds]).toEqual([]);
      await bare.setPermissions(['billing']);
      expect((await groups.get()).find((g) => g.id === bare.id)!.permissionIds).toEqual(['billing']);

      expect(await refusal(team.enterprise.createScimGroup('finance'))).toEqual({ code: 'SCIM_GROUP_NAME_TAKEN', status: 409 });
      expect(await refusal(team.enterprise.createScimGroup('Legal', ['no-such-permission']))).toEqual({ code: 'PERMISSION_NOT_FOUND', status: 404 });
      expect(await refusal(team.enterprise.createScimGroup(''))).toMatchObject({ code: 'SCHEMA_ERROR', status: 400 });
      // Nothing of the refused ones was written.
      expect((await (await adminFor(project).getTeam(team.id))!.enterprise.reads.scimGroups().get()).map((g) => g.displayName).sort()).toEqual(['Engineering', 'Finance']);
    } finally {
      unsubscribe();
    }
  });

  test('a team\'s provisioning log: listAuditLog with teamId selects that team\'s SCIM entries only', async () => {
    const app = adminFor(project);
    const [a, b] = [await app.createTeam({ displayName: 'Log A' }), await app.createTeam({ displayName: 'Log B' })];
    expect(await app.listAuditLog({ events: ['scim'], teamId: a.id })).toEqual({ entries: [], nextCursor: null });
    // The identity provider pushes a group to each team, two to A.
    for (const [team, names] of [[a, ['Sales', 'Support']], [b, ['Ops']]] as const) {
      const { token, scimBaseUrl } = await team.enterprise.createScimToken({ description: 'Okta' });
      for (const displayName of names) {
        const res = await fetch(`${scimBaseUrl}/Groups`, {
          method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
          body: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName, members: [] }),
        });
        expect(res.status).toBe(201);
      }
    }
    const [tokenA] = await a.enterprise.reads.scimTokens().get();
    const first = await app.listAuditLog({ events: ['scim'], teamId: a.id, limit: 1 });
    expect(first.entries.map((e) => [e.event, e.details.display_name, e.details.scim_token_id, e.actor.kind])).toEqual([['scim.group_created', 'Support', tokenA!.id, 'scim_token']]);
    const second = await app.listAuditLog({ events: ['scim'], teamId: a.id, limit: 1, cursor: first.nextCursor! });
    expect(second.entries.map((e) => e.details.display_name)).toEqual(['Sales']);
    expect(second.nextCursor).toBeNull();
    expect((await app.listAuditLog({ teamId: b.id })).entries.map((e) => e.details.display_name)).toEqual(['Ops']);
  });
});
