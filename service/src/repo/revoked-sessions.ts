// Revoked sessions (table `revoked_sessions`, filled by a trigger on `sessions`; auth/revoked-sessions.ts keeps them
// in memory).
import { gt, sql } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';

const r = schema.revokedSessions;

/**
 * Sessions revoked after `since` (a database time; default: the last `windowSeconds`), with the database's time
 * now (read by the same statement, so the next read can start from it).
 */
export async function revokedSince(db: DB, since: Date | null, windowSeconds: number): Promise<{ id: string; at: string | Date; now: string }[]> {
  const from = since ? sql`${since.toISOString()}::timestamptz` : sql`now() - make_interval(secs => ${windowSeconds})`;
  return db.select({ id: r.sessionId, at: r.revokedAt, now: sql<string>`now()` }).from(r).where(gt(r.revokedAt, from));
}

/** Deletes the rows revoked more than `seconds` ago (no instance needs them any more). */
export async function pruneRevoked(db: DB, seconds: number): Promise<void> {
  await db.delete(r).where(sql`${r.revokedAt} < now() - make_interval(secs => ${seconds})`);
}
