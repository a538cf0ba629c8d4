// Direct permission grants: team permissions (per membership) and project permissions (per user). Definitions
// and containment live in permission-definitions.ts.
import { and, asc, eq } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';
import { isUuid } from './users';

const tg = schema.teamPermissionGrants;
const pg = schema.projectPermissionGrants;

// ---------------------------------------------------------------------------------------------------------------
// Team grants

export interface TeamGrant { teamId: string; userId: string; permissionId: string }

export async function listTeamGrants(db: DB, projectId: string, f: { teamId?: string; userId?: string }): Promise<TeamGrant[]> {
  if ((f.teamId && !isUuid(f.teamId)) || (f.userId && !isUuid(f.userId))) return [];
  const conditions = [eq(tg.projectId, projectId)];
  if (f.teamId) conditions.push(eq(tg.teamId, f.teamId));
  if (f.userId) conditions.push(eq(tg.userId, f.userId));
  return db.select({ teamId: tg.teamId, userId: tg.userId, permissionId: tg.permissionId }).from(tg)
    .where(and(...conditions)).orderBy(asc(tg.teamId), asc(tg.userId), asc(tg.permissionId));
}

/** Returns true when the grant is new. The membership must exist (foreign key). */
export async function grantTeamPermission(tx: DB, projectId: string, teamId: string, userId: string, permissionId: string): Promise<boolean> {
  const rows = await tx.insert(tg).values({ projectId, teamId, userId, permissionId }).onConflictDoNothing().returning({ id: tg.permissionId });
  return rows.length > 0;
}

export async function revokeTeamPermission(tx: DB, projectId: string, teamId: string, userId: string, permissionId: string): Promise<boolean> {
  const rows = await tx.delete(tg)
    .where(and(eq(tg.projectId, projectId), eq(tg.teamId, teamId), eq(tg.userId, userId), eq(tg.permissionId, permissionId)))
    .returning({ id: tg.permissionId });
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Project grants

export interface ProjectGrant { userId: string; permissionId: string }

export async function listProjectGrants(db: DB, projectId: string, f: { userId?: string }): Promise<ProjectGrant[]> {
  if (f.userId && !isUuid(f.userId)) return [];
  const conditions = [eq(pg.projectId, projectId)];
  if (f.userId) conditions.push(eq(pg.userId, f.userId));
  return db.select({ userId: pg.userId, permissionId: pg.permissionId }).from(pg)
    .where(and(...conditions)).orderBy(asc(pg.userId), asc(pg.permissionId));
}

export async function grantProjectPermission(tx: DB, projectId: string, userId: string, permissionId: string): Promise<boolean> {
  const rows = await tx.insert(pg).values({ projectId, userId, permissionId }).onConflictDoNothing().returning({ id: pg.permissionId });
  return rows.length > 0;
}

export async function revokeProjectPermission(tx: DB, projectId: string, userId: string, permissionId: string): Promise<boolean> {
  const rows = await tx.delete(pg)
    .where(and(eq(pg.projectId, projectId), eq(pg.userId, userId), eq(pg.permissionId, permissionId)))
    .returning({ id: pg.permissionId });
  return rows.length > 0;
}

/** The member's direct grants, or null when `userId` is not a member of the team (one query). */
export async function membershipGrants(db: DB, projectId: string, teamId: string, userId: string): Promise<string[] | null> {
  if (!isUuid(teamId) || !isUuid(userId)) return null;
  const m = schema.teamMembers;
  const g = schema.teamPermissionGrants;
  const rows = await db.select({ permissionId: g.permissionId }).from(m)
    .leftJoin(g, and(eq(g.teamId, m.teamId), eq(g.userId, m.userId)))
    .where(and(eq(m.projectId, projectId), eq(m.teamId, teamId), eq(m.userId, userId)));
  if (rows.length === 0) return null;
  return rows.flatMap((r) => (r.permissionId ? [r.permissionId] : []));
}
