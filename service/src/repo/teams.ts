// Teams: rows, listing, create/update/delete (their webhook events are the callers', inside
// the same transaction: teams/team-changes.ts, users/create.ts).
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';
import type { Project } from './projects';
import { isUuid } from './users';
import { addMember } from './team-members';

export type TeamRow = typeof schema.teams.$inferSelect;
const t = schema.teams;

export async function findTeam(db: DB, projectId: string, teamId: string, lock?: 'share' | 'update'): Promise<TeamRow | null> {
  if (!isUuid(teamId)) return null;
  const q = db.select().from(t).where(and(eq(t.projectId, projectId), eq(t.id, teamId))).limit(1);
  const [row] = lock ? await q.for(lock) : await q;
  return row ?? null;
}

/** Teams of the project (or those `userId` is a member of), oldest first. */
export async function listTeams(db: DB, projectId: string, f: { userId?: string } = {}): Promise<TeamRow[]> {
  if (f.userId === undefined) return db.select().from(t).where(eq(t.projectId, projectId)).orderBy(asc(t.createdAt), asc(t.id));
  if (!isUuid(f.userId)) return [];
  const m = schema.teamMembers;
  const rows = await db.select({ team: t }).from(t).innerJoin(m, and(eq(m.teamId, t.id), eq(m.userId, f.userId)))
    .where(eq(t.projectId, projectId)).orderBy(asc(t.createdAt), asc(t.id));
  return rows.map((r) => r.team);
}

export interface NewTeam {
  displayName: string;
  profileImageUrl?: string | null;
  clientMetadata?: unknown;
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
  /** Added as a member with the project's team-creator default permissions (no membership events). */
  creatorUserId?: string;
  /** Make the team the creator's selected team (personal team at sign-up). */
  selectForCreator?: boolean;
}

/** Creates a team (and the creator's membership). Call inside a transaction; the caller emits `team.created`. */
export async function createTeam(tx: DB, project: Project, n: NewTeam): Promise<TeamRow> {
  const [row] = await tx.insert(t).values({
    projectId: project.id,
    displayName: n.displayName,
    profileImageUrl: n.profileImageUrl ?? null,
    clientMetadata: n.clientMetadata ?? null,
    clientReadOnlyMetadata: n.clientReadOnlyMetadata ?? null,
    serverMetadata: n.serverMetadata ?? null,
  }).returning();
  if (n.creatorUserId) await addMember(tx, project, row.id, n.creatorUserId, { role: 'creator', selected: n.selectForCreator });
  return row;
}

export interface TeamUpdate {
  displayName?: string;
  profileImageUrl?: string | null;
  clientMetadata?: unknown;
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
}

/** Updates a team (the caller emits `team.updated`). Returns null when the team does not exist. */
export async function updateTeam(tx: DB, projectId: string, teamId: string, u: TeamUpdate): Promise<TeamRow | null> {
  const set: Partial<typeof t.$inferInsert> = {};
  if (u.displayName !== undefined) set.displayName = u.displayName;
  if (u.profileImageUrl !== undefined) set.profileImageUrl = u.profileImageUrl;
  if (u.clientMetadata !== undefined) set.clientMetadata = u.clientMetadata;
  if (u.clientReadOnlyMetadata !== undefined) set.clientReadOnlyMetadata = u.clientReadOnlyMetadata;
  if (u.serverMetadata !== undefined) set.serverMetadata = u.serverMetadata;
  const row = Object.keys(set).length
    ? (await tx.update(t).set(set).where(and(eq(t.projectId, projectId), eq(t.id, teamId))).returning())[0]
    : await findTeam(tx, projectId, teamId);
  return row ?? null;
}

/**
 * Deletes a team (memberships and grants cascade) and its pending invitations; the caller emits `team.deleted` only.
 * Returns false when the team does not exist.
 */
export async function deleteTeam(tx: DB, projectId: string, teamId: string): Promise<boolean> {
  if (!isUuid(teamId)) return false;
  const rows = await tx.delete(t).where(and(eq(t.projectId, projectId), eq(t.id, teamId))).returning({ id: t.id });
  if (rows.length === 0) return false;
  const v = schema.verificationCodes;
  await tx.delete(v).where(and(eq(v.projectId, projectId), eq(v.type, 'team_invitation'), sql`${v.data}->>'team_id' = ${teamId}`));
  return true;
}
