// A project's audit log of owner-plane actions, newest first, a page at a time (GET /internal/audit-log). Entries are
// written by http/route-events.ts when an owner-plane action succeeds, and are never changed or deleted.
import type { Services } from '../services';
import * as auditLog from '../repo/audit-log';

/** A page of entries older than `cursor` (the id of the last entry of the previous page). */
export async function listAuditLog(services: Services, input: { projectId: string; cursor?: string; limit: number }): Promise<{ entries: auditLog.AuditRow[]; nextCursor: string | null }> {
  const { limit } = input;
  const rows = await auditLog.listForProject(services.db, input.projectId, { before: input.cursor ? Number(input.cursor) : undefined, limit: limit + 1 });
  const entries = rows.slice(0, limit);
  return { entries, nextCursor: rows.length > limit ? String(entries[entries.length - 1]!.id) : null };
}
