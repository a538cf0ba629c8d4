// Security events (issue 17 §8, ASVS 7.1-7.2): one structured log entry per security-relevant event, through the
// service's logger: `{"msg":"security event","event":"sign_in.failed","project_id","user_id","ip","req_id","time",...}`
// (`time` is UTC, ISO 8601). Entries carry ids, codes and field names only, never a password, token, code or key.
// The request's id and client IP come from the request scope that runRoute opens around each API request.
import { AsyncLocalStorage } from 'node:async_hooks';
import { log } from './logger';

export type SecurityEventName =
  | 'sign_in.succeeded' | 'sign_in.failed' | 'sign_in.mfa_required' | 'sign_in.locked_out' | 'sign_in.account_throttled' | 'rate_limit.refused'
  | 'mfa.totp_enabled' | 'mfa.totp_disabled' | 'mfa.passkey_added' | 'mfa.passkey_disabled'
  | 'password.changed' | 'password.set' | 'password.reset' | 'session.revoked' | 'impersonation.created'
  | 'api_key.created' | 'api_key.revoked' | 'user_api_key.created' | 'user_api_key.revoked' | 'team_api_key.created' | 'team_api_key.revoked'
  | 'project.created' | 'project.config_changed' | 'project.deleted' | 'project.ownership_changed' | 'access.refused';

export interface RequestScope {
  requestId: string;
  ip: string;
  /** The user a flow acted for, noted by the flow when the request itself does not name them (a sign-in). */
  userId?: string;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** `ip`: the request's client IP (http/client-ip.ts). */
export function withRequestScope<T>(ip: string, requestId: string, run: () => Promise<T>): Promise<T> {
  return scopes.run({ requestId, ip }, run);
}

export function requestScope(): RequestScope | undefined {
  return scopes.getStore();
}

/** Called where a session is issued, or a password sign-in fails for an existing account: its user, for the event. */
export function noteScopeUser(userId: string): void {
  const scope = scopes.getStore();
  if (scope) scope.userId = userId;
}

export interface SecurityEventFields {
  project_id: string;
  user_id?: string | null;
  [detail: string]: unknown;
}

const WARNINGS = new Set<SecurityEventName>(['sign_in.failed', 'sign_in.locked_out', 'sign_in.account_throttled', 'rate_limit.refused', 'access.refused']);

export function securityEvent(event: SecurityEventName, fields: SecurityEventFields): void {
  const scope = scopes.getStore();
  log()[WARNINGS.has(event) ? 'warn' : 'info']({
    event, ...fields, user_id: fields.user_id ?? null, ip: scope?.ip ?? null, req_id: scope?.requestId ?? null,
  }, 'security event');
}
