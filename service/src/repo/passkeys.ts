// WebAuthn credentials: one passkey per user (registering again replaces it), found by credential id per project.
import { and, eq } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';

const p = schema.passkeys;
export type PasskeyRow = typeof p.$inferSelect;

export interface NewPasskey {
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  deviceType: string | null;
  backedUp: boolean;
}

export async function findByCredentialId(db: DB, projectId: string, credentialId: string): Promise<PasskeyRow | null> {
  const [row] = await db.select().from(p).where(and(eq(p.projectId, projectId), eq(p.credentialId, credentialId))).limit(1);
  return row ?? null;
}

/**
 * Replaces the user's passkey. False (and nothing changed) when the credential id is already registered to
 * another user of the project.
 */
export async function replaceForUser(db: DB, projectId: string, userId: string, k: NewPasskey): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.delete(p).where(and(eq(p.projectId, projectId), eq(p.userId, userId)));
    const rows = await tx.insert(p).values({ projectId, userId, ...k }).onConflictDoNothing().returning({ id: p.id });
    if (rows.length === 0) throw new CredentialTaken();
    return true;
  }).catch((err: unknown) => {
    if (err instanceof CredentialTaken) return false;
    throw err;
  });
}

class CredentialTaken extends Error {}

export async function updateCounter(db: DB, projectId: string, id: string, counter: number): Promise<void> {
  await db.update(p).set({ counter }).where(and(eq(p.projectId, projectId), eq(p.id, id)));
}

/** Deletes the user's passkey (turning passkey sign-in off). */
export async function removeForUser(db: DB, projectId: string, userId: string): Promise<void> {
  await db.delete(p).where(and(eq(p.projectId, projectId), eq(p.userId, userId)));
}
