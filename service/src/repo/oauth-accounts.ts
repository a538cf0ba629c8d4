// Accounts at OAuth providers connected to users, and the provider tokens stored for them (already encrypted by
// the caller: this module never sees a plaintext token).
import { and, arrayContained, desc, eq, inArray } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';

export type OAuthAccountRow = typeof schema.oauthAccounts.$inferSelect;
export type OAuthTokenRow = typeof schema.oauthTokens.$inferSelect;
export type TokenKind = 'access' | 'refresh';

const a = schema.oauthAccounts;
const t = schema.oauthTokens;

export async function findAccount(db: DB, projectId: string, providerId: string, providerAccountId: string): Promise<OAuthAccountRow | null> {
  const [row] = await db.select().from(a)
    .where(and(eq(a.projectId, projectId), eq(a.providerId, providerId), eq(a.providerAccountId, providerAccountId))).limit(1);
  return row ?? null;
}

export async function listForUser(db: DB, projectId: string, userId: string, providerId: string): Promise<OAuthAccountRow[]> {
  return db.select().from(a).where(and(eq(a.projectId, projectId), eq(a.userId, userId), eq(a.providerId, providerId))).orderBy(a.createdAt);
}

export async function insertAccount(db: DB, row: { projectId: string; providerId: string; providerAccountId: string; userId: string; email: string | null; usedForAuth: boolean }) {
  await db.insert(a).values(row);
}

export async function updateAccountEmail(db: DB, projectId: string, providerId: string, providerAccountId: string, email: string) {
  await db.update(a).set({ email })
    .where(and(eq(a.projectId, projectId), eq(a.providerId, providerId), eq(a.providerAccountId, providerAccountId)));
}

export async function insertTokens(db: DB, rows: (typeof t.$inferInsert)[]) {
  if (rows.length) await db.insert(t).values(rows);
}

/** The user's tokens of one kind for a provider, newest first. */
export async function listTokens(db: DB, projectId: string, userId: string, providerId: string, kind: TokenKind): Promise<OAuthTokenRow[]> {
  return db.select().from(t)
    .where(and(eq(t.projectId, projectId), eq(t.userId, userId), eq(t.providerId, providerId), eq(t.kind, kind)))
    .orderBy(desc(t.createdAt));
}

export async function deleteTokens(db: DB, projectId: string, ids: string[]) {
  if (ids.length) await db.delete(t).where(and(eq(t.projectId, projectId), inArray(t.id, ids)));
}

/** Removes the account's tokens whose scopes are all within `scopes`: new tokens for those scopes supersede them. */
export async function deleteSupersededTokens(db: DB, p: { projectId: string; userId: string; providerId: string; providerAccountId: string; scopes: string[] }) {
  await db.delete(t).where(and(
    eq(t.projectId, p.projectId), eq(t.userId, p.userId), eq(t.providerId, p.providerId),
    eq(t.providerAccountId, p.providerAccountId), arrayContained(t.scopes, p.scopes),
  ));
}

/** Every account connected to the user, any provider (the export, the last-sign-in-method check). */
export async function listAllForUser(db: DB, projectId: string, userId: string): Promise<OAuthAccountRow[]> {
  return db.select().from(a).where(and(eq(a.projectId, projectId), eq(a.userId, userId))).orderBy(a.providerId, a.createdAt);
}

/** Disconnects the user's accounts at this provider: the accounts and every stored provider token go. */
export async function removeForUser(db: DB, projectId: string, userId: string, providerId: string): Promise<number> {
  await db.delete(t).where(and(eq(t.projectId, projectId), eq(t.userId, userId), eq(t.providerId, providerId)));
  const removed = await db.delete(a).where(and(eq(a.projectId, projectId), eq(a.userId, userId), eq(a.providerId, providerId))).returning({ id: a.providerAccountId });
  return removed.length;
}
