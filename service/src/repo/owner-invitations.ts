// Invitations to co-own a project (issue 26): verification codes of type project_owner_invitation in the internal
// project (the invitee is one of its users), carrying the invited project's id (`data.project_id`) and the recipient
// (`method.email`). Creating and checking codes is repo/verification-codes.ts; this lists, removes and uses them.
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';
import { isUuid } from './users';

const v = schema.verificationCodes;
export const OWNER_INVITATION_TYPE = 'project_owner_invitation';
const INTERNAL = 'internal';

export interface PendingOwnerInvitation { id: string; projectId: string; recipientEmail: string; expiresAt: Date }

const ofProject = (projectId: string) => and(eq(v.projectId, INTERNAL), eq(v.type, OWNER_INVITATION_TYPE), sql`${v.data}->>'project_id' = ${projectId}`);

/** Pending (unused, unexpired) invitations to own the project, oldest first. */
export async function listPending(db: DB, projectId: string): Promise<PendingOwnerInvitation[]> {
  const rows = await db.select({ id: v.id, method: v.method, expiresAt: v.expiresAt }).from(v)
    .where(and(ofProject(projectId), isNull(v.usedAt), gt(v.expiresAt, sql`now()`)))
    .orderBy(asc(v.createdAt), asc(v.id));
  return rows.map((r) => ({ id: r.id, projectId, recipientEmail: String((r.method as { email?: string }).email ?? ''), expiresAt: r.expiresAt }));
}

/** Deletes a pending invitation to own the project; false when the project has no such invitation. */
export async function remove(db: DB, projectId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db.delete(v).where(and(ofProject(projectId), eq(v.id, id), isNull(v.usedAt))).returning({ id: v.id });
  return rows.length > 0;
}

/** Marks a checked invitation used; false when a concurrent accept (or a revocation) got there first. */
export async function markUsed(tx: DB, id: string): Promise<boolean> {
  const rows = await tx.update(v).set({ usedAt: sql`now()` })
    .where(and(eq(v.projectId, INTERNAL), eq(v.type, OWNER_INVITATION_TYPE), eq(v.id, id), isNull(v.usedAt))).returning({ id: v.id });
  return rows.length > 0;
}
