// Which security events (and audit-log entries) a finished API request produces, read from the route, the caller's
// authentication, the validated request and the answer: one table for every route, so that no flow has to remember
// to log. `plannedEvents` is pure; `recordRouteOutcome` logs the events and appends the audit entries: owner-plane
// ones before the answer, the project users' ones through the queue of observability/audit-trail.ts.
import type { AuditEvent } from '@gatehouse/shared/schemas/audit-log';
import { KnownError } from '@gatehouse/shared/known-errors';
import type { Auth } from './request-access';
import { HttpResult } from './respond';
import type { Services } from '../services';
import type * as auditLog from '../repo/audit-log';
import { managedProjectIds } from '../projects/ownership';
import { requestScope, securityEvent, type SecurityEventName } from '../observability/security-events';

export interface RouteOutcome {
  /** `METHOD /path` as declared, e.g. `PATCH /users/:user_id`. */
  route: string;
  auth: Auth | null;
  params: Record<string, unknown> | undefined;
  query: Record<string, unknown> | undefined;
  body: Record<string, unknown> | undefined;
  /** The answer's status and JSON body (undefined when the request failed with an error). */
  status: number;
  response: Record<string, unknown> | undefined;
  /** The known-error code of a failed request. */
  errorCode?: string;
  /** The user the flow noted (a sign-in's user). */
  scopeUserId?: string;
}

export interface PlannedEvent {
  event: SecurityEventName;
  projectId: string;
  userId: string | null;
  target: string | null;
  details: Record<string, unknown>;
  /** Projects whose audit log records it. */
  auditIn: string[];
  /** A project user's event (a sign-in, a password change...): its entry is queued rather than written at once. */
  queued?: boolean;
}

