// Team invitations are verification codes of type team_invitation carrying `{team_id}` (data) and the recipient
// (`method.email`). Creating and checking codes is repo/verification-codes.ts; this lists, removes and uses them.
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';
import { isUuid } from './users';

const v = schema.verificationCodes;
const TYPE = 'team_invitation';

export interface PendingInvitation { id: string; teamId: string; recipientEmail: string; expiresAt: Date }

/** Pending (unused, unexpired) invitations of a team, oldest first. */
export async function listPending(db: DB, projectId: string, teamId: string): Promise<PendingInvitation[]> {
  const rows = await db.select({ id: v.id, method: v.method, expiresAt: v.expiresAt }).from(v)
    .where(and(eq(v.projectId, projectId), eq(v.type, TYPE), sql`${v.data}->>'team_id' = ${teamId}`, isNull(v.usedAt), gt(v.expiresAt, sql`now()`)))
    .orderBy(asc(v.createdAt), asc(v.id));
  return rows.map((r) => ({ id: r.id, teamId, recipientEmail: String((r.method as { email?: string }).email ?? ''), expiresAt: r.expiresAt }));
}

/** Deletes an invitation of the given team; false when there is no such invitation of that team. */
export async function remove(db: DB, projectId: string, id: string, teamId: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db.delete(v)
    .where(and(eq(v.projectId, projectId), eq(v.type, TYPE), eq(v.id, id), sql`${v.data}->>'team_id' = ${teamId}`))
    .returning({ id: v.id });
  return rows.length > 0;
}

/** Marks a checked invitation used; false when a concurrent accept got there first (single use). */
export async function markUsed(tx: DB, projectId: string, id: string): Promise<boolean> {
  const rows = await tx.update(v).set({ usedAt: sql`now()` })
    .where(and(eq(v.projectId, projectId), eq(v.id, id), isNull(v.usedAt))).returning({ id: v.id });
  return rows.length > 0;
}
