// The outer OAuth flow's short-lived rows: the state between /authorize and /callback, and the authorization
// codes between /callback and /token (stored as sha256 hashes). Both are taken with DELETE ... RETURNING, so
// each is used at most once even when requests race.
import { and, eq, gt, lt } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';

export type OAuthStateRow = typeof schema.oauthStates.$inferSelect;
export type AuthorizationCodeRow = typeof schema.authorizationCodes.$inferSelect;

const s = schema.oauthStates;
const c = schema.authorizationCodes;

/** Expired rows are kept this long, so a late callback still learns that the flow timed out. */
const KEEP_EXPIRED_MS = 60 * 60 * 1000;

export async function insertState(db: DB, row: { innerState: string; projectId: string; data: unknown; expiresAt: Date }) {
  await db.insert(s).values(row);
}

/**
 * Removes and returns the state record. Looked up by the inner state alone: the callback learns the project
 * from this record (the state is 256 random bits, bound to the browser by its cookie).
 */
export async function takeState(db: DB, innerState: string): Promise<OAuthStateRow | null> {
  const [row] = await db.delete(s).where(eq(s.innerState, innerState)).returning();
  return row ?? null;
}

/** The state record without taking it (an SSO connection test's first step reads where its window goes). */
export async function findState(db: DB, innerState: string): Promise<OAuthStateRow | null> {
  const [row] = await db.select().from(s).where(eq(s.innerState, innerState)).limit(1);
  return row ?? null;
}

export async function purgeExpiredStates(db: DB, projectId: string) {
  await db.delete(s).where(and(eq(s.projectId, projectId), lt(s.expiresAt, new Date(Date.now() - KEEP_EXPIRED_MS))));
}

export async function insertCode(db: DB, row: typeof c.$inferInsert) {
  await db.insert(c).values(row);
}

export async function findCode(db: DB, projectId: string, codeHash: string): Promise<AuthorizationCodeRow | null> {
  const [row] = await db.select().from(c).where(and(eq(c.projectId, projectId), eq(c.codeHash, codeHash))).limit(1);
  return row ?? null;
}

/** Deletes the code if it is still unexpired; only one of several concurrent callers gets the row back. */
export async function consumeCode(db: DB, projectId: string, codeHash: string): Promise<AuthorizationCodeRow | null> {
  const [row] = await db.delete(c)
    .where(and(eq(c.projectId, projectId), eq(c.codeHash, codeHash), gt(c.expiresAt, new Date()))).returning();
  return row ?? null;
}

export async function deleteCode(db: DB, projectId: string, codeHash: string) {
  await db.delete(c).where(and(eq(c.projectId, projectId), eq(c.codeHash, codeHash)));
}

export async function purgeExpiredCodes(db: DB, projectId: string) {
  await db.delete(c).where(and(eq(c.projectId, projectId), lt(c.expiresAt, new Date())));
}