const SIGN_IN_METHODS: Record<string, string> = {
  'POST /auth/password/sign-in': 'password', 'POST /auth/otp/sign-in': 'otp', 'POST /auth/passkey/sign-in': 'passkey',
  'POST /auth/mfa/sign-in': 'mfa', 'POST /auth/oauth/token': 'oauth',
};

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The events of one finished request (none for most requests). */
export function plannedEvents(o: RouteOutcome): PlannedEvent[] {
  if (!o.auth) return [];
  const projectId = o.auth.project.id;
  const ok = o.status < 400;
  const self = o.auth.userId ?? null;
  const body = o.body ?? {};
  const out: PlannedEvent[] = [];
  const add = (event: SecurityEventName, userId: string | null, target: string | null, details: Record<string, unknown> = {}, auditIn: string[] = []) =>
    out.push({ event, projectId, userId, target, details, auditIn });
  const owner = [projectId];
  // The project users' events, in the project's own log (issue 26).
  const addUser = (event: SecurityEventName, userId: string | null, target: string | null, details: Record<string, unknown> = {}) =>
    out.push({ event, projectId, userId, target, details, auditIn: [projectId], queued: true });

  const signInMethod = SIGN_IN_METHODS[o.route];
  if (signInMethod && !(o.route === 'POST /auth/oauth/token' && body.grant_type !== 'authorization_code')) {
    if (ok) addUser('sign_in.succeeded', o.scopeUserId ?? str(o.response?.user_id), null, { method: signInMethod });
    else if (o.errorCode === 'MULTI_FACTOR_AUTHENTICATION_REQUIRED') add('sign_in.mfa_required', null, null, { method: signInMethod });
    // The user of a failed attempt is known when the flow noted it (a wrong password for an existing account); the
    // email typed is never kept. An attempt refused by a rate limit is logged, not kept: the lockout has its entry
    // (auth/rate-limits.ts), and a flood of refusals would otherwise fill the project's log.
    else if (o.errorCode === 'RATE_LIMITED') add('sign_in.failed', o.scopeUserId ?? null, null, { method: signInMethod, error: o.errorCode });
    else addUser('sign_in.failed', o.scopeUserId ?? null, null, { method: signInMethod, error: o.errorCode ?? `HTTP ${o.status}` });
    return out;
  }
  if (!ok) return out;

  const userParam = str(o.params?.user_id);
  const subject = userParam === 'me' ? self : userParam;
  const byAccess = { by: o.auth.type };
  switch (o.route) {
    case 'PATCH /users/me':
    case 'PATCH /users/:user_id': {
      const userId = o.route === 'PATCH /users/me' ? self : subject;
      if ('password' in body) addUser('password.changed', userId, userId, byAccess);
      if ('totp_secret_base64' in body) addUser(body.totp_secret_base64 === null ? 'mfa.totp_disabled' : 'mfa.totp_enabled', userId, userId, byAccess);
      if (body.passkey_auth_enabled === false) addUser('mfa.passkey_disabled', userId, userId, byAccess);
      const metadata = body.server_metadata;
      if (projectId === 'internal' && metadata && typeof metadata === 'object' && 'managedProjectIds' in metadata) {
        add('project.ownership_changed', userId, userId, { managed_project_ids: managedProjectIds(metadata) }, owner);
      }
      break;
    }
    case 'POST /auth/passkey/register': addUser('mfa.passkey_added', self, self); break;
    case 'POST /auth/password/update': addUser('password.changed', self, self, byAccess); break;
    case 'POST /auth/password/set': addUser('password.set', self, self, byAccess); break;
    case 'POST /auth/password/reset': addUser('password.reset', o.scopeUserId ?? null, o.scopeUserId ?? null); break;
    case 'DELETE /auth/sessions/current': addUser('session.revoked', self, o.auth.sessionId ?? null, { reason: 'sign_out' }); break;
    case 'DELETE /auth/sessions/:id': {
      const q = str(o.query?.user_id);
      addUser('session.revoked', q === 'me' || q === null ? self : q, str(o.params?.id), { reason: 'revoked', ...byAccess });
      break;
    }
    case 'POST /auth/sessions':
      if (body.is_impersonation === true) {
        const userId = body.user_id === 'me' ? self : str(body.user_id);
        add('impersonation.created', userId, userId, { expires_in_millis: body.expires_in_millis ?? null }, owner);
      }
      break;
    case 'POST /internal/api-keys': {
      const kinds = ['publishable_client_key', 'secret_server_key', 'super_secret_admin_key'].filter((k) => body[`has_${k}`] === true);
      add('api_key.created', null, str(o.response?.id), { kinds, expires_at_millis: body.expires_at_millis ?? null }, owner);
      break;
    }
    case 'PATCH /internal/api-keys/:api_key_id':
      if (body.revoked === true) add('api_key.revoked', null, str(o.params?.api_key_id), {}, owner);
      break;
    case 'POST /user-api-keys': addUser('user_api_key.created', str(o.response?.user_id), str(o.response?.id)); break;
    case 'POST /team-api-keys': addUser('team_api_key.created', null, str(o.response?.id), { team_id: str(o.response?.team_id) }); break;
    case 'PATCH /user-api-keys/:api_key_id':
      if (body.revoked === true) addUser('user_api_key.revoked', str(o.response?.user_id), str(o.params?.api_key_id));
      break;
    case 'PATCH /team-api-keys/:api_key_id':
      if (body.revoked === true) addUser('team_api_key.revoked', null, str(o.params?.api_key_id), { team_id: str(o.response?.team_id) });
      break;
    case 'PATCH /projects/current': {
      // Names only: the values include OAuth client secrets and SMTP passwords.
      const config = body.config && typeof body.config === 'object' ? Object.keys(body.config).sort() : [];
      add('project.config_changed', null, projectId, { fields: Object.keys(body).sort(), config_fields: config }, owner);
      break;
    }
    case 'DELETE /projects/current': add('project.deleted', null, projectId, {}, [projectId, 'internal']); break;
    case 'POST /internal/owner-invitations/accept': {
      // Recorded in the project now owned by one more account, and in the internal project (whose user changed).
      const owned = str(o.response?.project_id);
      if (owned && o.response?.already_owner === false) add('project.ownership_changed', self, self, { added_project_id: owned, via: 'invitation' }, [owned, 'internal']);
      break;
    }
    case 'DELETE /internal/owners/:user_id': {
      // The removed owner's account is the internal project's: recorded there too.
      const removed = str(o.params?.user_id);
      if (ok && removed) add('project.ownership_changed', self, removed, { removed_project_id: projectId, via: 'removal' }, [projectId, 'internal']);
      break;
    }
    case 'POST /internal/projects': {
      const created = str(o.response?.id);
      if (created) add('project.created', self, created, { owner_user_id: self }, [created, 'internal']);
      break;
    }
  }
  return out;
}

