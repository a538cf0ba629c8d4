// Members' per-team display name and image (protocol-resources §4). Clients read profiles of their teams (someone
// else's needs `$read_members`) and change only their own; servers see each profile with its user.
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as members from '../repo/team-members';
import * as teams from '../repo/teams';
import * as users from '../repo/users';
import * as grants from '../repo/permissions';
import type { Caller } from '../auth/caller';
import { assertTeamPermission } from './permission-check';
import { requireClientUser } from './team-access';

/**
 * A profile as read: for servers and admins with the member's user; for a client (allowed to read it) the member's
 * primary email and direct team permissions (`roster`, Gatehouse's addition for the account kit's members table).
 */
export interface MemberProfile { profile: members.ProfileRow; user?: users.UserRow; roster?: { primaryEmail: string | null; permissionIds: string[] } }

/** The users of the profiles, for a server's view, in one read (one per member was 50 round trips for 50 members). */
async function withUsers(services: Services, caller: Caller, rows: members.ProfileRow[]): Promise<MemberProfile[]> {
  const loaded = await users.loadMany(services.db, caller.project.id, rows.map((r) => r.userId));
  if (caller.type === 'client') {
    // One read of the team's grants for the whole list (a client's list is one team's).
    const teamGrants = rows.length ? await grants.listTeamGrants(services.db, caller.project.id, { teamId: rows[0]!.teamId, userId: rows.length === 1 ? rows[0]!.userId : undefined }) : [];
    return rows.flatMap((profile) => {
      const user = loaded.get(profile.userId);
      if (!user) return [];
      const permissionIds = teamGrants.filter((g) => g.userId === profile.userId && g.teamId === profile.teamId).map((g) => g.permissionId);
      return [{ profile, roster: { primaryEmail: user.primary_email, permissionIds } }];
    });
  }
  // A user deleted between the two reads has no profile any more.
  return rows.flatMap((profile) => {
    const user = loaded.get(profile.userId);
    return user ? [{ profile, user }] : [];
  });
}

/** Client reading a profile: must be a member; someone else's profile needs `$read_members`. */
async function checkClientRead(services: Services, caller: Caller, teamId: string, targetUserId: string | undefined) {
  const user = await requireClientUser(services, caller);
  await assertTeamPermission(services.db, caller.project.id, teamId, user.id, targetUserId === user.id ? undefined : '$read_members');
}

async function loadOne(services: Services, caller: Caller, teamId: string, userId: string): Promise<MemberProfile> {
  const row = await members.getProfile(services.db, caller.project.id, teamId, userId);
  const [found] = row ? await withUsers(services, caller, [row]) : [];
  if (!found) throw new KnownErrors.TeamMembershipNotFound(teamId, userId);
  return found;
}

export async function listMemberProfiles(services: Services, input: { caller: Caller; teamId?: string; userId?: string }): Promise<MemberProfile[]> {
  const { caller, teamId, userId } = input;
  if (caller.type === 'client') {
    if (!teamId) throw new StatusError(400, 'team_id is required for access type client');
    await checkClientRead(services, caller, teamId, userId);
  } else {
    if (teamId && !(await teams.findTeam(services.db, caller.project.id, teamId))) throw new KnownErrors.TeamNotFound(teamId);
    if (userId !== undefined && !(await users.exists(services.db, caller.project.id, userId))) throw new KnownErrors.UserNotFound();
  }
  return withUsers(services, caller, await members.listProfiles(services.db, caller.project.id, { teamId, userId }));
}

export async function getMemberProfile(services: Services, input: { caller: Caller; teamId: string; userId: string }): Promise<MemberProfile> {
  if (input.caller.type === 'client') await checkClientRead(services, input.caller, input.teamId, input.userId);
  return loadOne(services, input.caller, input.teamId, input.userId);
}

export async function updateMemberProfile(services: Services, input: {
  caller: Caller; teamId: string; userId: string; displayName?: string; profileImageUrl?: string | null;
}): Promise<MemberProfile> {
  const { caller, teamId, userId } = input;
  if (caller.type === 'client') {
    const user = await requireClientUser(services, caller);
    if (userId !== user.id) throw new StatusError(403, "Cannot update another user's profile");
  }
  const updated = await members.updateProfile(services.db, caller.project.id, teamId, userId, { displayName: input.displayName, profileImageUrl: input.profileImageUrl });
  if (!updated) throw new KnownErrors.TeamMembershipNotFound(teamId, userId);
  return loadOne(services, caller, teamId, userId);
}
