// Prometheus metrics (prom-client), off by default: GATEHOUSE_METRICS_PORT starts a separate listener (on HOST)
// serving GET /metrics, so that the figures are never reachable through the public API port; put it on a network
// only your Prometheus reaches. Request counts and latency by route pattern and status, sign-ins and sign-ups by
// method and outcome, rate-limit refusals, requests in progress, process figures, and at each scrape the email
// outbox and webhook deliveries by status (from the database, so every instance reports the shared queues).
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

let queuesRegistered = false;
/** The gauges read from the database at each scrape. */
function registerQueueGauges(db: DB) {
  if (queuesRegistered) return;
  queuesRegistered = true;
  new Gauge({
    name: 'gatehouse_email_outbox', help: 'Emails in the outbox by status (pending and sending: the backlog; failed: given up)', labelNames: ['status'], registers: [registry],
    async collect() { this.reset(); for (const r of await operations.emailOutboxByStatus(db)) this.set({ status: r.status }, r.n); },
  });
  new Gauge({
    name: 'gatehouse_email_failed_attempts', help: 'Email delivery attempts the mail server refused or that failed (kept with the sent-email list)', registers: [registry],
    async collect() { this.set(await operations.failedEmailAttempts(db)); },
  });
  new Gauge({
    name: 'gatehouse_webhook_deliveries', help: 'Webhook deliveries by status (pending and sending: the backlog)', labelNames: ['status'], registers: [registry],
    async collect() { this.reset(); for (const r of await operations.webhookDeliveriesByStatus(db)) this.set({ status: r.status }, r.n); },
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

export function startMetricsServer(db: DB, port: number, hostname: string) {
  registerQueueGauges(db);
  return Bun.serve({
    port, hostname, development: false,
    async fetch(request) {
      if (new URL(request.url).pathname !== '/metrics') return new Response('Not found', { status: 404 });
      return new Response(await registry.metrics(), { headers: { 'content-type': registry.contentType } });
    },
  });
}
