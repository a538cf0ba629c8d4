// Who may act on a team (protocol-resources §2, §6): a client must be signed in, a member, and hold the named
// permissions; servers and admins act on any team of the project. Either way the team must exist.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { TeamSystemPermissionId } from '@gatehouse/shared/rules/permissions';
import type { Services } from '../services';
import * as teams from '../repo/teams';
import type { UserRow } from '../repo/users';
import { requireSignedInUser, type Caller } from '../auth/caller';
import { assertTeamPermission } from './permission-check';

/** The signed-in user of a client request (USER_AUTHENTICATION_REQUIRED without one). */
export function requireClientUser(services: Pick<Services, 'db'>, caller: Caller): Promise<UserRow> {
  return requireSignedInUser(services, caller, () => new KnownErrors.UserAuthenticationRequired());
}

/**
 * Client: signed in, a member, and holding each permission in order (TEAM_MEMBERSHIP_NOT_FOUND first, then
 * TEAM_PERMISSION_REQUIRED). Any caller: the team exists (TEAM_NOT_FOUND). Returns the team.
 */
export async function accessibleTeam(services: Pick<Services, 'db'>, caller: Caller, teamId: string, ...permissions: (TeamSystemPermissionId | undefined)[]): Promise<teams.TeamRow> {
  if (caller.type === 'client') {
    const user = await requireClientUser(services, caller);
    await assertTeamPermission(services.db, caller.project.id, teamId, user.id, ...permissions);
  }
  const team = await teams.findTeam(services.db, caller.project.id, teamId);
  if (!team) throw new KnownErrors.TeamNotFound(teamId);
  return team;
}
