// Used TOTP time steps, so one TOTP code cannot sign in twice (RFC 6238 §5.2). A claimed step is a marker row in
// verification_codes (type `totp_step`): its unique (project, code hash) index makes the claim atomic, and the row
// expires with the codes once the step can no longer validate.
import { schema } from '../db';
import type { DB } from '../db';
import { hashSecret } from '../db/secret-hash';

/** Marks the step used for the user; false when it was already used. */
export async function claimTotpStep(db: DB, projectId: string, userId: string, step: number, keepForMs: number): Promise<boolean> {
  const marker = hashSecret(`totp-step:${userId}:${step}`);
  const rows = await db.insert(schema.verificationCodes).values({
    projectId, type: 'totp_step', codeHash: marker, nonceHash: marker,
    expiresAt: new Date(Date.now() + keepForMs), usedAt: new Date(), data: { user_id: userId, step },
  }).onConflictDoNothing().returning({ id: schema.verificationCodes.id });
  return rows.length > 0;
}
