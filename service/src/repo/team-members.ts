// Team memberships (with the default permissions granted on join) and member profiles (per-team overrides of
// the user's display name and image).
import { and, asc, eq, sql } from 'drizzle-orm';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { DB } from '../db';
import { schema } from '../db';
import { foreignKeyConstraint } from '../db/errors';
import type { Project } from './projects';
import { isUuid } from './users';

const m = schema.teamMembers;

/** `lock: 'share'` keeps the membership from being removed until the transaction ends. */
export async function isMember(db: DB, projectId: string, teamId: string, userId: string, lock?: 'share'): Promise<boolean> {
  if (!isUuid(teamId) || !isUuid(userId)) return false;
  const q = db.select({ u: m.userId }).from(m)
    .where(and(eq(m.projectId, projectId), eq(m.teamId, teamId), eq(m.userId, userId))).limit(1);
  const [row] = lock ? await q.for(lock) : await q;
  return !!row;
}

/**
 * Adds a member and grants the project's default permissions for its role (direct grants): returns the granted
 * permission ids, or null (and changes nothing) when the user already is a member. Call inside a transaction.
 * The events of a member's join are the caller's (teams/membership.ts); a team creator's join has none.
 */
export async function addMember(tx: DB, project: Project, teamId: string, userId: string, o: { role: 'creator' | 'member'; selected?: boolean }): Promise<{ permissionIds: string[] } | null> {
  let inserted: unknown[];
  try {
    inserted = await tx.insert(m).values({ projectId: project.id, teamId, userId, isSelected: o.selected ?? false })
      .onConflictDoNothing().returning({ u: m.userId });
  } catch (err) {
    const fk = foreignKeyConstraint(err);
    if (fk === undefined) throw err;
    if (fk.includes('user')) throw new KnownErrors.UserNotFound();
    throw new KnownErrors.TeamNotFound(teamId);
  }
  if (inserted.length === 0) return null;
  const defaults = o.role === 'creator' ? project.config.team_creator_default_permissions : project.config.team_member_default_permissions;
  const ids = [...new Set(defaults.map((p) => p.id))];
  if (ids.length) {
    await tx.insert(schema.teamPermissionGrants).values(ids.map((permissionId) => ({ projectId: project.id, teamId, userId, permissionId }))).onConflictDoNothing();
  }
  return { permissionIds: ids };
}

/** Removes a membership (its direct grants and selected flag go with it); the caller emits `team_membership.deleted`. */
export async function removeMember(tx: DB, projectId: string, teamId: string, userId: string): Promise<boolean> {
  if (!isUuid(teamId) || !isUuid(userId)) return false;
  const rows = await tx.delete(m).where(and(eq(m.projectId, projectId), eq(m.teamId, teamId), eq(m.userId, userId))).returning({ u: m.userId });
  return rows.length > 0;
}

export interface ProfileRow { teamId: string; userId: string; displayName: string | null; profileImageUrl: string | null }

const profileColumns = {
  teamId: m.teamId,
  userId: m.userId,
  displayName: sql<string | null>`coalesce(${m.displayName}, ${schema.users.displayName})`,
  profileImageUrl: sql<string | null>`coalesce(${m.profileImageUrl}, ${schema.users.profileImageUrl})`,
};

/** Member profiles (override, else the user's own value), in order of joining. */
export async function listProfiles(db: DB, projectId: string, f: { teamId?: string; userId?: string }): Promise<ProfileRow[]> {
  if ((f.teamId && !isUuid(f.teamId)) || (f.userId && !isUuid(f.userId))) return [];
  const conditions = [eq(m.projectId, projectId)];
  if (f.teamId) conditions.push(eq(m.teamId, f.teamId));
  if (f.userId) conditions.push(eq(m.userId, f.userId));
  return db.select(profileColumns).from(m).innerJoin(schema.users, eq(schema.users.id, m.userId))
    .where(and(...conditions)).orderBy(asc(m.createdAt), asc(m.userId));
}

export async function getProfile(db: DB, projectId: string, teamId: string, userId: string): Promise<ProfileRow | null> {
  if (!isUuid(teamId) || !isUuid(userId)) return null;
  return (await listProfiles(db, projectId, { teamId, userId }))[0] ?? null;
}

/** Sets the member's overrides; false when the membership does not exist. */
export async function updateProfile(db: DB, projectId: string, teamId: string, userId: string, u: { displayName?: string; profileImageUrl?: string | null }): Promise<boolean> {
  if (!isUuid(teamId) || !isUuid(userId)) return false;
  const set: Partial<typeof m.$inferInsert> = {};
  if (u.displayName !== undefined) set.displayName = u.displayName;
  if (u.profileImageUrl !== undefined) set.profileImageUrl = u.profileImageUrl;
  const where = and(eq(m.projectId, projectId), eq(m.teamId, teamId), eq(m.userId, userId));
  if (Object.keys(set).length === 0) return isMember(db, projectId, teamId, userId);
  const rows = await db.update(m).set(set).where(where).returning({ u: m.userId });
  return rows.length > 0;
}

/** Makes `teamId` the user's selected team (null: none). TEAM_MEMBERSHIP_NOT_FOUND when the user is not a member. */
export async function selectTeam(tx: DB, projectId: string, userId: string, teamId: string | null): Promise<void> {
  if (teamId !== null) {
    const [member] = await tx.select({ teamId: m.teamId }).from(m).where(and(eq(m.projectId, projectId), eq(m.userId, userId), eq(m.teamId, teamId))).limit(1);
    if (!member) throw new KnownErrors.TeamMembershipNotFound(teamId, userId);
  }
  await tx.update(m).set({ isSelected: false }).where(and(eq(m.projectId, projectId), eq(m.userId, userId), eq(m.isSelected, true)));
  if (teamId !== null) await tx.update(m).set({ isSelected: true }).where(and(eq(m.projectId, projectId), eq(m.userId, userId), eq(m.teamId, teamId)));
}
