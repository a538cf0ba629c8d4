// A project's audit log as the admin app returns it (Gatehouse's own admin API, GET /internal/audit-log): entries
// newest first, a page at a time, filtered by kind, user and time. Wire → model, and the filter → the query.
import { query } from './common.ts';
import type { AuditLogPageJson } from '../wire.ts';
import type { AUDIT_ACTOR_KINDS, AuditEvent } from '../../schemas/audit-log.ts';

export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

export interface AuditLogEntry {
  readonly id: string;
  readonly event: AuditEvent;
  /** Who acted: a key of the project, an owner (admin token) or a signed-in user; `userId` null for a key. */
  readonly actor: { readonly kind: AuditActorKind; readonly userId: string | null; readonly ip: string | null };
  /** The project user the entry concerns (who signed in or failed to, whose password or key changed). */
  readonly userId: string | null;
  /** What was acted on: a user, session, API key (set) or project id. */
  readonly target: string | null;
  /** Non-secret facts (the sign-in method, an error code, the changed configuration fields' names...). */
  readonly details: Readonly<Record<string, unknown>>;
  readonly requestId: string | null;
  readonly createdAt: Date;
}

export interface AuditLogFilter {
  /** Event names (`sign_in.failed`) and groups (`sign_in`: every `sign_in.*`); none or empty: every kind. */
  events?: readonly string[];
  /** Entries whose actor or subject is this user. */
  userId?: string;
  /** Entries about this team (SCIM's provisioning log). */
  teamId?: string;
  /** Entries at or after this time. */
  since?: Date;
  /** Entries before this time. */
  until?: Date;
  /** The `nextCursor` of the previous page. */
  cursor?: string;
  /** Entries per page (1-200; the service's default is 50). */
  limit?: number;
}

export interface AuditLogPage {
  readonly entries: readonly AuditLogEntry[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  readonly nextCursor: string | null;
}

export function auditLogQuery(f: AuditLogFilter): string {
  return query({
    event: f.events?.length ? f.events.join(',') : undefined,
    user_id: f.userId,
    team_id: f.teamId,
    since_millis: f.since?.getTime(),
    until_millis: f.until?.getTime(),
    cursor: f.cursor,
    limit: f.limit,
  });
}

export function auditLogPageFromJson(j: AuditLogPageJson): AuditLogPage {
  return Object.freeze({
    entries: j.items.map((e) => Object.freeze({
      id: e.id, event: e.event, actor: Object.freeze({ kind: e.actor.kind, userId: e.actor.user_id, ip: e.actor.ip }),
      userId: e.user_id, target: e.target, details: Object.freeze({ ...e.details }), requestId: e.request_id, createdAt: new Date(e.created_at_millis),
    })),
    nextCursor: j.pagination.next_cursor ?? null,
  });
}
