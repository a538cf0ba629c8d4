// Joining a team as a member (POST /team-memberships, an accepted invitation): the membership with the project's
// default member permissions (repo/team-members.ts), and its events, in the caller's transaction.
import type { DB } from '../db';
import type { Events } from '../events';
import type { Project } from '../repo/projects';
import { addMember } from '../repo/team-members';

/** Emits `team_membership.created`, then `team_permission.created` per default permission. False: already a member. */
export async function joinTeam(events: Events, tx: DB, project: Project, teamId: string, userId: string): Promise<boolean> {
  const added = await addMember(tx, project, teamId, userId, { role: 'member' });
  if (!added) return false;
  await events.emit(tx, project.id, 'team_membership.created', { team_id: teamId, user_id: userId });
  for (const id of added.permissionIds) await events.emit(tx, project.id, 'team_permission.created', { id, team_id: teamId, user_id: userId });
  return true;
}
