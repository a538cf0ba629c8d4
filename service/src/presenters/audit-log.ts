// An audit log entry as GET /internal/audit-log shows it.
import type { AuditEvent, AuditLogEntry } from '@gatehouse/shared/schemas/audit-log';
import type { ActorKind, AuditRow } from '../repo/audit-log';

export function auditLogEntryView(row: AuditRow): AuditLogEntry {
  return {
    id: String(row.id),
    event: row.event as AuditEvent,
    actor: { kind: row.actorKind as ActorKind, user_id: row.actorUserId, ip: row.ip },
    user_id: row.subjectUserId,
    target: row.target,
    details: (row.details ?? {}) as Record<string, unknown>,
    request_id: row.requestId,
    created_at_millis: row.createdAt.getTime(),
  };
}
