// The one place client-side team operations check access: the caller must be a member of the team, then hold
// the named permission directly or through contained definitions (always recursive, protocol-resources §6).
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { expandPermissions, type TeamSystemPermissionId } from '@gatehouse/shared/rules/permissions';
import type { DB } from '../db';
import { definitionGraph } from '../repo/permission-definitions';
import { membershipGrants } from '../repo/permissions';

/** Every permission the member holds, directly or contained; null when not a member. */
export async function effectiveTeamPermissions(db: DB, projectId: string, teamId: string, userId: string): Promise<Set<string> | null> {
  const direct = await membershipGrants(db, projectId, teamId, userId);
  if (direct === null) return null;
  if (direct.length === 0) return new Set();
  return expandPermissions(direct, await definitionGraph(db, projectId, 'team'));
}

/**
 * Throws TEAM_MEMBERSHIP_NOT_FOUND when `userId` is not a member of the team (also for a team that does not
 * exist, so clients learn nothing about other teams), then TEAM_PERMISSION_REQUIRED for the first of
 * `permissionIds` (checked in order) that is not held.
 */
export async function assertTeamPermission(db: DB, projectId: string, teamId: string, userId: string, ...permissionIds: (TeamSystemPermissionId | undefined)[]): Promise<void> {
  const held = await effectiveTeamPermissions(db, projectId, teamId, userId);
  if (held === null) throw new KnownErrors.TeamMembershipNotFound(teamId, userId);
  for (const p of permissionIds) if (p && !held.has(p)) throw new KnownErrors.TeamPermissionRequired(teamId, userId, p);
}
