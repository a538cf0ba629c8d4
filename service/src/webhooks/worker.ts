/**
 * Webhook delivery: the worker that POSTs the webhook_deliveries rows (written by events.ts, one per subscribed
 * endpoint, in the transaction of the change) to their endpoints, signed per Standard Webhooks, with retries and back-off. Delivery is at least once; the
 * `webhook-id` stays the same across retries so receivers can drop duplicates.
 *
 * Row life cycle (same scheme as the email outbox): pending → sending → delivered | pending (retry) | failed.
 * Claims use FOR UPDATE SKIP LOCKED, so several workers and service instances share the table safely.
 */
import type { DB } from '../db';
import * as webhooks from '../repo/webhooks';
import { decryptString } from '../tokens/encryption';
import { backoffDelayMs, startPollingLoop, type Wakers } from '../worker-loop';
import { PrivateTargetRefused, pinnedFetchTarget, type OutboundPolicy } from '../net/outbound-targets';
import { webhookHeaders } from './signing';
import { traced } from '../observability/tracing';

export const WEBHOOK_SECRET_PURPOSE = 'webhook-endpoint-secret';

export interface WebhookWorkerOptions {
  /** Poll interval when idle; default 1000 ms. */
  pollMs?: number;
  batchSize?: number;
  /** Attempts before a delivery is given up; default 12 (about 2.5 hours with the default back-off). */
  maxAttempts?: number;
  /** Back-off before attempt n+1: base · 2^(n−1), capped, with jitter. Defaults 5 s and 1 hour. */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** Upper bound of one HTTP attempt; default 15 s. */
  timeoutMs?: number;
  /** Whether endpoints may be on private networks; default refused (the service passes its configured policy). */
  outbound?: OutboundPolicy;
  logger?: Pick<Console, 'warn' | 'error'>;
}

/** Worker settings from the environment (tests shorten the back-off). */
export function webhookOptionsFromEnv(env: Record<string, string | undefined>): WebhookWorkerOptions {
  const num = (v: string | undefined) => (v && Number.isFinite(Number(v)) ? Number(v) : undefined);
  return {
    pollMs: num(env.GATEHOUSE_WEBHOOK_POLL_MS),
    backoffBaseMs: num(env.GATEHOUSE_WEBHOOK_RETRY_BASE_MS),
    backoffCapMs: num(env.GATEHOUSE_WEBHOOK_RETRY_CAP_MS),
    maxAttempts: num(env.GATEHOUSE_WEBHOOK_MAX_ATTEMPTS),
  };
}

export { backoffDelayMs as backoffMs } from '../worker-loop';

/** `wakers`: where the worker registers its wake-up call (Services.webhookWorkers: events and retry-now wake it). */
export function startWebhookWorker(db: DB, secret: string, wakers: Wakers, options: WebhookWorkerOptions = {}) {
  const o = {
    pollMs: options.pollMs ?? 1_000,
    batchSize: options.batchSize ?? 20,
    maxAttempts: options.maxAttempts ?? 12,
    backoffBaseMs: options.backoffBaseMs ?? 5_000,
    backoffCapMs: options.backoffCapMs ?? 3_600_000,
    timeoutMs: options.timeoutMs ?? 15_000,
    outbound: options.outbound ?? { allowPrivateNetworks: false },
    logger: options.logger ?? console,
  };
  const leaseMs = o.timeoutMs + 30_000;

  // A span per delivery when tracing is on: the delivery's and endpoint's ids (never the URL's secrets or the payload).
  const deliver = (row: webhooks.ClaimedDelivery) =>
    traced('webhook.deliver', { 'gatehouse.webhook.delivery_id': row.id, 'gatehouse.webhook.endpoint_id': row.endpointId }, () => attempt(row));

  async function attempt(row: webhooks.ClaimedDelivery): Promise<void> {
    if (!row.endpointEnabled) {
      await webhooks.recordOutcome(db, row, { delivered: false, error: 'The endpoint was disabled', retryInMs: null });
      return;
    }
    let error: string | null = null;
    let responseStatus: number | null = null;
    let permanent = false;
    try {
      const body = JSON.stringify(row.payload);
      const timestamp = Math.floor(Date.now() / 1000);
      const headers = webhookHeaders(decryptString(secret, WEBHOOK_SECRET_PURPOSE, row.secretEncrypted), row.id, timestamp, body);
      // The endpoint's name is resolved and checked here, and the request goes to the checked address.
      const target = await pinnedFetchTarget(row.url, o.outbound);
      const res = await fetch(target.url, {
        method: 'POST', body, redirect: 'manual', signal: AbortSignal.timeout(o.timeoutMs),
        headers: { 'content-type': 'application/json', 'user-agent': 'Gatehouse-Webhooks/1.0', ...headers, host: target.host },
        ...(target.serverName ? { tls: { serverName: target.serverName } } : {}),
      });
      // The body is not needed; reading it frees the connection.
      await res.arrayBuffer().catch(() => undefined);
      responseStatus = res.status;
      if (res.status < 200 || res.status >= 300) error = `HTTP ${res.status}`;
    } catch (err) {
      error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      // A refused address stays refused: retrying would only repeat the error.
      permanent = err instanceof PrivateTargetRefused;
    }
    if (!error) return webhooks.recordOutcome(db, row, { delivered: true, responseStatus });
    const retryInMs = permanent || row.attempts >= o.maxAttempts ? null : backoffDelayMs(row.attempts, o.backoffBaseMs, o.backoffCapMs);
    await webhooks.recordOutcome(db, row, { delivered: false, error, retryInMs, responseStatus });
    o.logger.warn(`[webhooks] attempt ${row.attempts} of ${row.eventType} to ${row.url} failed (${error})${retryInMs === null ? '; giving up' : `; retrying in ${retryInMs} ms`}`);
  }

  async function round(): Promise<number> {
    const rows = await webhooks.claimDue(db, { batchSize: o.batchSize, leaseMs, maxAttempts: o.maxAttempts });
    await Promise.all(rows.map((r) => deliver(r).catch((err) => o.logger.error(`[webhooks] could not record the outcome for ${r.id}:`, err))));
    return rows.length;
  }

  const polling = startPollingLoop({
    pollMs: o.pollMs, batchSize: o.batchSize, round, onRoundError: (err) => o.logger.error('[webhooks] delivery round failed:', err),
  });
  const unregister = wakers.add(polling.kick);
  return {
    kick: polling.kick,
    async stop() { unregister(); await polling.stop(); },
  };
}
