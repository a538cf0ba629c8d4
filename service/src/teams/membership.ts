// Team memberships (protocol-resources §3). Joining a team as a member (POST /team-memberships, an accepted
// invitation): the membership with the project's default member permissions (repo/team-members.ts), and its events,
// in the caller's transaction. Leaving or being removed: `team_membership.deleted` in the same transaction.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { DB } from '../db';
import type { Events } from '../events';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import * as teams from '../repo/teams';
import * as users from '../repo/users';
import { addMember, removeMember } from '../repo/team-members';
import type { Caller } from '../auth/caller';
import { assertTeamPermission } from './permission-check';
import { requireClientUser } from './team-access';

/** Emits `team_membership.created`, then `team_permission.created` per default permission. False: already a member. */
export async function joinTeam(events: Events, tx: DB, project: Project, teamId: string, userId: string): Promise<boolean> {
  const added = await addMember(tx, project, teamId, userId, { role: 'member' });
  if (!added) return false;
  await events.emit(tx, project.id, 'team_membership.created', { team_id: teamId, user_id: userId });
  for (const id of added.permissionIds) await events.emit(tx, project.id, 'team_permission.created', { id, team_id: teamId, user_id: userId });
  return true;
}

/** POST /team-memberships/{team}/{user} (servers): adds the user as a member (TEAM_MEMBERSHIP_ALREADY_EXISTS). */
export async function addTeamMember(services: Services, input: { project: Project; teamId: string; userId: string }): Promise<void> {
  const { project, teamId, userId } = input;
  if (!(await users.exists(services.db, project.id, userId))) throw new KnownErrors.UserNotFound();
  if (!(await teams.findTeam(services.db, project.id, teamId))) throw new KnownErrors.TeamNotFound(teamId);
  const added = await services.db.transaction((tx) => joinTeam(services.events, tx, project, teamId, userId));
  if (!added) throw new KnownErrors.TeamMembershipAlreadyExists();
}

/**
 * DELETE /team-memberships/{team}/{user}: a server removes anyone; a client leaves, or removes another member with
 * `$remove_members`.
 */
export async function removeTeamMember(services: Services, input: { caller: Caller; teamId: string; userId: string }): Promise<void> {
  const { caller, teamId, userId } = input;
  const projectId = caller.project.id;
  if (caller.type === 'client') {
    const user = await requireClientUser(services, caller);
    if (userId !== user.id) await assertTeamPermission(services.db, projectId, teamId, user.id, '$remove_members');
  }
  const removed = await services.db.transaction(async (tx) => {
    const gone = await removeMember(tx, projectId, teamId, userId);
    if (gone) await services.events.emit(tx, projectId, 'team_membership.deleted', { team_id: teamId, user_id: userId });
    return gone;
  });
  if (!removed) throw new KnownErrors.TeamMembershipNotFound(teamId, userId);
}
