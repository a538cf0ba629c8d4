// Test helpers for the client library: controllable timers, a fake browser, unsigned JWTs and a local HTTP server.
import { base64UrlEncode } from '../../src/rules/base64.ts';
import type { BrowserEnvironment, ClientTimers } from '../../src/client/index.ts';

/** An unsigned JWT with the given claims (the client never verifies signatures). */
export function fakeJwt(claims: Record<string, unknown>): string {
  return `${base64UrlEncode(JSON.stringify({ alg: 'ES256', kid: 'test' }))}.${base64UrlEncode(JSON.stringify(claims))}.c2ln`;
}

/** A JWT expiring `ms` from `now`. */
export function jwtExpiringIn(ms: number, now = Date.now(), extra: Record<string, unknown> = {}): string {
  return fakeJwt({ sub: 'user', exp: Math.floor((now + ms) / 1000), iat: Math.floor(now / 1000), ...extra });
}

export interface FakeTimers {
  timers: ClientTimers;
  /** Every `sleep(ms)` requested, in order. */
  sleeps: number[];
  intervals: { fn: () => void; ms: number }[];
  /** Runs every interval callback once. */
  tickIntervals(): void;
  /** Moves the clock and fires due timeouts. */
  advance(ms: number): void;
  now(): number;
}

/** Time stands still except through `advance`/`sleep`; `sleep` resolves at once (and advances the clock). */
export function fakeTimers(opts: { random?: number | (() => number); start?: number; sleepAdvancesClock?: boolean } = {}): FakeTimers {
  let now = opts.start ?? Date.now();
  const sleeps: number[] = [];
  const intervals: { fn: () => void; ms: number; id: number }[] = [];
  let timeouts: { fn: () => void; at: number; id: number }[] = [];
  let nextId = 1;
  const random = typeof opts.random === 'function' ? opts.random : () => (opts.random as number | undefined) ?? 0.5;
  const advance = (ms: number) => {
    now += ms;
    const due = timeouts.filter((t) => t.at <= now);
    timeouts = timeouts.filter((t) => t.at > now);
    for (const t of due) t.fn();
  };
  return {
    sleeps,
    intervals,
    now: () => now,
    advance,
    tickIntervals: () => intervals.forEach((i) => i.fn()),
    timers: {
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        if (opts.sleepAdvancesClock !== false) advance(ms);
      },
      random,
      setInterval: (fn, ms) => {
        const id = nextId++;
        intervals.push({ fn, ms, id });
        return id;
      },
      clearInterval: (id) => {
        const i = intervals.findIndex((x) => x.id === id);
        if (i >= 0) intervals.splice(i, 1);
      },
      setTimeout: (fn, ms) => {
        const id = nextId++;
        timeouts.push({ fn, at: now + ms, id });
        return id;
      },
      clearTimeout: (id) => {
        timeouts = timeouts.filter((t) => t.id !== id);
      },
    },
  };
}

/** `document.cookie` semantics: reading joins live cookies, assigning parses attributes (path/expires/secure). */
export class FakeCookieDocument {
  /** Every string assigned to document.cookie. */
  readonly writes: string[] = [];
  readonly jar = new Map<string, { value: string; expires?: Date; secure: boolean }>();
  constructor(readonly isHttps = true, readonly now: () => number = () => Date.now()) {}

  get cookie(): string {
    const out: string[] = [];
    for (const [name, c] of this.jar) {
      if (c.expires && c.expires.getTime() <= this.now()) continue;
      out.push(`${name}=${c.value}`);
    }
    return out.join('; ');
  }

  set cookie(raw: string) {
    this.writes.push(raw);
    const [pair, ...attrs] = raw.split('; ');
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq);
    const value = pair!.slice(eq + 1);
    let expires: Date | undefined;
    let secure = false;
    for (const a of attrs) {
      const [k, v] = a.split('=');
      if (k!.toLowerCase() === 'expires') expires = new Date(v!);
      if (k!.toLowerCase() === 'secure') secure = true;
    }
    if (secure && !this.isHttps) return;
    if (expires && expires.getTime() <= this.now()) this.jar.delete(name);
    else this.jar.set(name, { value, expires, secure });
  }

  /** Sets a cookie as another tab (or another SDK) would. */
  setRaw(name: string, value: string) {
    this.jar.set(name, { value, secure: false });
  }
}

export interface FakeBrowser extends BrowserEnvironment {
  document: FakeCookieDocument;
  navigations: { url: string; replace: boolean }[];
  setHref(url: string): void;
  prompts: string[];
  alerts: string[];
  promptAnswer: string | null;
}

export function fakeBrowser(href = 'https://app.example.com/', opts: { now?: () => number } = {}): FakeBrowser {
  let current = new URL(href);
  const navigations: { url: string; replace: boolean }[] = [];
  const browser: FakeBrowser = {
    document: new FakeCookieDocument(current.protocol === 'https:', opts.now),
    navigations,
    prompts: [],
    alerts: [],
    promptAnswer: null,
    setHref: (url) => {
      current = new URL(url, current);
    },
    location: {
      get href() {
        return current.toString();
      },
      get hostname() {
        return current.hostname;
      },
      assign: (url) => navigations.push({ url, replace: false }),
      replace: (url) => navigations.push({ url, replace: true }),
    },
    history: {
      replaceState: (_d, _u, url) => {
        if (url) current = new URL(String(url), current);
      },
    },
    navigator: { onLine: true },
    prompt: (message) => {
      browser.prompts.push(message);
      return browser.promptAnswer;
    },
    alert: (message) => {
      browser.alerts.push(message);
    },
  };
  return browser;
}

export type Handler = (req: Request, info: { count: number; path: string }) => Response | Promise<Response | undefined> | undefined;

/** A real local HTTP server recording every request; `handler` decides the answer. */
export function localServer(handler: Handler) {
  const requests: { method: string; path: string; headers: Headers; body: string; at: number }[] = [];
  const counts = new Map<string, number>();
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url);
      const body = await req.text();
      requests.push({ method: req.method, path: url.pathname + url.search, headers: req.headers, body, at: Date.now() });
      const key = `${req.method} ${url.pathname}`;
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      const res = await handler(new Request(req.url, { method: req.method, headers: req.headers, body: body || undefined }), { count, path: url.pathname });
      return res ?? new Response('not found', { status: 404 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    count: (method: string, path: string) => counts.get(`${method} ${path}`) ?? 0,
    stop: () => server.stop(true),
  };
}

/** A known-error response the way the service sends it with the override header. */
export function knownErrorResponse(code: string, status: number, error: string, details?: Record<string, unknown>): Response {
  return Response.json(details === undefined ? { code, error } : { code, details, error }, {
    status: 200,
    headers: { 'x-stack-known-error': code, 'x-stack-actual-status': String(status) },
  });
}

export const TEST_KEYS = { projectId: 'proj-test', publishableClientKey: 'pck_test', secretServerKey: 'ssk_test', superSecretAdminKey: 'sak_test' };
