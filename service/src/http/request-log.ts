// Per API request: the request id (an incoming `x-request-id`, else the trace id of an incoming W3C `traceparent`,
// else a new one) carried into the response and the logs, one access-log line and the request metrics.
import type { RouteDef } from './route';
import { accessLogEnabled, log } from '../observability/logger';
import { observeRequest } from '../observability/metrics';
import { STACK_HEADERS } from '@gatehouse/shared/constants';

const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;
const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

export interface IncomingIds { requestId?: string; traceId?: string }

/** Ids a proxy or caller sent; values that do not look like ids are ignored (they end up in logs and headers). */
export function incomingIds(headers: Headers): IncomingIds {
  const requestId = headers.get('x-request-id')?.trim();
  const trace = TRACEPARENT.exec(headers.get('traceparent')?.trim().toLowerCase() ?? '');
  const traceId = trace && !/^0+$/.test(trace[1]) ? trace[1] : undefined;
  return { requestId: requestId && REQUEST_ID.test(requestId) ? requestId : undefined, traceId };
}

export function finishRequest(def: RouteDef, request: Request, response: Response, status: number, requestId: string, ids: IncomingIds, startedAt: number): Response {
  const seconds = (performance.now() - startedAt) / 1000;
  response.headers.set('x-request-id', requestId);
  observeRequest(def.method, def.path || '/', status, seconds);
  if (accessLogEnabled()) {
    const projectId = request.headers.get(STACK_HEADERS.projectId)?.slice(0, 100) || undefined;
    log()[status >= 500 ? 'error' : 'info']({
      req_id: requestId, ...(ids.traceId ? { trace_id: ids.traceId } : {}), method: def.method, route: `/api/v1${def.path}`, status,
      duration_ms: Math.round(seconds * 10_000) / 10, ...(projectId ? { project_id: projectId } : {}),
    }, 'request');
  }
  return response;
}
