// The one place client-side team operations check access: the caller must be a member of the team, then hold
// the named permission directly or through contained definitions (always recursive, protocol-resources §6).
import { and, eq } from 'drizzle-orm';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { expandPermissions, type TeamSystemPermissionId } from '@gatehouse/shared/rules/permissions';
import type { DB } from '../db';
import { schema } from '../db';
import { definitionGraph } from '../repo/permission-definitions';
import { isUuid } from '../repo/users';

/** The member's direct grants, or null when `userId` is not a member of the team (one query). */
async function membershipGrants(db: DB, projectId: string, teamId: string, userId: string): Promise<string[] | null> {
  if (!isUuid(teamId) || !isUuid(userId)) return null;
  const m = schema.teamMembers;
  const g = schema.teamPermissionGrants;
  const rows = await db.select({ permissionId: g.permissionId }).from(m)
    .leftJoin(g, and(eq(g.teamId, m.teamId), eq(g.userId, m.userId)))
    .where(and(eq(m.projectId, projectId), eq(m.teamId, teamId), eq(m.userId, userId)));
  if (rows.length === 0) return null;
  return rows.flatMap((r) => (r.permissionId ? [r.permissionId] : []));
}

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
