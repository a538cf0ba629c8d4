// The audit log of owner-plane actions (Gatehouse's own admin API, GET /internal/audit-log): append-only, newest
// first, paged with an opaque cursor. Entries name what was done and to what, never a secret value.
import { Type, type Static } from '@sinclair/typebox';
import { Millis, Nullable, PaginatedList, Strict } from './common.ts';

export const AUDIT_EVENTS = [
  'impersonation.created', 'api_key.created', 'api_key.revoked', 'project.created', 'project.config_changed',
  'project.deleted', 'project.ownership_changed',
  // A refused request (issue 30, ASVS 7.1.3): a token or key of another project, a missing access type or permission.
  'access.refused',
] as const;
export type AuditEvent = (typeof AUDIT_EVENTS)[number];

/** How the actor reached the project: its keys, an owner's admin access token, or a signed-in user (client). */
export const AUDIT_ACTOR_KINDS = ['admin_key', 'server_key', 'admin_token', 'client'] as const;

export const AuditLogEntry = Strict({
  id: Type.String(),
  event: Type.Union(AUDIT_EVENTS.map((e) => Type.Literal(e))),
  actor: Strict({
    kind: Type.Union(AUDIT_ACTOR_KINDS.map((k) => Type.Literal(k))),
    /** The internal-project user (owner) or project user who acted; null for a key. */
    user_id: Nullable(Type.String()),
    ip: Nullable(Type.String()),
  }),
  /** What was acted on: a user id, an API key set id or a project id. */
  target: Nullable(Type.String()),
  /** Non-secret facts: e.g. the changed configuration fields (names only), the kinds of keys created. */
  details: Type.Record(Type.String(), Type.Unknown()),
  request_id: Nullable(Type.String()),
  created_at_millis: Millis(),
});
export type AuditLogEntry = Static<typeof AuditLogEntry>;

export const AuditLogQuery = Strict({
  cursor: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,17}$', patternMessage: 'must be a cursor from a previous page' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
});

export const AuditLogPage = PaginatedList(AuditLogEntry);
export type AuditLogPage = Static<typeof AuditLogPage>;
