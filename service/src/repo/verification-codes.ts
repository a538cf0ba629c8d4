// Verification codes of every purpose (protocol-auth §4): stored as hashes, single use even under concurrent
// redemption, with an attempt counter shared by all codes with the same nonce (the last 39 characters), so
// guessing the 6-character OTP in front of a known nonce burns the real code's attempts.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { codeNonce, generateSecureCode } from '@gatehouse/shared/rules/codes';
import { VERIFICATION_CODE_MAX_ATTEMPTS } from '@gatehouse/shared/constants';
import type { DB } from '../db';
import { schema } from '../db';
import { hashSecret } from '../db/secret-hash';

export type CodeType =
  | 'one_time_password' | 'password_reset' | 'contact_channel_verification' | 'team_invitation'
  | 'mfa_attempt' | 'passkey_registration' | 'passkey_authentication' | 'project_owner_invitation';


export type CodeRow = typeof schema.verificationCodes.$inferSelect;

export async function createCode(db: DB, p: {
  projectId: string; type: CodeType; expiresInMs: number; redirectUrl?: string | null;
  method?: Record<string, unknown>; data?: Record<string, unknown>;
}): Promise<{ code: string; id: string; expiresAt: Date }> {
  const code = generateSecureCode();
  const expiresAt = new Date(Date.now() + p.expiresInMs);
  const [row] = await db.insert(schema.verificationCodes).values({
    projectId: p.projectId, type: p.type, codeHash: hashSecret(code), nonceHash: hashSecret(codeNonce(code)),
    expiresAt, redirectUrl: p.redirectUrl ?? null, method: p.method ?? {}, data: p.data ?? {},
  }).returning({ id: schema.verificationCodes.id });
  return { code, id: row.id, expiresAt };
}

/**
 * Checks a code: counts the attempt, then raises the documented error if it is unknown (for this purpose),
 * expired, used or out of attempts. `validate` runs next (a failure there leaves the code usable). With
 * `consume`, the code is marked used atomically: of concurrent redemptions exactly one succeeds.
 */
export async function redeemCode(db: DB, p: {
  projectId: string; type: CodeType; code: string; consume: boolean; validate?: (row: CodeRow) => Promise<void> | void;
}): Promise<CodeRow> {
  const code = p.code.toLowerCase();
  const v = schema.verificationCodes;
  const [row] = await db.select().from(v).where(and(eq(v.projectId, p.projectId), eq(v.codeHash, hashSecret(code)), eq(v.type, p.type))).limit(1);
  if (code.length >= 39) {
    await db.update(v).set({ attemptCount: sql`${v.attemptCount} + 1` })
      .where(and(eq(v.projectId, p.projectId), eq(v.nonceHash, hashSecret(codeNonce(code)))));
  }
  if (!row) throw new KnownErrors.VerificationCodeNotFound();
  if (row.expiresAt.getTime() <= Date.now()) throw new KnownErrors.VerificationCodeExpired();
  if (row.usedAt) throw new KnownErrors.VerificationCodeAlreadyUsed();
  if (row.attemptCount >= VERIFICATION_CODE_MAX_ATTEMPTS) throw new KnownErrors.VerificationCodeMaxAttemptsReached();
  if (p.validate) await p.validate(row);
  if (p.consume) {
    const used = await db.update(v).set({ usedAt: sql`now()` }).where(and(eq(v.id, row.id), isNull(v.usedAt))).returning({ id: v.id });
    if (used.length === 0) throw new KnownErrors.VerificationCodeAlreadyUsed();
  }
  return row;
}

/** Deletes a code by id within a project (e.g. revoking an invitation). */
export async function deleteCode(db: DB, projectId: string, id: string, type: CodeType): Promise<boolean> {
  const v = schema.verificationCodes;
  const rows = await db.delete(v).where(and(eq(v.projectId, projectId), eq(v.id, id), eq(v.type, type))).returning({ id: v.id });
  return rows.length > 0;
}

/**
 * Ends every outstanding password-reset code of the user (ASVS 2.5.x): after a reset or a change, an older reset
 * link left in a mailbox must not reset the new password. They then answer VERIFICATION_CODE_ALREADY_USED.
 */
export async function invalidateResetCodes(db: DB, projectId: string, userId: string): Promise<void> {
  const v = schema.verificationCodes;
  await db.update(v).set({ usedAt: sql`now()` }).where(and(
    eq(v.projectId, projectId), eq(v.type, 'password_reset'), isNull(v.usedAt),
    sql`${v.expiresAt} > now()`, sql`${v.data}->>'user_id' = ${userId}`,
  ));
}
