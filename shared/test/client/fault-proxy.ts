// A real HTTP proxy on 127.0.0.1 in front of a running service, scripted per request: forward, answer with a fault
// status (429 with Retry-After, 508, ...), drop the connection, or wait first. It records every request it saw, so
// tests count attempts at the wire instead of trusting the client's own bookkeeping.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClientTimers } from '../../src/client/index.ts';

export type FaultAction =
  | { kind: 'forward'; delayMs?: number }
  | { kind: 'respond'; status: number; headers?: Record<string, string>; body?: string; delayMs?: number }
  | { kind: 'drop'; delayMs?: number };

export const forward = (): FaultAction => ({ kind: 'forward' });
export const drop = (): FaultAction => ({ kind: 'drop' });
/** What a rate-limiting gateway sends: a plain 429 (not the service's override-status form). */
export const tooManyRequests = (retryAfter?: string): FaultAction => ({
  kind: 'respond',
  status: 429,
  headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  body: 'Too Many Requests',
});
/** A loop-detecting gateway's 508; the client retries only when the body names INFINITE_LOOP_DETECTED. */
export const loopDetected = (body = 'INFINITE_LOOP_DETECTED'): FaultAction => ({ kind: 'respond', status: 508, body });
export const delayed = (delayMs: number, action: FaultAction = forward()): FaultAction => ({ ...action, delayMs });

export interface SeenRequest {
  method: string;
  /** Path and query, e.g. `/api/v1/users/me`. */
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Arrival time (real clock, ms). */
  at: number;
  /** 1-based number of this request among those with the same method and pathname. */
  count: number;
  action: FaultAction['kind'];
  /** Status the proxy answered with (forwarded or its own); undefined for drops. */
  status?: number;
  /** `x-stack-known-error` of the forwarded answer, if any. */
  knownError?: string;
  /** Number of the TCP connection it came on, and whether that connection had carried a request before. */
  connection: number;
  reusedConnection: boolean;
}

export type FaultScript = (req: SeenRequest) => FaultAction | undefined;

export interface FaultProxy {
  url: string;
  requests: SeenRequest[];
  /** Replaces the script; requests it returns undefined for are forwarded. */
  script(fn: FaultScript): void;
  /** Requests with this method and pathname (query ignored). */
  seen(method: string, pathname: string): SeenRequest[];
  reset(): void;
  stop(): Promise<void>;
}

// Hop-by-hop headers and those fetch recomputes; accept-encoding is dropped so bodies pass through uncompressed.
const SKIP_REQUEST_HEADERS = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'accept-encoding']);
const SKIP_RESPONSE_HEADERS = new Set(['connection', 'keep-alive', 'content-length', 'transfer-encoding', 'content-encoding']);

/**
 * `keepAlive: false` (default) answers every request with `connection: close`, so each attempt of the client opens a
 * fresh connection. That matters for drops: when a *reused* keep-alive connection closes before any answer, the
 * runtime's fetch itself resends an idempotent request once (RFC 9112 §9.3.1; Bun does), which would add a wire
 * request the library never made. `keepAlive: true` keeps connections open to observe exactly that.
 */
export async function startFaultProxy(upstream: string, opts: { keepAlive?: boolean } = {}): Promise<FaultProxy> {
  const requests: SeenRequest[] = [];
  const counts = new Map<string, number>();
  const connections = new WeakMap<object, { id: number; used: number }>();
  let nextConnection = 1;
  let current: FaultScript = () => undefined;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    const key = `${method} ${new URL(path, 'http://x').pathname}`;
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    let conn = connections.get(req.socket);
    if (!conn) connections.set(req.socket, (conn = { id: nextConnection++, used: 0 }));
    const seen: SeenRequest = {
      method, path, headers, body, at: Date.now(), count, action: 'forward', connection: conn.id, reusedConnection: conn.used++ > 0,
    };
    const closing: Record<string, string> = opts.keepAlive ? {} : { connection: 'close' };
    requests.push(seen);
    const action = current(seen) ?? forward();
    seen.action = action.kind;
    if (action.delayMs) await Bun.sleep(action.delayMs);

    if (action.kind === 'drop') {
      req.socket.destroy();
      return;
    }
    if (action.kind === 'respond') {
      seen.status = action.status;
      res.writeHead(action.status, { 'content-type': 'text/plain', ...action.headers, ...closing });
      res.end(action.body ?? '');
      return;
    }
    const out = new Headers();
    for (const [k, v] of Object.entries(headers)) if (!SKIP_REQUEST_HEADERS.has(k)) out.set(k, v);
    const upstreamRes = await fetch(upstream + path, {
      method,
      headers: out,
      body: method === 'GET' || method === 'HEAD' ? undefined : body,
      redirect: 'manual',
    });
    const resBody = Buffer.from(await upstreamRes.arrayBuffer());
    seen.status = upstreamRes.status;
    seen.knownError = upstreamRes.headers.get('x-stack-known-error') ?? undefined;
    const resHeaders: Record<string, string> = {};
    upstreamRes.headers.forEach((v, k) => {
      if (!SKIP_RESPONSE_HEADERS.has(k)) resHeaders[k] = v;
    });
    res.writeHead(upstreamRes.status, { ...resHeaders, ...closing });
    res.end(resBody);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      // A proxy bug must show up as a failing test, not as a hang.
      if (!res.headersSent) res.writeHead(599, { 'content-type': 'text/plain' });
      res.end(`fault proxy error: ${err instanceof Error ? err.message : String(err)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(fn) {
      current = fn;
    },
    seen: (method, pathname) => requests.filter((r) => r.method === method && new URL(r.path, 'http://x').pathname === pathname),
    reset() {
      requests.length = 0;
      counts.clear();
      current = () => undefined;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/**
 * Client timers on the real clock (optionally running `lagMs` behind) whose `sleep` returns at once and records the
 * delay, so the exact back-off schedule is visible without waiting for it. `random` is fixed for exact values.
 */
export function recordingTimers(opts: { random?: number; lagMs?: number } = {}) {
  const sleeps: number[] = [];
  const timers: Partial<ClientTimers> = {
    now: () => Date.now() - (opts.lagMs ?? 0),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => opts.random ?? 0.5,
  };
  return { timers, sleeps };
}