function actorOf(auth: Auth): { kind: auditLog.ActorKind; userId: string | null } {
  if (auth.adminUserId) return { kind: 'admin_token', userId: auth.adminUserId };
  if (auth.type === 'admin') return { kind: 'admin_key', userId: null };
  if (auth.type === 'server') return { kind: 'server_key', userId: null };
  return { kind: 'client', userId: auth.userId ?? null };
}

/**
 * Logs the request's security events and appends its audit entries. Owner-plane entries are written before the
 * answer goes out, so a caller that reads the log next sees them; a failure to write them is logged and fails the
 * request (an owner-plane action the log cannot record is an error an operator must see). The project users'
 * entries are queued (observability/audit-trail.ts).
 */
export async function recordRouteOutcome(services: Services, o: RouteOutcome): Promise<void> {
  const events = plannedEvents(o);
  if (!events.length || !o.auth) return;
  const scope = requestScope();
  const actor = actorOf(o.auth);
  const now: auditLog.AuditRecord[] = [];
  const queued: auditLog.AuditRecord[] = [];
  for (const e of events) {
    securityEvent(e.event, {
      project_id: e.projectId, user_id: e.userId, ...(e.target ? { target: e.target } : {}), ...e.details,
      ...(e.auditIn.length ? { actor_kind: actor.kind, actor_user_id: actor.userId } : {}),
    });
    for (const projectId of e.auditIn) {
      (e.queued ? queued : now).push({
        projectId, event: e.event as AuditEvent, actorKind: actor.kind, actorUserId: actor.userId, ip: scope?.ip ?? null,
        requestId: scope?.requestId ?? null, target: e.target,
        // A user of the event's own project (a new project's log does not name its owner, a user of another project).
        subjectUserId: projectId === e.projectId ? e.userId : null,
        details: projectId === e.projectId ? e.details : { ...e.details, project_id: e.projectId },
      });
    }
  }
  services.auditTrail.add(queued);
  if (now.length) await services.auditTrail.write(now);
}

/** After a route's handler: the outcome (its answer, or the error it threw) recorded by `recordRouteOutcome`. */
export async function recordHandlerOutcome(
  services: Services,
  req: { def: { method: string; path: string }; auth: Auth | null; params: unknown; query: unknown; body: unknown },
  outcome: { result: unknown } | { error: unknown },
): Promise<void> {
  const route = `${req.def.method} ${req.def.path}`;
  let status = 200;
  let response: Record<string, unknown> | undefined;
  let errorCode: string | undefined;
  if ('error' in outcome) {
    status = outcome.error instanceof KnownError ? outcome.error.statusCode : (outcome.error as { status?: number })?.status ?? 500;
    errorCode = outcome.error instanceof KnownError ? outcome.error.errorCode : undefined;
  } else if (outcome.result instanceof HttpResult) {
    status = outcome.result.status;
    const body = outcome.result.body;
    if (typeof body === 'string' && body.startsWith('{')) { try { response = JSON.parse(body); } catch { /* not JSON */ } }
  } else if (outcome.result && typeof outcome.result === 'object') {
    response = outcome.result as Record<string, unknown>;
  }
  const asRecord = (v: unknown) => (v && typeof v === 'object' ? v as Record<string, unknown> : undefined);
  await recordRouteOutcome(services, {
    route, auth: req.auth, params: asRecord(req.params), query: asRecord(req.query), body: asRecord(req.body),
    status, response, errorCode, scopeUserId: requestScope()?.userId,
  });
}
