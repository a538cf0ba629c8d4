// Webhook events of teams, memberships and permissions (protocol-resources §12.6), received by a real HTTP
// endpoint registered through the admin API.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sharedService } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { serverCreateTeam } from './support/teams';
import { extractCode } from './support/smtp';

setDefaultTimeout(60_000);

interface Event { type: string; data: any }
let server: ReturnType<typeof Bun.serve>;
const received = new Map<string, Event[]>(); // by path (one path per project)

beforeAll(() => {
  server = Bun.serve({
    port: 0, hostname: '127.0.0.1',
    async fetch(req) {
      const path = new URL(req.url).pathname;
      received.set(path, [...(received.get(path) ?? []), (await req.json()) as Event]);
      return new Response(null, { status: 204 });
    },
  });
});
afterAll(() => server?.stop(true));

async function projectWithHook(): Promise<{ p: TestProject; events: () => Event[] }> {
  const p = await newProject(await sharedService());
  const path = `/hook/${p.id}`;
  const res = await p.admin.post('/webhooks/endpoints', { url: `http://127.0.0.1:${server.port}${path}` });
  expect(res.status).toBe(201);
  return { p, events: () => received.get(path) ?? [] };
}

/**
 * Waits until `count` events matching `pred` arrived. The worker sends the deliveries of one round concurrently,
 * so one event having arrived says nothing of another: wait for each event asserted, then `settle` for extras.
 */
async function waitFor(events: () => Event[], pred: (e: Event) => boolean, count = 1) {
  const until = Date.now() + 20_000;
  while (events().filter(pred).length < count) {
    if (Date.now() > until) throw new Error(`timed out; got ${JSON.stringify(events().map((e) => e.type))}`);
    await Bun.sleep(50);
  }
}

const settle = () => Bun.sleep(1_500);
const of = (events: Event[], type: string) => events.filter((e) => e.type === type).map((e) => e.data);

