// Teams, members, invitations, permissions and team profiles through the client and server apps (real service).
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sharedService, uniqueEmail, type SharedService } from '../../../service/test/support/service.ts';
import { newProject, type TestProject } from '../../../service/test/support/projects.ts';
import { extractCode } from '../../../service/test/support/smtp.ts';
import { KnownErrors } from '../../src/known-errors.ts';
import { CALLBACK, mailTo, serverFor, signedUpClient } from './service-helpers.ts';

setDefaultTimeout(90_000);

let svc: SharedService;
let project: TestProject;

beforeAll(async () => {
  svc = await sharedService();
  project = await newProject(svc, { config: { client_team_creation_enabled: true } });
}, 180_000);

describe('client teams', () => {
  test('createTeam selects it; list/get/update; creator permissions; own team profile', async () => {
    const { app, user } = await signedUpClient(project);
    const team = await user.createTeam({ displayName: 'Alpha' });
    expect(team.displayName).toBe('Alpha');
    const me = await app.getUser({ or: 'throw' });
    expect(me.selectedTeam?.id).toBe(team.id);
    expect((await me.listTeams()).map((t) => t.id)).toEqual([team.id]);
    expect((await me.getTeam(team.id))?.displayName).toBe('Alpha');
    expect(await me.getTeam('00000000-0000-4000-8000-000000000000')).toBeNull();

    await team.update({ displayName: 'Alpha 2', clientMetadata: { k: 1 } });
    const updated = (await me.getTeam(team.id))!;
    expect(updated).toMatchObject({ displayName: 'Alpha 2', clientMetadata: { k: 1 } });

    const perms = (await me.listPermissions(updated)).map((p) => p.id);
    expect(perms).toEqual(expect.arrayContaining(['admin', '$update_team', '$delete_team', '$invite_members', '$read_members', '$remove_members']));
    expect((await me.listPermissions(updated, { recursive: false })).map((p) => p.id)).toEqual(['admin']);
    expect(await me.hasPermission(updated, '$invite_members')).toBe(true);
    expect(await me.getPermission(updated, 'nope')).toBeNull();
    expect(await me.listPermissions()).toEqual([]); // project-level

    const profile = await me.getTeamProfile(updated);
    await profile.update({ displayName: 'Boss' });
    expect((await me.getTeamProfile(updated)).displayName).toBe('Boss');
    const members = await updated.listUsers();
    expect(members).toEqual([{ id: me.id, teamProfile: { displayName: 'Boss', profileImageUrl: null }, primaryEmail: me.primaryEmail, teamPermissionIds: ['admin'] }]);

    await me.setSelectedTeam(null);
    expect((await app.getUser({ or: 'throw' })).selectedTeam).toBeNull();
    await updated.delete();
    expect(await me.listTeams()).toEqual([]);
  });

  test('invite by email, check/describe/accept the code, list and revoke invitations, leave the team', async () => {
    const owner = await signedUpClient(project);
    const team = await owner.user.createTeam({ displayName: 'Beta' });
    const guest = await signedUpClient(project);
    await team.inviteUser({ email: guest.email, callbackUrl: `${CALLBACK}/team-invitation` });
    const invitations = await team.listInvitations();
    expect(invitations.map((i) => i.recipientEmail)).toEqual([guest.email]);
    expect(invitations[0]!.expiresAt.getTime()).toBeGreaterThan(Date.now());

    const mail = await mailTo(svc, guest.email, /invited to join Beta/);
    const code = extractCode(mail)!;
    const checked = await guest.app.verifyTeamInvitationCode(code);
    expect(checked.status === 'error' ? String(checked.error) : 'ok').toBe('ok');
    expect(await guest.app.getTeamInvitationDetails(code)).toEqual({ status: 'ok', data: { teamDisplayName: 'Beta' } });
    expect(await guest.app.acceptTeamInvitation(code)).toEqual({ status: 'ok', data: undefined });
    const again = await guest.app.acceptTeamInvitation(code);
    expect(again.status === 'error' && again.error).toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);
    const bogus = await guest.app.getTeamInvitationDetails('0'.repeat(45));
    expect(bogus.status === 'error' && bogus.error).toBeInstanceOf(KnownErrors.VerificationCodeNotFound);

    const guestUser = await guest.app.getUser({ or: 'throw' });
    const joined = (await guestUser.listTeams()).map((t) => t.id);
    expect(joined).toEqual([team.id]);
    expect((await team.listUsers()).length).toBe(2);
    expect((await guestUser.listPermissions(team)).map((p) => p.id)).toEqual(expect.arrayContaining(['member', '$read_members', '$invite_members']));

    await team.inviteUser({ email: uniqueEmail('other'), callbackUrl: `${CALLBACK}/team-invitation` });
    const pending = await team.listInvitations();
    expect(pending.length).toBe(1);
    await pending[0]!.revoke();
    expect(await team.listInvitations()).toEqual([]);

    await guestUser.leaveTeam(team);
    expect(await guestUser.listTeams()).toEqual([]);
  });
});

describe('server teams', () => {
  test('createTeam, addUser/removeUser, member list with server users, grant/revoke permissions, user team ops', async () => {
    const app = serverFor(project);
    const alice = await app.createUser({ primaryEmail: uniqueEmail('alice') });
    const bob = await app.createUser({ primaryEmail: uniqueEmail('bob') });
    const team = await app.createTeam({ displayName: 'Gamma', creatorUserId: alice.id });
    expect(team.createdAt).toBeInstanceOf(Date);
    expect((await app.getTeam(team.id))?.displayName).toBe('Gamma');
    expect((await app.listTeams()).map((t) => t.id)).toContain(team.id);

    await team.addUser(bob.id);
    const members = await team.listUsers();
    expect(members.map((m) => m.id).sort()).toEqual([alice.id, bob.id].sort());
    expect(members.find((m) => m.id === bob.id)!.primaryEmail).toBe(bob.primaryEmail);
    expect((await bob.listTeams()).map((t) => t.id)).toEqual([team.id]);

    expect(await bob.hasPermission(team, '$remove_members')).toBe(false);
    await bob.grantPermission(team, '$remove_members');
    expect(await bob.hasPermission(team, '$remove_members')).toBe(true);
    await bob.revokePermission(team, '$remove_members');
    expect(await bob.hasPermission(team, '$remove_members')).toBe(false);

    await team.update({ serverMetadata: { plan: 'pro' }, clientReadOnlyMetadata: { seats: 3 } });
    expect((await app.getTeam(team.id))).toMatchObject({ serverMetadata: { plan: 'pro' }, clientReadOnlyMetadata: { seats: 3 } });

    const profile = await bob.getTeamProfile(team);
    await profile.update({ displayName: 'Bobby' });
    expect((await bob.getTeamProfile(team)).displayName).toBe('Bobby');

    await team.removeUser(bob.id);
    expect((await team.listUsers()).map((m) => m.id)).toEqual([alice.id]);

    const own = await alice.createTeam({ displayName: 'Alice solo' });
    expect((await app.getUser(alice.id))?.selectedTeam?.id).toBe(own.id);
    await alice.leaveTeam(team);
    expect((await alice.listTeams()).map((t) => t.id)).toEqual([own.id]);
    await team.delete();
    expect(await app.getTeam(team.id)).toBeNull();
  });
});
