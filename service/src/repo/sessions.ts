// Sessions: one refresh-token record each. Refresh tokens are stored only as sha256 hashes.
import { and, desc, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import { generateSecureCode } from '@gatehouse/shared/rules/codes';
import { schema, type DB } from '../db';
import { refundStatement, refundValues } from './rate-limits';
import { PreparedSql, preparedByShape } from '../db/prepared-sql';
import { ReadCache } from '../db/read-cache';
import { hashSecret } from '../db/secret-hash';

const s = schema.sessions;
export type SessionRow = typeof s.$inferSelect;
export const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

/** A session about to be written: the values of its insert's placeholders, and its refresh token (held as a hash). */
export interface NewSession { values: Record<string, unknown>; refreshToken: string }

/**
 * The values of a new session's row (`insert`, or `sessionInsertSql` in a statement that writes more). With `used`,
 * the sign-in that creates it is its first use, written with the row (at the row's `created_at`, and `ipInfo`), so the
 * activity flush need not rewrite the row a moment later (auth/activity.ts). `userAgent`: the signing-in browser's,
 * kept for the sessions list.
 */
export function newSession(p: {
  projectId: string; userId: string; expiresInMs?: number | null; isImpersonation?: boolean; used?: { ipInfo: unknown }; userAgent?: string | null;
}): NewSession {
  const refreshToken = generateSecureCode();
  const expiresAt = p.expiresInMs === null ? null : new Date(Date.now() + (p.expiresInMs ?? ONE_YEAR_MS));
  const ipInfo = p.used?.ipInfo ?? null;
  return {
    refreshToken,
    values: {
      projectId: p.projectId, userId: p.userId, refreshTokenHash: hashSecret(refreshToken), expiresAt: expiresAt?.toISOString() ?? null,
      isImpersonation: p.isImpersonation ?? false, used: p.used ? true : false, ipInfo: ipInfo == null ? null : JSON.stringify(ipInfo),
      userAgent: p.userAgent ?? null,
    },
  };
}

/** A written session: its id and the time of its first use (null without `used`). */
export interface InsertedSession { sessionId: string; usedAt: Date | null }
export type InsertedSessionRow = { id: string; used_ms: number | null };
export const insertedSessionOf = (row: InsertedSessionRow): InsertedSession =>
  ({ sessionId: row.id, usedAt: row.used_ms == null ? null : new Date(Number(row.used_ms)) });

/**
 * Inserts a session (`newSession`). `refund`: rate-limit hits a successful sign-in gives back (auth/rate-limits.ts
 * `countAttempt`), taken back by the same statement (repo/rate-limits.ts `refundStatement`).
 */
export async function insert(db: DB, session: NewSession, refund: readonly { key: string; windowStart: string }[] = []): Promise<InsertedSession> {
  const [row] = await insertSession(refund.length).rows<InsertedSessionRow>(db, { ...refundValues(refund), ...session.values });
  return insertedSessionOf(row!);
}

/** `newSession` and `insert` in one call; returns the refresh token too. */
export async function create(db: DB, p: Parameters<typeof newSession>[0] & { refund?: readonly { key: string; windowStart: string }[] }): Promise<{ sessionId: string; refreshToken: string; usedAt: Date | null }> {
  const session = newSession(p);
  return { ...(await insert(db, session, p.refund ?? [])), refreshToken: session.refreshToken };
}

/**
 * The insert of a `newSession` (its values' placeholders), returning `InsertedSessionRow`: alone, after a refund, or in
 * a statement that creates the user too (repo/user-writes.ts `insertPlainUser`).
 */
export const sessionInsertSql = () => sql`
  insert into sessions (project_id, user_id, refresh_token_hash, expires_at, is_impersonation, last_used_at, last_used_ip_info, user_agent)
  values (${sql.placeholder('projectId')}, ${sql.placeholder('userId')}::uuid, ${sql.placeholder('refreshTokenHash')},
    ${sql.placeholder('expiresAt')}::timestamptz, ${sql.placeholder('isImpersonation')}::boolean,
    case when ${sql.placeholder('used')}::boolean then now() end, ${sql.placeholder('ipInfo')}::jsonb, ${sql.placeholder('userAgent')}::text)
  returning id, (extract(epoch from last_used_at) * 1000)::float8 as used_ms`;

// The insert, carrying n refunds (none but for a password sign-in): prepared once per n, as every sign-in runs it.
const insertSession = preparedByShape((n: number) => new PreparedSql(n ? `sessions_insert_with_refund_${n}` : 'sessions_insert', () => sql`
  ${n ? sql`with refund as (${refundStatement(n)})` : sql``}
  ${sessionInsertSql()}`));

/** The live session holding this refresh token in this project, if any. */
// Runs on every refresh grant: prepared once per database handle, like users.load. Expiry is judged at each use
// (the row may be reused from memory, below).
const prepareFindByRefreshToken = (db: DB) => db.select({ id: s.id, userId: s.userId, expiresAt: s.expiresAt, createdAt: s.createdAt }).from(s).where(and(
  eq(s.refreshTokenHash, sql.placeholder('hash')),
  eq(s.projectId, sql.placeholder('projectId')),
)).limit(1).prepare('sessions_find_by_refresh_token');
const preparedFinds = new WeakMap<DB, ReturnType<typeof prepareFindByRefreshToken>>();

// On the embedded database the lookup is reused until a write that may change it (db/read-cache.ts): the sessions
// table itself (a revocation is a delete naming it), and the tables whose writes reach it (the user and project
// deletes that cascade to it, derived from the schema). Only sessions found are kept: a guessed token's miss would
// only fill the cache.
type FoundSession = { id: string; userId: string; expiresAt: Date | null; createdAt: Date };
// On PostgreSQL the found session is kept too, dropped by the change notices of drizzle/0026 (db/change-notices.ts):
// its deletion (a revocation, its user's or project's deletion) or a change of what the lookup reads.
export const sessionLookupCache = new ReadCache<FoundSession | null>(5000, ['sessions'], {
  keep: (found) => found !== null,
  onPostgres: { keep: (found) => found !== null, dependsOn: (_key, found) => [`session:${found!.id}`], maxAgeMs: 60_000 },
});
const findCache = sessionLookupCache;

export async function findByRefreshToken(db: DB, projectId: string, refreshToken: string): Promise<{ id: string; userId: string; createdAt: Date } | null> {
  const hash = hashSecret(refreshToken);
  const found = await findCache.read(db, `${projectId} ${hash}`, async () => {
    let query = preparedFinds.get(db);
    if (!query) preparedFinds.set(db, (query = prepareFindByRefreshToken(db)));
    const [row] = await query.execute({ hash, projectId });
    return row ?? null;
  });
  if (!found || (found.expiresAt !== null && new Date(found.expiresAt).getTime() <= Date.now())) return null;
  return { id: found.id, userId: found.userId, createdAt: new Date(found.createdAt) };
}

/** When the session was last used (refreshed or signed in with), read from the table (the lookup above may be cached). */
export async function lastUsedAt(db: DB, projectId: string, sessionId: string): Promise<Date | null> {
  const [row] = await db.select({ at: s.lastUsedAt, createdAt: s.createdAt }).from(s).where(and(eq(s.projectId, projectId), eq(s.id, sessionId))).limit(1);
  return row ? row.at ?? row.createdAt : null;
}

export async function find(db: DB, projectId: string, sessionId: string) {
  const [row] = await db.select().from(s).where(and(eq(s.projectId, projectId), eq(s.id, sessionId))).limit(1);
  return row ?? null;
}

export async function listForUser(db: DB, projectId: string, userId: string, opts: { includeImpersonation: boolean }) {
  const conditions = [eq(s.projectId, projectId), eq(s.userId, userId), or(isNull(s.expiresAt), gt(s.expiresAt, sql`now()`))];
  if (!opts.includeImpersonation) conditions.push(eq(s.isImpersonation, false));
  return db.select().from(s).where(and(...conditions)).orderBy(desc(s.createdAt));
}

export async function revoke(db: DB, projectId: string, sessionId: string): Promise<boolean> {
  const rows = await db.delete(s).where(and(eq(s.projectId, projectId), eq(s.id, sessionId))).returning({ id: s.id });
  return rows.length > 0;
}

/** Ends every session of the user, except `keepSessionId` when given. */
export async function revokeAllForUser(db: DB, projectId: string, userId: string, keepSessionId?: string) {
  const conditions = [eq(s.projectId, projectId), eq(s.userId, userId)];
  if (keepSessionId) conditions.push(ne(s.id, keepSessionId));
  await db.delete(s).where(and(...conditions));
}
