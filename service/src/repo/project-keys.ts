// Project API key sets. Keys are stored as sha256 hashes (plus their last four characters for display).
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';
import { hashSecret } from '../db/secret-hash';

export type KeyKind = 'publishable_client_key' | 'secret_server_key' | 'super_secret_admin_key';

const hashColumn = {
  publishable_client_key: schema.apiKeySets.publishableClientKeyHash,
  secret_server_key: schema.apiKeySets.secretServerKeyHash,
  super_secret_admin_key: schema.apiKeySets.superSecretAdminKeyHash,
} as const;

/** Returns the expiry of the key set holding this key if the key is currently valid for the project, else null. */
export async function findValidKey(db: DB, projectId: string, kind: KeyKind, key: string): Promise<{ expiresAt: Date } | null> {
  const [row] = await db.select({ expiresAt: schema.apiKeySets.expiresAt }).from(schema.apiKeySets).where(and(
    eq(hashColumn[kind], hashSecret(key)),
    eq(schema.apiKeySets.projectId, projectId),
    isNull(schema.apiKeySets.manuallyRevokedAt),
    gt(schema.apiKeySets.expiresAt, sql`now()`),
  )).limit(1);
  return row ?? null;
}

export interface NewKeySet {
  id?: string;
  projectId: string;
  description: string;
  expiresAt: Date;
  keys: Partial<Record<KeyKind, string>>;
}

export async function insert(db: DB, k: NewKeySet) {
  const lastFour = (v?: string) => (v ? v.slice(-4) : null);
  const hash = (v?: string) => (v ? hashSecret(v) : null);
  const [row] = await db.insert(schema.apiKeySets).values({
    ...(k.id ? { id: k.id } : {}),
    projectId: k.projectId,
    description: k.description,
    expiresAt: k.expiresAt,
    publishableClientKeyHash: hash(k.keys.publishable_client_key),
    publishableClientKeyLastFour: lastFour(k.keys.publishable_client_key),
    secretServerKeyHash: hash(k.keys.secret_server_key),
    secretServerKeyLastFour: lastFour(k.keys.secret_server_key),
    superSecretAdminKeyHash: hash(k.keys.super_secret_admin_key),
    superSecretAdminKeyLastFour: lastFour(k.keys.super_secret_admin_key),
  }).returning();
  return row;
}

export async function listForProject(db: DB, projectId: string) {
  return db.select().from(schema.apiKeySets).where(eq(schema.apiKeySets.projectId, projectId)).orderBy(desc(schema.apiKeySets.createdAt));
}

export type KeySetRow = typeof schema.apiKeySets.$inferSelect;
type Row = KeySetRow;

export async function find(db: DB, projectId: string, id: string): Promise<Row | null> {
  const [row] = await db.select().from(schema.apiKeySets).where(and(eq(schema.apiKeySets.projectId, projectId), eq(schema.apiKeySets.id, id))).limit(1);
  return row ?? null;
}

export async function update(db: DB, projectId: string, id: string, patch: { description?: string; revoke?: boolean }): Promise<Row | null> {
  const set: Partial<Row> = {};
  if (patch.description !== undefined) set.description = patch.description;
  const [row] = await db.update(schema.apiKeySets).set({
    ...set,
    // Revocation is one way, and the first revocation time is kept.
    ...(patch.revoke ? { manuallyRevokedAt: sql`coalesce(${schema.apiKeySets.manuallyRevokedAt}, now())` } : {}),
  }).where(and(eq(schema.apiKeySets.projectId, projectId), eq(schema.apiKeySets.id, id))).returning();
  return row ?? null;
}

/** Revokes every key set of the project holding this key; returns how many were revoked. */
export async function revokeSetsHolding(db: DB, projectId: string, kind: KeyKind, key: string): Promise<number> {
  const rows = await db.update(schema.apiKeySets).set({ manuallyRevokedAt: sql`now()` }).where(and(
    eq(schema.apiKeySets.projectId, projectId), eq(hashColumn[kind], hashSecret(key)), isNull(schema.apiKeySets.manuallyRevokedAt),
  )).returning({ id: schema.apiKeySets.id });
  return rows.length;
}
