// Access-control refusals as security events (ASVS 7.1.3; issue 30): a token or key of another project, an owner
// token for a project it does not own, an access type or a permission the caller lacks. Each is logged as
// `access.refused` and appended to the project's audit log, at most REFUSALS_PER_WINDOW per project and window on
// this instance, so that a flood of refused requests cannot fill the table or the logs: the refusals left out are
// counted and named in the next entry (`suppressed`).
import { LRUCache } from 'lru-cache';
import type { Services } from '../services';
import * as auditLog from '../repo/audit-log';
import { requestScope, securityEvent } from '../observability/security-events';

export const ACCESS_REFUSAL_CODES = new Set([
  'INVALID_PROJECT_FOR_ACCESS_TOKEN', 'INVALID_PUBLISHABLE_CLIENT_KEY', 'INVALID_SECRET_SERVER_KEY', 'INVALID_SUPER_SECRET_ADMIN_KEY',
  'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 'INSUFFICIENT_ACCESS_TYPE', 'TEAM_PERMISSION_REQUIRED', 'PROJECT_PERMISSION_REQUIRED',
]);

export const REFUSALS_PER_WINDOW = 20;
export const REFUSAL_WINDOW_MS = 60_000;

interface Window { start: number; recorded: number; suppressed: number }
// Bounded by projects, not requests: a flood over made-up project ids never reaches here (no such project, no entry).
const windows = new LRUCache<string, Window>({ max: 10_000 });

/** Whether this refusal is recorded, and how many were left out before it. */
function admit(projectId: string, now: number): { record: boolean; suppressed: number } {
  let w = windows.get(projectId);
  if (!w || now - w.start >= REFUSAL_WINDOW_MS) {
    const carried = w?.suppressed ?? 0;
    w = { start: now, recorded: 0, suppressed: carried };
    windows.set(projectId, w);
  }
  if (w.recorded >= REFUSALS_PER_WINDOW) { w.suppressed++; return { record: false, suppressed: 0 }; }
  w.recorded++;
  const suppressed = w.suppressed;
  w.suppressed = 0;
  return { record: true, suppressed };
}

/** Who was refused, as the audit log names actors (from the request's headers when authentication itself failed). */
function actorKindOf(headers: Headers, authType?: string, adminUserId?: string | null): auditLog.ActorKind {
  const type = authType ?? headers.get('x-stack-access-type');
  if (type === 'admin') return adminUserId || headers.get('x-stack-admin-access-token') ? 'admin_token' : 'admin_key';
  if (type === 'server') return 'server_key';
  return 'client';
}

export async function recordAccessRefusal(services: Services, r: {
  errorCode: string; route: string; headers: Headers;
  auth: { type: string; project: { id: string }; userId?: string | null; adminUserId?: string | null } | null;
}): Promise<void> {
  if (!ACCESS_REFUSAL_CODES.has(r.errorCode)) return;
  const projectId = r.auth?.project.id ?? r.headers.get('x-stack-project-id');
  // Only a project that exists has a log to write to.
  if (!projectId || !(r.auth || (await services.projects.get(projectId)))) return;
  const { record, suppressed } = admit(projectId, Date.now());
  if (!record) return;
  const scope = requestScope();
  const details = { error: r.errorCode, route: r.route, ...(suppressed ? { suppressed } : {}) };
  const actorKind = actorKindOf(r.headers, r.auth?.type, r.auth?.adminUserId);
  const actorUserId = r.auth?.adminUserId ?? r.auth?.userId ?? null;
  securityEvent('access.refused', { project_id: projectId, user_id: actorUserId, actor_kind: actorKind, ...details });
  await auditLog.append(services.db, [{
    projectId, event: 'access.refused', actorKind, actorUserId, ip: scope?.ip ?? null, requestId: scope?.requestId ?? null, target: null, details,
  }]).catch((err) => console.error('Failed to record an access refusal:', err));
}
