// /team-memberships and /team-member-profiles over HTTP: adding (defaults granted), leaving and removing
// (`$remove_members`), profile overrides, client read rules, access types and isolation.
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { expectKnownError, sharedService } from './support/service';
import { newProject, signUp } from './support/projects';
import { addMember, serverCreateTeam, teamWithCreatorAndMember } from './support/teams';

setDefaultTimeout(60_000);

const project = async () => newProject(await sharedService());
const PNG = 'data:image/png;base64,iVBORw0KGgo=';

describe('memberships', () => {
  test('server adds a member: 201 {team_id, user_id}, member defaults granted; errors in order', async () => {
    const p = await project();
    const u = await signUp(p);
    const team = await serverCreateTeam(p);
    expectKnownError(await p.client.post(`/team-memberships/${team.id}/${u.userId}`, {}, { accessToken: u.accessToken }), 'INSUFFICIENT_ACCESS_TYPE', 401);
    expectKnownError(await p.server.post(`/team-memberships/${crypto.randomUUID()}/${crypto.randomUUID()}`, {}), 'USER_NOT_FOUND', 404);
    const noTeam = await p.server.post(`/team-memberships/${crypto.randomUUID()}/${u.userId}`, {});
    expectKnownError(noTeam, 'TEAM_NOT_FOUND', 404);

    const res = await p.server.post(`/team-memberships/${team.id}/${u.userId}`, {});
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ team_id: team.id, user_id: u.userId });
    const perms = await p.server.get(`/team-permissions?team_id=${team.id}&user_id=${u.userId}`);
    expect(perms.body.items).toEqual([{ id: 'member', team_id: team.id, user_id: u.userId }]);

    const again = await p.admin.post(`/team-memberships/${team.id}/${u.userId}`);
    expectKnownError(again, 'TEAM_MEMBERSHIP_ALREADY_EXISTS', 409);
    expect(again.body.error).toBe('Team membership already exists.');
    expectKnownError(await p.server.post(`/team-memberships/${team.id}/${u.userId}`, { x: 1 }), 'SCHEMA_ERROR', 400);

    const listed = await p.server.get(`/users?team_id=${team.id}`);
    expect(listed.body.items.map((x: { id: string }) => x.id)).toEqual([u.userId]);
  });

  test('me resolves to the session user', async () => {
    const p = await project();
    const u = await signUp(p);
    const team = await serverCreateTeam(p);
    const res = await p.server.post(`/team-memberships/${team.id}/me`, {}, { accessToken: u.accessToken });
    expect(res.body).toEqual({ team_id: team.id, user_id: u.userId });
    expectKnownError(await p.server.post(`/team-memberships/${team.id}/me`, {}), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
  });

  test('client leaves; removing others needs $remove_members', async () => {
    const p = await project();
    const { team, creator, member } = await teamWithCreatorAndMember(p);
    const third = await signUp(p);
    await addMember(p, team.id, third.userId);
    const outsider = await signUp(p);

    expectKnownError(await p.client.delete(`/team-memberships/${team.id}/${creator.userId}`, { accessToken: outsider.accessToken }), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    const denied = await p.client.delete(`/team-memberships/${team.id}/${third.userId}`, { accessToken: member.accessToken });
    expectKnownError(denied, 'TEAM_PERMISSION_REQUIRED', 401);
    expect(denied.body.details.permission_id).toBe('$remove_members');

    const removed = await p.client.delete(`/team-memberships/${team.id}/${third.userId}`, { accessToken: creator.accessToken });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true });
    // Its direct permissions went with the membership.
    expect((await p.server.get(`/team-permissions?user_id=${third.userId}`)).body.items).toEqual([]);

    const left = await p.client.delete(`/team-memberships/${team.id}/me`, { accessToken: member.accessToken });
    expect(left.body).toEqual({ success: true });
    const gone = await p.client.delete(`/team-memberships/${team.id}/me`, { accessToken: member.accessToken });
    expectKnownError(gone, 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    expect(gone.body).toMatchObject({ error: `User ${member.userId} is not found in team ${team.id}.`, details: { team_id: team.id, user_id: member.userId } });
    expectKnownError(await p.client.delete(`/team-memberships/${team.id}/me`), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
  });

  test('server removal clears the selected team', async () => {
    const p = await newProject(await sharedService(), { config: { create_team_on_sign_up: true } });
    const u = await signUp(p);
    const teamId = (await p.server.get(`/users/${u.userId}`)).body.selected_team_id;
    expect(teamId).toBeTruthy();
    expectKnownError(await p.server.delete(`/team-memberships/${teamId}/${crypto.randomUUID()}`), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    expect((await p.server.delete(`/team-memberships/${teamId}/${u.userId}`)).body).toEqual({ success: true });
    const after = await p.server.get(`/users/${u.userId}`);
    expect(after.body.selected_team_id).toBeNull();
    expect(after.body.selected_team).toBeNull();
  });

  test("another project's team or user is not found", async () => {
    const svc = await sharedService();
    const a = await newProject(svc);
    const b = await newProject(svc);
    const ua = await signUp(a);
    const ub = await signUp(b);
    const teamA = await serverCreateTeam(a);
    const teamB = await serverCreateTeam(b, { creator_user_id: ub.userId });
    expectKnownError(await a.server.post(`/team-memberships/${teamA.id}/${ub.userId}`, {}), 'USER_NOT_FOUND', 404);
    expectKnownError(await a.server.post(`/team-memberships/${teamB.id}/${ua.userId}`, {}), 'TEAM_NOT_FOUND', 404);
    expectKnownError(await a.server.delete(`/team-memberships/${teamB.id}/${ub.userId}`), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    expect((await b.server.get(`/users?team_id=${teamB.id}`)).body.items).toHaveLength(1);
  });
});

describe('member profiles', () => {
  test('list: client needs team_id, membership, and $read_members unless only self; server filters', async () => {
    const p = await project();
    const { team, creator, member } = await teamWithCreatorAndMember(p);
    const outsider = await signUp(p);

    const noTeam = await p.client.get('/team-member-profiles', { accessToken: member.accessToken });
    expect(noTeam.status).toBe(400);
    expect(noTeam.text).toBe('team_id is required for access type client');
    expectKnownError(await p.client.get(`/team-member-profiles?team_id=${team.id}`, { accessToken: outsider.accessToken }), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    expectKnownError(await p.client.get(`/team-member-profiles?team_id=${team.id}`), 'USER_AUTHENTICATION_REQUIRED', 401);

    const all = await p.client.get(`/team-member-profiles?team_id=${team.id}`, { accessToken: member.accessToken });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      is_paginated: false,
      items: [
        { team_id: team.id, user_id: creator.userId, display_name: null, profile_image_url: null, primary_email: creator.email, team_permission_ids: expect.any(Array) },
        { team_id: team.id, user_id: member.userId, display_name: null, profile_image_url: null, primary_email: member.email, team_permission_ids: ['member'] },
      ],
    });
    // Gatehouse's roster additions (issue 25): who each member is, and what they were granted in this team.
    expect(all.body.items[0].team_permission_ids.length).toBeGreaterThan(0);

    // Without $read_members a member sees only itself.
    await p.server.delete(`/team-permissions/${team.id}/${member.userId}/member`);
    expectKnownError(await p.client.get(`/team-member-profiles?team_id=${team.id}`, { accessToken: member.accessToken }), 'TEAM_PERMISSION_REQUIRED', 401);
    const self = await p.client.get(`/team-member-profiles?team_id=${team.id}&user_id=me`, { accessToken: member.accessToken });
    expect(self.body.items.map((i: { user_id: string }) => i.user_id)).toEqual([member.userId]);

    const server = await p.server.get(`/team-member-profiles?user_id=${creator.userId}`);
    expect(server.body.items).toHaveLength(1);
    expect(Object.keys(server.body.items[0]).sort()).toEqual(['display_name', 'profile_image_url', 'team_id', 'user', 'user_id']);
    expect(server.body.items[0].user).toMatchObject({ id: creator.userId, primary_email: creator.email, server_metadata: null });
    expect((await p.server.get(`/team-member-profiles?team_id=${team.id}`)).body.items).toHaveLength(2);
    expectKnownError(await p.server.get(`/team-member-profiles?team_id=${crypto.randomUUID()}`), 'TEAM_NOT_FOUND', 404);
    expectKnownError(await p.server.get(`/team-member-profiles?user_id=${crypto.randomUUID()}`), 'USER_NOT_FOUND', 404);
  });

  test('get and patch: overrides stick; the profile follows the user only without one', async () => {
    const p = await project();
    const { team, creator, member } = await teamWithCreatorAndMember(p);
    const outsider = await signUp(p);
    await p.server.patch(`/users/${member.userId}`, { display_name: 'Member Name' });

    const got = await p.client.get(`/team-member-profiles/${team.id}/${member.userId}`, { accessToken: creator.accessToken });
    expect(got.body).toEqual({ team_id: team.id, user_id: member.userId, display_name: 'Member Name', profile_image_url: null, primary_email: member.email, team_permission_ids: ['member'] });
    expectKnownError(await p.client.get(`/team-member-profiles/${team.id}/${outsider.userId}`, { accessToken: creator.accessToken }), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    expectKnownError(await p.server.get(`/team-member-profiles/${team.id}/${outsider.userId}`), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);

    const other = await p.client.patch(`/team-member-profiles/${team.id}/${creator.userId}`, { display_name: 'x' }, { accessToken: member.accessToken });
    expect(other.status).toBe(403);
    expect(other.text).toBe("Cannot update another user's profile");
    expectKnownError(await p.client.patch(`/team-member-profiles/${team.id}/me`, { display_name: 'x' }, { accessToken: outsider.accessToken }), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);

    const patched = await p.client.patch(`/team-member-profiles/${team.id}/me`, { display_name: 'In-team name', profile_image_url: PNG }, { accessToken: member.accessToken });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ team_id: team.id, user_id: member.userId, display_name: 'In-team name', profile_image_url: PNG, primary_email: member.email, team_permission_ids: ['member'] });
    // One limit for display names (shared/src/rules/names.ts, issue 25).
    expectKnownError(await p.client.patch(`/team-member-profiles/${team.id}/me`, { display_name: 'x'.repeat(101) }, { accessToken: member.accessToken }), 'SCHEMA_ERROR', 400);

    await p.server.patch(`/users/${member.userId}`, { display_name: 'Changed later' });
    await p.server.patch(`/users/${creator.userId}`, { display_name: 'Creator Name' });
    const afterMember = await p.server.get(`/team-member-profiles/${team.id}/${member.userId}`);
    expect(afterMember.body).toMatchObject({ display_name: 'In-team name', profile_image_url: PNG });
    expect(afterMember.body.user).toMatchObject({ id: member.userId, display_name: 'Changed later' });
    const afterCreator = await p.client.get(`/team-member-profiles/${team.id}/${creator.userId}`, { accessToken: member.accessToken });
    expect(afterCreator.body.display_name).toBe('Creator Name');

    const byServer = await p.server.patch(`/team-member-profiles/${team.id}/${creator.userId}`, { display_name: 'Boss' });
    expect(byServer.body).toMatchObject({ display_name: 'Boss', user: { id: creator.userId } });
    expectKnownError(await p.server.patch(`/team-member-profiles/${team.id}/${creator.userId}`, { bio: 'x' }), 'SCHEMA_ERROR', 400);

    // A member without $read_members may read only its own profile.
    await p.server.delete(`/team-permissions/${team.id}/${member.userId}/member`);
    expectKnownError(await p.client.get(`/team-member-profiles/${team.id}/${creator.userId}`, { accessToken: member.accessToken }), 'TEAM_PERMISSION_REQUIRED', 401);
    expect((await p.client.get(`/team-member-profiles/${team.id}/me`, { accessToken: member.accessToken })).status).toBe(200);
  });
});