describe('team events', () => {
  test('create, membership, grants, update, delete', async () => {
    const { p, events } = await projectWithHook();
    const creator = await signUp(p);
    const member = await signUp(p);
    const team = await serverCreateTeam(p, { display_name: 'Evented', creator_user_id: creator.userId });
    await waitFor(events, (e) => e.type === 'team.created');
    const created = of(events(), 'team.created')[0];
    expect(created).toMatchObject({ id: team.id, display_name: 'Evented', server_metadata: null });
    expect(typeof created.created_at_millis).toBe('number');

    await p.server.post(`/team-memberships/${team.id}/${member.userId}`, {});
    await p.server.patch(`/teams/${team.id}`, { display_name: 'Renamed' });
    await p.server.post(`/team-permissions/${team.id}/${member.userId}/$update_team`, {});
    await p.server.post(`/team-permissions/${team.id}/${member.userId}/$update_team`, {});
    await p.server.delete(`/team-permissions/${team.id}/${member.userId}/$update_team`);
    await p.server.delete(`/team-memberships/${team.id}/${member.userId}`);
    await p.server.delete(`/teams/${team.id}`);
    await waitFor(events, (e) => e.type === 'team_membership.created');
    await waitFor(events, (e) => e.type === 'team.updated');
    await waitFor(events, (e) => e.type === 'team_permission.created', 2);
    await waitFor(events, (e) => e.type === 'team_permission.deleted');
    await waitFor(events, (e) => e.type === 'team_membership.deleted');
    await waitFor(events, (e) => e.type === 'team.deleted');
    await settle();

    const all = events();
    // The creator's membership and default permissions send nothing.
    expect(of(all, 'team_membership.created')).toEqual([{ team_id: team.id, user_id: member.userId }]);
    // One for the member default on join, one for the grant; re-granting an existing permission sends nothing.
    expect(of(all, 'team_permission.created')).toEqual(expect.arrayContaining([
      { id: 'member', team_id: team.id, user_id: member.userId },
      { id: '$update_team', team_id: team.id, user_id: member.userId },
    ]));
    expect(of(all, 'team_permission.created')).toHaveLength(2);
    expect(of(all, 'team_permission.deleted')).toEqual([{ id: '$update_team', team_id: team.id, user_id: member.userId }]);
    expect(of(all, 'team_membership.deleted')).toEqual([{ team_id: team.id, user_id: member.userId }]);
    expect(of(all, 'team.updated')).toHaveLength(1);
    expect(of(all, 'team.updated')[0]).toMatchObject({ id: team.id, display_name: 'Renamed' });
    // Deleting the team sends team.deleted only (no membership events for the creator).
    expect(of(all, 'team.deleted')).toEqual([{ id: team.id }]);
  });

  test('deleting a user in teams sends team_membership.deleted per team, then user.deleted with the teams', async () => {
    const { p, events } = await projectWithHook();
    const u = await signUp(p);
    const other = await signUp(p);
    // One team the user created (no membership event then), one joined, one not joined.
    const created = await serverCreateTeam(p, { display_name: 'Own', creator_user_id: u.userId });
    const joined = await serverCreateTeam(p, { display_name: 'Joined', creator_user_id: other.userId });
    const unrelated = await serverCreateTeam(p, { display_name: 'Unrelated', creator_user_id: other.userId });
    expect((await p.server.post(`/team-memberships/${joined.id}/${u.userId}`, {})).status).toBe(201);
    expect((await p.server.delete(`/users/${u.userId}`)).status).toBe(200);
    await waitFor(events, (e) => e.type === 'team_membership.deleted', 2);
    await waitFor(events, (e) => e.type === 'user.deleted');
    await settle();

    const byId = (a: { id?: string; team_id?: string }, b: { id?: string; team_id?: string }) => String(a.id ?? a.team_id).localeCompare(String(b.id ?? b.team_id));
    expect(of(events(), 'team_membership.deleted').sort(byId)).toEqual(
      [{ team_id: created.id, user_id: u.userId }, { team_id: joined.id, user_id: u.userId }].sort(byId));
    const deleted = of(events(), 'user.deleted');
    expect(deleted).toHaveLength(1);
    expect(Object.keys(deleted[0]).sort()).toEqual(['id', 'teams']);
    expect(deleted[0].id).toBe(u.userId);
    expect([...deleted[0].teams].sort(byId)).toEqual([{ id: created.id }, { id: joined.id }].sort(byId));
    expect(events().filter((e) => e.type !== 'team.created' && JSON.stringify(e.data).includes(unrelated.id))).toEqual([]);
    // The other member stays in both of their teams.
    expect((await p.server.get(`/teams?user_id=${other.userId}`)).body.items.map((t: { id: string }) => t.id).sort())
      .toEqual([joined.id, unrelated.id].sort());
  });

  test('create_team_on_sign_up: the personal team sends team.created', async () => {
    const { p, events } = await projectWithHook();
    expect((await p.admin.patch('/projects/current', { config: { create_team_on_sign_up: true } })).status).toBe(200);
    const u = await signUp(p);
    await waitFor(events, (e) => e.type === 'team.created');
    await waitFor(events, (e) => e.type === 'user.created' && e.data.id === u.userId);
    await settle();
    const teams = (await p.server.get(`/teams?user_id=${u.userId}`)).body.items;
    expect(teams).toHaveLength(1);
    expect(of(events(), 'team.created')).toEqual([teams[0]]);
    expect(teams[0].display_name).toBe(`${u.email}'s Team`);
    // The creator's membership sends nothing.
    expect(of(events(), 'team_membership.created')).toEqual([]);
    expect(of(events(), 'team_permission.created')).toEqual([]);
  });

  test('accepting an invitation sends the membership and its default permission', async () => {
    const { p, events } = await projectWithHook();
    const svc = await sharedService();
    const team = await serverCreateTeam(p);
    const email = `invitee-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await p.server.post('/team-invitations/send-code', { team_id: team.id, email, callback_url: 'http://localhost:3000/accept' });
    const code = extractCode(await svc.mailbox.waitForMail((m) => m.to.includes(email)))!;
    const u = await signUp(p);
    expect((await p.client.post('/team-invitations/accept', { code }, { accessToken: u.accessToken })).status).toBe(200);
    // Both come from the one acceptance and may be delivered concurrently.
    await waitFor(events, (e) => e.type === 'team_membership.created');
    await waitFor(events, (e) => e.type === 'team_permission.created');
    expect(of(events(), 'team_membership.created')).toEqual([{ team_id: team.id, user_id: u.userId }]);
    expect(of(events(), 'team_permission.created')).toEqual([{ id: 'member', team_id: team.id, user_id: u.userId }]);
  });

  test('project permission grant and revoke', async () => {
    const { p, events } = await projectWithHook();
    const u = await signUp(p);
    await p.admin.post('/project-permission-definitions', { id: 'reports' });
    await p.server.post(`/project-permissions/${u.userId}/reports`, {});
    await p.server.delete(`/project-permissions/${u.userId}/reports`);
    await waitFor(events, (e) => e.type === 'project_permission.created');
    await waitFor(events, (e) => e.type === 'project_permission.deleted');
    expect(of(events(), 'project_permission.created')).toEqual([{ id: 'reports', user_id: u.userId }]);
    expect(of(events(), 'project_permission.deleted')).toEqual([{ id: 'reports', user_id: u.userId }]);
  });
});
