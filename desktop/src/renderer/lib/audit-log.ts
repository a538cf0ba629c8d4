// The Audit log screen's rules: the kinds offered by the filter (groups and single events, from the shared
// contract), the time ranges and the time each one starts at, the filter the library is asked for, and how an
// entry's actor and facts are put into words (catalogue keys and values; the screen words them).
import { AUDIT_EVENTS, AUDIT_EVENT_GROUPS, type AuditEvent } from '@gatehouse/shared/schemas/audit-log';
import type { AuditLogEntry, AuditLogFilter } from '@gatehouse/shared/client';

export const TIME_RANGES = ['24h', '7d', '30d', 'all'] as const;
export type TimeRange = (typeof TIME_RANGES)[number];

const HOUR = 3_600_000;
const RANGE_MS: Record<TimeRange, number | null> = { '24h': 24 * HOUR, '7d': 7 * 24 * HOUR, '30d': 30 * 24 * HOUR, all: null };

/** The start of a range, from `now`; undefined for all time. */
export function rangeStart(range: TimeRange, now: number): Date | undefined {
  const ms = RANGE_MS[range];
  return ms === null ? undefined : new Date(now - ms);
}

export const isTimeRange = (s: string): s is TimeRange => (TIME_RANGES as readonly string[]).includes(s);

/** The kind filter's choices, grouped: each group ("every sign-in event") first, then its single events. */
export function kindChoices(): { group: string; kinds: string[] }[] {
  return AUDIT_EVENT_GROUPS.map((group) => {
    const events = AUDIT_EVENTS.filter((e) => e.split('.')[0] === group);
    return { group, kinds: events.length > 1 ? [group, ...events] : events };
  });
}

export const isGroup = (kind: string) => !kind.includes('.');
export const isKind = (kind: string) => (AUDIT_EVENTS as readonly string[]).includes(kind) || AUDIT_EVENT_GROUPS.includes(kind);

export interface AuditFilterValues {
  /** An event, a group, or '' for every kind. */
  kind: string;
  range: TimeRange;
  /** A user's id, or '' for everyone. */
  userId: string;
}

export const NO_AUDIT_FILTER: AuditFilterValues = { kind: '', range: 'all', userId: '' };

/** What the library is asked for (without the cursor); `now` fixes where the time range starts. */
export function auditFilter(v: AuditFilterValues, now: number, limit?: number): AuditLogFilter {
  const f: AuditLogFilter = {};
  if (v.kind && isKind(v.kind)) f.events = [v.kind];
  if (v.userId) f.userId = v.userId;
  const since = rangeStart(v.range, now);
  if (since) f.since = since;
  if (limit) f.limit = limit;
  return f;
}

export const isFilteredLog = (v: AuditFilterValues) => v.kind !== '' || v.range !== 'all' || v.userId !== '';

/** Warnings are told apart in the table (a failure, a lockout, a refused request). */
export function eventTone(e: AuditEvent): 'red' | 'orange' | 'gray' {
  if (e === 'sign_in.failed' || e === 'access.refused') return 'red';
  if (e === 'sign_in.locked_out' || e === 'impersonation.created' || e.endsWith('.revoked') || e.endsWith('_disabled') || e === 'project.deleted' || e === 'scim.user_deactivated' || e === 'scim.user_deleted') return 'orange';
  return 'gray';
}

export type ActorWords = { key: 'audit.actor.admin_key' | 'audit.actor.server_key' | 'audit.actor.admin_token' | 'audit.actor.client' | 'audit.actor.scim_token' | 'audit.actor.user'; userId: string | null };

/**
 * Who acted: a key, an owner, or a user of this project. A sign-in's actor is the person signing in: the user it
 * concerns when the request carried no session.
 */
export function actorWords(e: Pick<AuditLogEntry, 'actor' | 'userId' | 'event'>): ActorWords {
  // A project is created by its owner signed in to the console (a user of the internal project, not of this one).
  if (e.event === 'project.created') return { key: 'audit.actor.admin_token', userId: null };
  if (e.actor.kind === 'client') {
    const userId = e.actor.userId ?? (e.event.startsWith('sign_in.') || e.event === 'password.reset' ? e.userId : null);
    return userId ? { key: 'audit.actor.user', userId } : { key: 'audit.actor.client', userId: null };
  }
  return { key: `audit.actor.${e.actor.kind}`, userId: null };
}

/** The facts worth a glance (method, error code, key kinds, changed fields), as short `name: value` pairs. */
export function detailFacts(e: Pick<AuditLogEntry, 'details'>): { name: 'method' | 'error' | 'kinds' | 'fields' | 'rules' | 'reason'; value: string }[] {
  const d = e.details;
  const out: { name: 'method' | 'error' | 'kinds' | 'fields' | 'rules' | 'reason'; value: string }[] = [];
  const text = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) ? v.filter((x) => typeof x === 'string').join(', ') : '');
  for (const name of ['method', 'error', 'reason', 'kinds', 'rules'] as const) if (text(d[name])) out.push({ name, value: text(d[name]) });
  const fields = [text(d.fields), text(d.config_fields)].filter(Boolean).join(', ');
  if (fields) out.push({ name: 'fields', value: fields });
  return out;
}

/** The subject: the user the entry concerns (linked), else what was acted on (an id), else nothing. */
export function subjectOf(e: Pick<AuditLogEntry, 'userId' | 'target'>): { userId: string } | { id: string } | null {
  if (e.userId) return { userId: e.userId };
  return e.target ? { id: e.target } : null;
}

/** Every user id the entries name (as actor or subject), for their labels. */
export function userIdsOf(entries: readonly Pick<AuditLogEntry, 'actor' | 'userId' | 'event'>[]): string[] {
  return entries.flatMap((e) => [actorWords(e).userId, e.userId]).filter((id): id is string => !!id);
}
