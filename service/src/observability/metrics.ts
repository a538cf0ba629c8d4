// Prometheus metrics (prom-client), off by default: GATEHOUSE_METRICS_PORT starts a separate listener serving
// GET /metrics, so that the figures are never reachable through the public API port. It listens on 127.0.0.1 unless
// GATEHOUSE_METRICS_HOST says otherwise, and with GATEHOUSE_METRICS_TOKEN it answers only requests bearing that token
// (issue 30 §6). Request counts and latency by route pattern and status, sign-ins and sign-ups by method and outcome,
// rate-limit refusals, requests in progress, process figures, and the email outbox and webhook deliveries by status
// (from the database, so every instance reports the shared queues; read at most every few seconds, however often
// the listener is scraped).
import { createHash, timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DB } from '../db';
import * as operations from '../repo/operations';
import { lifecycle } from '../lifecycle';

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'gatehouse_' });

const requests = new Counter({ name: 'gatehouse_http_requests_total', help: 'API requests by method, route pattern and status', labelNames: ['method', 'route', 'status'], registers: [registry] });
const latency = new Histogram({
  name: 'gatehouse_http_request_duration_seconds', help: 'API request duration by method, route pattern and status', labelNames: ['method', 'route', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [registry],
});
const signIns = new Counter({ name: 'gatehouse_sign_ins_total', help: 'Sign-in attempts by method and outcome (success: 2xx; failure: 4xx/5xx)', labelNames: ['method', 'outcome'], registers: [registry] });
const signUps = new Counter({ name: 'gatehouse_sign_ups_total', help: 'Sign-up attempts by method and outcome', labelNames: ['method', 'outcome'], registers: [registry] });
const rateLimited = new Counter({ name: 'gatehouse_rate_limit_refusals_total', help: 'Requests refused by a rate limit (429), by route pattern', labelNames: ['route'], registers: [registry] });
new Gauge({ name: 'gatehouse_http_requests_in_progress', help: 'API requests being handled', registers: [registry], collect() { this.set(lifecycle.requestsInFlight); } });

const SIGN_IN_ROUTES: Record<string, string> = {
  'POST /auth/password/sign-in': 'password', 'POST /auth/otp/sign-in': 'otp', 'POST /auth/passkey/sign-in': 'passkey', 'POST /auth/mfa/sign-in': 'mfa',
};
const SIGN_UP_ROUTES: Record<string, string> = { 'POST /auth/password/sign-up': 'password', 'POST /auth/anonymous/sign-up': 'anonymous' };

export function observeRequest(method: string, route: string, status: number, seconds: number) {
  const labels = { method, route, status: String(status) };
  requests.inc(labels);
  latency.observe(labels, seconds);
  const key = `${method} ${route}`;
  const outcome = status < 400 ? 'success' : 'failure';
  if (Object.hasOwn(SIGN_IN_ROUTES, key)) signIns.inc({ method: SIGN_IN_ROUTES[key], outcome });
  if (Object.hasOwn(SIGN_UP_ROUTES, key)) signUps.inc({ method: SIGN_UP_ROUTES[key], outcome });
  if (status === 429) rateLimited.inc({ route });
}

/** How long the database figures are served before they are read again (a scrape never waits on more than one read). */
export const DATABASE_FIGURES_MAX_AGE_MS = 5_000;

interface DatabaseFigures { outbox: { status: string; n: number }[]; failedAttempts: number; webhooks: { status: string; n: number }[] }

/** The database figures, read at most once per `maxAgeMs`; scrapes meanwhile (and during a read) share them. */
class CachedDatabaseFigures {
  private read: { at: number; figures: Promise<DatabaseFigures> } | null = null;
  constructor(private readonly db: DB, private readonly maxAgeMs = DATABASE_FIGURES_MAX_AGE_MS) {}
  get(): Promise<DatabaseFigures> {
    if (!this.read || Date.now() - this.read.at >= this.maxAgeMs) {
      const figures = Promise.all([operations.emailOutboxByStatus(this.db), operations.failedEmailAttempts(this.db), operations.webhookDeliveriesByStatus(this.db)])
        .then(([outbox, failedAttempts, webhooks]) => ({ outbox, failedAttempts, webhooks }));
      const read = { at: Date.now(), figures };
      // A failed read is not kept: the next scrape tries again.
      figures.catch(() => { if (this.read === read) this.read = null; });
      this.read = read;
    }
    return this.read.figures;
  }
}

let databaseFigures: CachedDatabaseFigures | null = null;
/** The gauges of the database figures, registered once, reading the listener's cache. */
function registerQueueGauges(db: DB) {
  const first = databaseFigures === null;
  databaseFigures = new CachedDatabaseFigures(db);
  if (!first) return;
  const figures = () => databaseFigures!.get();
  new Gauge({
    name: 'gatehouse_email_outbox', help: 'Emails in the outbox by status (pending and sending: the backlog; failed: given up)', labelNames: ['status'], registers: [registry],
    async collect() { const f = await figures(); this.reset(); for (const r of f.outbox) this.set({ status: r.status }, r.n); },
  });
  new Gauge({
    name: 'gatehouse_email_failed_attempts', help: 'Email delivery attempts the mail server refused or that failed (kept with the sent-email list)', registers: [registry],
    async collect() { this.set((await figures()).failedAttempts); },
  });
  new Gauge({
    name: 'gatehouse_webhook_deliveries', help: 'Webhook deliveries by status (pending and sending: the backlog)', labelNames: ['status'], registers: [registry],
    async collect() { const f = await figures(); this.reset(); for (const r of f.webhooks) this.set({ status: r.status }, r.n); },
  });
}

/** GATEHOUSE_METRICS_PORT: unset (off), or a port (0 picks a free one). A bad value throws `<VARIABLE>: ...`. */
export function metricsPort(env: Record<string, string | undefined>): number | undefined {
  const v = env.GATEHOUSE_METRICS_PORT;
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65535) throw new Error(`GATEHOUSE_METRICS_PORT: expected a port number (0-65535), got "${v}"`);
  return n;
}

/** The listener's settings (config.ts `metrics`): where it listens, and the bearer token it asks for, if any. */
export interface MetricsListener { port: number; hostname: string; token?: string }

/** GATEHOUSE_METRICS_TOKEN: unset, or a token of at least 16 characters. A bad value throws `<VARIABLE>: ...`. */
export function metricsToken(env: Record<string, string | undefined>): string | undefined {
  const v = env.GATEHOUSE_METRICS_TOKEN;
  if (v === undefined || v === '') return undefined;
  if (v.length < 16 || /\s/.test(v)) throw new Error('GATEHOUSE_METRICS_TOKEN: expected a token of at least 16 characters without spaces');
  return v;
}

/** Whether `authorization` is `Bearer <token>`, compared in constant time (digests of equal length). */
export function bearerMatches(authorization: string | null, token: string): boolean {
  const presented = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1] ?? '';
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(presented), digest(token)) && presented.length > 0;
}

export function startMetricsServer(db: DB, listener: MetricsListener) {
  registerQueueGauges(db);
  const { token } = listener;
  return Bun.serve({
    port: listener.port, hostname: listener.hostname, development: false,
    async fetch(request) {
      if (new URL(request.url).pathname !== '/metrics') return new Response('Not found', { status: 404 });
      if (token && !bearerMatches(request.headers.get('authorization'), token)) {
        return new Response('Unauthorized', { status: 401, headers: { 'www-authenticate': 'Bearer' } });
      }
      return new Response(await registry.metrics(), { headers: { 'content-type': registry.contentType } });
    },
  });
}
