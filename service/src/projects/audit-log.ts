// A project's audit log, newest first, a page at a time, filtered by kind, user and time (GET /internal/audit-log).
// Entries are written by http/route-events.ts and observability/audit-trail.ts, and are never changed or deleted.
import { auditEventsOf } from '@gatehouse/shared/schemas/audit-log';
import type { Services } from '../services';
import * as auditLog from '../repo/audit-log';

export interface AuditLogListing {
  projectId: string;
  /** The id of the last entry of the previous page. */
  cursor?: string;
  limit: number;
  /** Event names and groups, comma-separated (shared/src/schemas/audit-log.ts `AuditLogQuery.event`). */
  event?: string;
  userId?: string;
  /** Entries whose details name this team (SCIM's provisioning log). */
  teamId?: string;
  sinceMillis?: number;
  untilMillis?: number;
}

/** A page of entries older than `cursor`. Entries still queued on this instance are written first, so none is missed. */
export async function listAuditLog(services: Services, input: AuditLogListing): Promise<{ entries: auditLog.AuditRow[]; nextCursor: string | null }> {
  const { limit } = input;
  await services.auditTrail.flush();
  const rows = await auditLog.listForProject(services.db, input.projectId, {
    before: input.cursor ? Number(input.cursor) : undefined, limit: limit + 1,
    events: input.event === undefined ? undefined : auditEventsOf(input.event),
    userId: input.userId,
    teamId: input.teamId,
    since: input.sinceMillis === undefined ? undefined : new Date(input.sinceMillis),
    until: input.untilMillis === undefined ? undefined : new Date(input.untilMillis),
  });
  const entries = rows.slice(0, limit);
  return { entries, nextCursor: rows.length > limit ? String(entries[entries.length - 1]!.id) : null };
}
