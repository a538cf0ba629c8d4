// Email domains claimed by teams (db/schema-enterprise.ts `team_domains`).
import { and, asc, eq, isNotNull, lt, or, isNull, sql } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';
import { isUniqueViolation } from '../db/errors';
import { isUuid } from './users';

export type TeamDomainRow = typeof schema.teamDomains.$inferSelect;
const d = schema.teamDomains;

/** The new claim, or null when the team has already claimed the domain. */
export async function insertClaim(db: DB, r: { projectId: string; teamId: string; domain: string; challenge: string }): Promise<TeamDomainRow | null> {
  try {
    const [row] = await db.insert(d).values(r).returning();
    return row!;
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

export async function listForTeam(db: DB, projectId: string, teamId: string): Promise<TeamDomainRow[]> {
  return db.select().from(d).where(and(eq(d.projectId, projectId), eq(d.teamId, teamId))).orderBy(asc(d.createdAt), asc(d.id));
}

export async function find(db: DB, projectId: string, teamId: string, id: string): Promise<TeamDomainRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(d).where(and(eq(d.projectId, projectId), eq(d.teamId, teamId), eq(d.id, id))).limit(1);
  return row ?? null;
}

export async function remove(db: DB, projectId: string, teamId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db.delete(d).where(and(eq(d.projectId, projectId), eq(d.teamId, teamId), eq(d.id, id))).returning({ id: d.id });
  return rows.length > 0;
}

/**
 * Records a check. `verified` true: the record was found (verified since the first such check); false: it was
 * definitely missing (the domain is no longer verified). Returns null when another team verified the domain first
 * (the one-verified-team-per-domain index decides a race).
 */
export async function recordCheck(db: DB, row: TeamDomainRow, verified: boolean, problem: string | null, at: Date): Promise<TeamDomainRow | null> {
  try {
    const [updated] = await db.update(d).set({
      verifiedAt: verified ? (row.verifiedAt ?? at) : null,
      lastCheckedAt: at,
      lastCheckProblem: problem,
    }).where(and(eq(d.projectId, row.projectId), eq(d.id, row.id))).returning();
    return updated ?? null;
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

/** A lookup that failed proves nothing: only the time and the problem are recorded. */
export async function recordInconclusiveCheck(db: DB, row: TeamDomainRow, problem: string, at: Date): Promise<TeamDomainRow | null> {
  const [updated] = await db.update(d).set({ lastCheckedAt: at, lastCheckProblem: problem })
    .where(and(eq(d.projectId, row.projectId), eq(d.id, row.id))).returning();
  return updated ?? null;
}

/** Whether another team of the project has this domain verified. */
export async function verifiedElsewhere(db: DB, projectId: string, teamId: string, domain: string): Promise<boolean> {
  const [row] = await db.select({ id: d.id }).from(d)
    .where(and(eq(d.projectId, projectId), eq(d.domain, domain), isNotNull(d.verifiedAt), sql`${d.teamId} <> ${teamId}`)).limit(1);
  return row !== undefined;
}

/** Whether the team has this domain verified. */
export async function isVerifiedFor(db: DB, projectId: string, teamId: string, domain: string): Promise<boolean> {
  const [row] = await db.select({ id: d.id }).from(d)
    .where(and(eq(d.projectId, projectId), eq(d.teamId, teamId), eq(d.domain, domain), isNotNull(d.verifiedAt))).limit(1);
  return row !== undefined;
}

/** Verified domains last checked before `before` (any project: the background re-check), oldest check first. */
export async function dueForRecheck(db: DB, before: Date, limit: number): Promise<TeamDomainRow[]> {
  return db.select().from(d)
    .where(and(isNotNull(d.verifiedAt), or(isNull(d.lastCheckedAt), lt(d.lastCheckedAt, before))))
    .orderBy(asc(d.lastCheckedAt)).limit(limit);
}
