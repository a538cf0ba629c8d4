// User and team API keys (one table, exactly one owner per key). Secrets are stored as sha256 hashes plus their
// last four characters; the full value exists only in the creation response.
import { and, desc, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { generateSecureCode } from '@gatehouse/shared/rules/codes';
import type { DB } from '../db';
import { isForeignKeyViolation } from '../db/errors';
import { schema } from '../db';
import { hashSecret } from '../db/secret-hash';

export type KeyKind = 'user' | 'team';
export type KeyRow = typeof schema.userTeamApiKeys.$inferSelect;

const t = schema.userTeamApiKeys;

/**
 * `gh_uk_` (user) / `gh_tk_` (team), then `pub_` for public keys, then 45 lowercase base32 characters
 * (225 random bits). The prefix lets people and secret scanners recognise a Gatehouse key and its kind.
 */
export function generateKeyValue(kind: KeyKind, isPublic: boolean): string {
  return `gh_${kind === 'user' ? 'uk' : 'tk'}_${isPublic ? 'pub_' : ''}${generateSecureCode()}`;
}

export function kindOf(row: KeyRow): KeyKind {
  return row.userId ? 'user' : 'team';
}

const ofKind = (kind: KeyKind): SQL => (kind === 'user' ? isNotNull(t.userId) : isNotNull(t.teamId));

export interface NewKey {
  projectId: string;
  owner: { userId: string } | { teamId: string };
  description: string;
  isPublic: boolean;
  expiresAt: Date | null;
  value: string;
}

/** The new key, or null when its owner was deleted meanwhile. */
export async function insert(db: DB, k: NewKey): Promise<KeyRow | null> {
  const [row] = await db.insert(t).values({
    projectId: k.projectId,
    userId: 'userId' in k.owner ? k.owner.userId : null,
    teamId: 'teamId' in k.owner ? k.owner.teamId : null,
    description: k.description,
    isPublic: k.isPublic,
    expiresAt: k.expiresAt,
    secretHash: hashSecret(k.value),
    lastFour: k.value.slice(-4),
  }).returning().catch((err) => {
    if (isForeignKeyViolation(err)) return [null];
    throw err;
  });
  return row ?? null;
}

/** Keys of one kind, newest first; `ownerId` narrows to one user or team. */
export async function list(db: DB, projectId: string, kind: KeyKind, ownerId?: string): Promise<KeyRow[]> {
  const owner = ownerId === undefined ? ofKind(kind) : eq(kind === 'user' ? t.userId : t.teamId, ownerId);
  return db.select().from(t).where(and(eq(t.projectId, projectId), owner)).orderBy(desc(t.createdAt), desc(t.id));
}

export async function find(db: DB, projectId: string, kind: KeyKind, id: string): Promise<KeyRow | null> {
  const [row] = await db.select().from(t).where(and(eq(t.projectId, projectId), eq(t.id, id), ofKind(kind))).limit(1);
  return row ?? null;
}

/** Looks a presented secret up by its hash (either kind; the caller reports a kind mismatch). */
export async function findBySecret(db: DB, projectId: string, value: string): Promise<KeyRow | null> {
  const [row] = await db.select().from(t).where(and(eq(t.projectId, projectId), eq(t.secretHash, hashSecret(value)))).limit(1);
  return row ?? null;
}

export interface KeyUpdate { description?: string; expiresAt?: Date | null; revoke?: boolean }

export async function update(db: DB, projectId: string, kind: KeyKind, id: string, u: KeyUpdate): Promise<KeyRow | null> {
  const set: Parameters<ReturnType<typeof db.update<typeof t>>['set']>[0] = {};
  if (u.description !== undefined) set.description = u.description;
  if (u.expiresAt !== undefined) set.expiresAt = u.expiresAt;
  // Revocation is one way, and the first revocation time is kept.
  if (u.revoke) set.manuallyRevokedAt = sql`coalesce(${t.manuallyRevokedAt}, now())`;
  const where = and(eq(t.projectId, projectId), eq(t.id, id), ofKind(kind));
  if (Object.keys(set).length === 0) return find(db, projectId, kind, id);
  const [row] = await db.update(t).set(set).where(where).returning();
  return row ?? null;
}

