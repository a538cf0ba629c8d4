// Access-control refusals as security events (issue 30, ASVS 7.1.3): a token or key of another project and a missing
// access type or permission are recorded in the project's audit log as `access.refused`, at most 20 a minute per
// project, so that a flood of refusals cannot fill the table.
import { describe, expect, test } from 'bun:test';
import { Api, expectKnownError } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { setupSuite } from './support/suite';
import { teamWithCreatorAndMember } from './support/teams';

const { svc } = await setupSuite();

async function refusals(p: TestProject) {
  const res = await p.admin.get('/internal/audit-log?limit=200');
  expect(res.status).toBe(200);
  return (res.body.items as any[]).filter((e) => e.event === 'access.refused');
}

describe('access.refused', () => {
  test("another project's access token and keys, a missing access type and a missing team permission are each recorded", async () => {
    const p = await newProject(svc);
    const other = await newProject(svc);
    const stranger = await signUp(other);
    expectKnownError(await p.client.get('/users/me', { accessToken: stranger.accessToken }), 'INVALID_PROJECT_FOR_ACCESS_TOKEN', 401);
    const foreignServer = new Api(svc.url, { 'x-stack-project-id': p.id, 'x-stack-access-type': 'server', 'x-stack-secret-server-key': other.keys.secretServerKey });
    expectKnownError(await foreignServer.get('/users'), 'INVALID_SECRET_SERVER_KEY', 401);
    const u = await signUp(p);
    expectKnownError(await p.client.get('/internal/audit-log', { accessToken: u.accessToken }), 'INSUFFICIENT_ACCESS_TYPE', 401);
    const { team, member } = await teamWithCreatorAndMember(p);
    expectKnownError(await p.client.patch(`/teams/${team.id}`, { display_name: 'Mine now' }, { accessToken: member.accessToken }), 'TEAM_PERMISSION_REQUIRED', 401);

    const entries = await refusals(p);
    const byError = Object.fromEntries(entries.map((e) => [e.details.error, e]));
    expect(Object.keys(byError).sort()).toEqual(['INSUFFICIENT_ACCESS_TYPE', 'INVALID_PROJECT_FOR_ACCESS_TOKEN', 'INVALID_SECRET_SERVER_KEY', 'TEAM_PERMISSION_REQUIRED']);
    expect(byError.INVALID_SECRET_SERVER_KEY).toMatchObject({ actor: { kind: 'server_key', user_id: null }, details: { route: 'GET /users' } });
    expect(byError.TEAM_PERMISSION_REQUIRED).toMatchObject({ actor: { kind: 'client', user_id: member.userId }, details: { route: 'PATCH /teams/:team_id' } });
    expect(byError.INSUFFICIENT_ACCESS_TYPE.actor.ip).toBeTruthy();
    // Nothing of the other project's secrets is recorded, and the other project's log has none of it.
    expect(JSON.stringify(entries)).not.toContain(other.keys.secretServerKey);
    expect(await refusals(other)).toEqual([]);
  });

  test('a flood of 150 refusals writes at most 20 entries a minute, the rest counted', async () => {
    const p = await newProject(svc);
    const other = await newProject(svc);
    const foreign = new Api(svc.url, { 'x-stack-project-id': p.id, 'x-stack-access-type': 'server', 'x-stack-secret-server-key': other.keys.secretServerKey });
    for (let i = 0; i < 15; i++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => foreign.get('/users')));
      for (const a of answers) expect(a.status).toBe(401);
    }
    expect(await refusals(p)).toHaveLength(20);
  });
});
