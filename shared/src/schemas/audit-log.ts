// A project's audit log (Gatehouse's own admin API, GET /internal/audit-log): append-only, newest first, paged with an
// opaque cursor. Owner-plane actions (keys, impersonation, configuration) and the security events of the project's
// users (sign-ins, MFA, passwords, sessions, user and team API keys). Entries name what was done, by whom and to
// whom, never a secret value (no password, code, token or key; no email typed into a failed sign-in).
import { Type, type Static } from '@sinclair/typebox';
import { Millis, Nullable, PaginatedList, Strict, Uuid } from './common.ts';

export const AUDIT_EVENTS = [
  'impersonation.created', 'api_key.created', 'api_key.revoked', 'project.created', 'project.config_changed',
  'project.deleted', 'project.ownership_changed',
  // A refused request (issue 30, ASVS 7.1.3): a token or key of another project, a missing access type or permission.
  'access.refused',
  // The project's users (issue 26): what the security-event log records of them, kept in the project's log too.
  'sign_in.succeeded', 'sign_in.failed', 'sign_in.locked_out',
  'mfa.totp_enabled', 'mfa.totp_disabled', 'mfa.passkey_added', 'mfa.passkey_disabled',
  'password.changed', 'password.set', 'password.reset', 'session.revoked',
  'user_api_key.created', 'user_api_key.revoked', 'team_api_key.created', 'team_api_key.revoked',
  // SCIM provisioning of teams (issue 28): what the team's identity provider did, with its token as the actor.
  'scim.user_provisioned', 'scim.user_updated', 'scim.user_deactivated', 'scim.user_reactivated', 'scim.user_deleted',
  'scim.group_created', 'scim.group_updated', 'scim.group_deleted',
] as const;
export type AuditEvent = (typeof AUDIT_EVENTS)[number];

/** The groups of events: the part of an event's name before the dot (`sign_in`, `mfa`, `api_key`...). */
export const AUDIT_EVENT_GROUPS = [...new Set(AUDIT_EVENTS.map((e) => e.split('.')[0]!))];

/** How the actor reached the project: its keys, an owner's admin access token, or a signed-in user (client). */
export const AUDIT_ACTOR_KINDS = ['admin_key', 'server_key', 'admin_token', 'client', 'scim_token'] as const;

export const AuditLogEntry = Strict({
  id: Type.String(),
  event: Type.Union(AUDIT_EVENTS.map((e) => Type.Literal(e))),
  actor: Strict({
    kind: Type.Union(AUDIT_ACTOR_KINDS.map((k) => Type.Literal(k))),
    /** The internal-project user (owner) or project user who acted; null for a key. */
    user_id: Nullable(Type.String()),
    ip: Nullable(Type.String()),
  }),
  /** The project user the entry concerns (who signed in or failed to, whose password or key changed); null if none is known. */
  user_id: Nullable(Type.String()),
  /** What was acted on: a user id, a session id, an API key (set) id or a project id. */
  target: Nullable(Type.String()),
  /** Non-secret facts: e.g. the changed configuration fields (names only), the kinds of keys created. */
  details: Type.Record(Type.String(), Type.Unknown()),
  request_id: Nullable(Type.String()),
  created_at_millis: Millis(),
});
export type AuditLogEntry = Static<typeof AuditLogEntry>;

const escape = (s: string) => s.replace(/\./g, '\\.');
const EVENT_ITEM = `(${[...AUDIT_EVENTS, ...AUDIT_EVENT_GROUPS].map(escape).join('|')})`;

export const AuditLogQuery = Strict({
  cursor: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,17}$', patternMessage: 'must be a cursor from a previous page' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  /**
   * Which kinds of entries: a comma-separated list of event names (`sign_in.failed`) and groups (`sign_in`: every
   * `sign_in.*` event), e.g. `sign_in,api_key.created`. Absent: every kind.
   */
  event: Type.Optional(Type.String({
    pattern: `^${EVENT_ITEM}(,${EVENT_ITEM})*$`, maxLength: 2000,
    patternMessage: 'must be a comma-separated list of audit event names or groups (e.g. sign_in,api_key.created)',
  })),
  /** Entries whose actor or whose subject (`user_id`) is this user. */
  user_id: Type.Optional(Uuid()),
  /** Entries about this team (its SCIM provisioning log: the `team_id` of their details). */
  team_id: Type.Optional(Uuid()),
  /** Entries at or after this time. */
  since_millis: Type.Optional(Type.Integer({ minimum: 0, maximum: 8.64e15 })),
  /** Entries before this time. */
  until_millis: Type.Optional(Type.Integer({ minimum: 0, maximum: 8.64e15 })),
});
export type AuditLogQuery = Static<typeof AuditLogQuery>;

export const AuditLogPage = PaginatedList(AuditLogEntry);
export type AuditLogPage = Static<typeof AuditLogPage>;

/** The event names a filter value (`AuditLogQuery.event`) selects. */
export function auditEventsOf(filter: string): AuditEvent[] {
  const items = filter.split(',');
  return AUDIT_EVENTS.filter((e) => items.includes(e) || items.includes(e.split('.')[0]!));
}
