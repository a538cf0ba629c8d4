// The service's access-token signing key records (table `signing_keys`, tokens/keys.ts). They belong to the service,
// not to a project: each project's keys derive from a record and the project id. Seeds are sealed with the server
// secret here, on the way in, and opened on the way out; no caller sees a sealed value.
import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, isNotNull, lt, ne } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';
import { needsReseal, openSecret, sealSecret } from '../db/secrets-at-rest';

const k = schema.signingKeys;

export type KeyState = 'next' | 'current' | 'previous' | 'retired';
export type KeyDerivation = 'sealed-seed' | 'server-secret';

export interface SigningKeyRecord {
  id: string;
  state: KeyState;
  algorithm: 'ES256';
  derivation: KeyDerivation;
  /** The 32-byte seed each project's key derives from (`sealed-seed` records in a live state), else null. */
  seed: Buffer | null;
  createdAt: Date;
  activatedAt: Date | null;
  deactivatedAt: Date | null;
  retiredAt: Date | null;
}

const SEED_PURPOSE = 'signing-key-seed';
const LIVE: KeyState[] = ['next', 'current', 'previous'];

type Row = typeof k.$inferSelect;

function record(row: Row, open: boolean): SigningKeyRecord {
  return {
    id: row.id, state: row.state as KeyState, algorithm: 'ES256', derivation: row.derivation as KeyDerivation,
    seed: open && row.seedSealed ? Buffer.from(openSecret(SEED_PURPOSE, row.seedSealed), 'base64url') : null,
    createdAt: row.createdAt, activatedAt: row.activatedAt, deactivatedAt: row.deactivatedAt, retiredAt: row.retiredAt,
  };
}

/** The records that publish or verify (next, current, previous), their seeds opened. */
export async function listLive(db: DB): Promise<SigningKeyRecord[]> {
  const rows = await db.select().from(k).where(inArray(k.state, LIVE)).orderBy(asc(k.createdAt), asc(k.id));
  return rows.map((r) => record(r, true));
}

/** Every record, retired ones included, newest first; seeds are not opened. */
export async function listAll(db: DB): Promise<SigningKeyRecord[]> {
  const rows = await db.select().from(k).orderBy(asc(k.createdAt), asc(k.id));
  return rows.map((r) => record(r, false)).reverse();
}

function newId(): string {
  return randomBytes(6).toString('hex');
}

function newSealedSeed(): string {
  return sealSecret(SEED_PURPOSE, randomBytes(32).toString('base64url'));
}

/**
 * Creates the `current` and the `next` record where there is none (first start of a database, or one upgraded with a
 * current `server-secret` record and no next). Instances starting together create them once: the partial unique
 * index allows one of each state, and a conflict is simply nothing to do.
 */
export async function ensureCurrentAndNext(db: DB): Promise<void> {
  for (const state of ['current', 'next'] as const) {
    const [exists] = await db.select({ id: k.id }).from(k).where(eq(k.state, state)).limit(1);
    if (exists) continue;
    await db.insert(k).values({ id: newId(), state, seedSealed: newSealedSeed(), activatedAt: state === 'current' ? new Date() : null }).onConflictDoNothing();
  }
}

/**
 * One rotation, in one transaction: `current` (it must still be `expectedCurrentId`) becomes previous, `next` becomes
 * current and a new next is made. Returns false, changing nothing, when the current record is no longer the one
 * expected: a concurrent rotation came first, and this one resolves as that one.
 */
export async function rotate(db: DB, expectedCurrentId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const demoted = await tx.update(k).set({ state: 'previous', deactivatedAt: now })
      .where(and(eq(k.id, expectedCurrentId), eq(k.state, 'current'))).returning({ id: k.id });
    if (demoted.length === 0) return false;
    const promoted = await tx.update(k).set({ state: 'current', activatedAt: now }).where(eq(k.state, 'next')).returning({ id: k.id });
    // No next (only if someone deleted it): a fresh current, so that there is always one.
    if (promoted.length === 0) await tx.insert(k).values({ id: newId(), state: 'current', seedSealed: newSealedSeed(), activatedAt: now });
    await tx.insert(k).values({ id: newId(), state: 'next', seedSealed: newSealedSeed() });
    return true;
  });
}

/** Retires the previous records deactivated before `before`, erasing their seeds; returns their ids. */
export async function retirePreviousBefore(db: DB, before: Date): Promise<string[]> {
  const rows = await db.update(k).set({ state: 'retired', retiredAt: new Date(), seedSealed: null })
    .where(and(eq(k.state, 'previous'), lt(k.deactivatedAt, before))).returning({ id: k.id });
  return rows.map((r) => r.id);
}

/** Seals every live seed again under the current server secret (security/reseal.ts); returns how many changed. */
export async function resealSeeds(db: DB): Promise<number> {
  const rows = await db.select({ id: k.id, seedSealed: k.seedSealed }).from(k).where(and(isNotNull(k.seedSealed), ne(k.state, 'retired')));
  let rewritten = 0;
  for (const r of rows) {
    const stored = r.seedSealed!;
    if (!needsReseal(stored)) continue;
    const next = sealSecret(SEED_PURPOSE, openSecret(SEED_PURPOSE, stored));
    rewritten += (await db.update(k).set({ seedSealed: next }).where(and(eq(k.id, r.id), eq(k.seedSealed, stored))).returning({ id: k.id })).length;
  }
  return rewritten;
}
