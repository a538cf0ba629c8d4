// Housekeeping: deletes rows nobody can use any more, so tables do not grow forever. Every statement is a plain,
// idempotent delete of a small batch, so several instances can run it at once and a huge backlog never holds
// locks for long. Grace periods keep a row a while past its expiry where a late request should still get the
// precise error (VERIFICATION_CODE_EXPIRED / ALREADY_USED rather than NOT_FOUND).
import type { DB } from './db';
import { deadRows, deleteBatch, type HousekeepingTable } from './repo/housekeeping';
import { DEFAULT_RULES, parseRules } from './auth/rate-limits';
import { startPollingLoop } from './worker-loop';

export type { HousekeepingTable };
export type HousekeepingCounts = Record<HousekeepingTable, number>;

export interface HousekeepingOptions {
  /** GATEHOUSE_RATE_LIMITS: a rate-limit row is dead once the longest configured window has passed. */
  rateLimits?: string;
  batchSize?: number;
}

/** Longest rate-limit window in seconds (the defaults' when limiting is off: rows may remain from before). */
export function longestRateLimitWindowSeconds(spec: string | undefined): number {
  let rules = DEFAULT_RULES;
  try {
    rules = parseRules(spec) ?? DEFAULT_RULES;
  } catch {
    // A bad spec already stops the service at start-up; here the defaults are the safe fallback.
  }
  return Math.max(...Object.values(rules).map((r) => r.windowSeconds));
}

/** Deletes every dead row, batch by batch; returns how many rows went per table. */
export async function runHousekeeping(db: DB, now?: Date, opts: HousekeepingOptions = {}): Promise<HousekeepingCounts> {
  const batchSize = opts.batchSize ?? 1000;
  const conditions = deadRows(now, longestRateLimitWindowSeconds(opts.rateLimits));
  const counts = {} as HousekeepingCounts;
  for (const table of Object.keys(conditions) as HousekeepingTable[]) {
    let total = 0;
    for (;;) {
      const n = await deleteBatch(db, table, conditions[table], batchSize);
      total += n;
      if (n < batchSize) break;
    }
    counts[table] = total;
  }
  return counts;
}

export interface HousekeepingWorkerOptions extends HousekeepingOptions {
  /** Between runs. Default 10 minutes (GATEHOUSE_HOUSEKEEPING_INTERVAL_MS). */
  intervalMs?: number;
  /** Before the first run, so start-up is not slowed by it. Default 30 s (or the interval, if shorter). */
  initialDelayMs?: number;
  logger?: Pick<Console, 'error'>;
}

/** GATEHOUSE_HOUSEKEEPING_INTERVAL_MS (config.ts): a positive number of milliseconds; anything else stops the start. */
export function housekeepingIntervalMs(env: Record<string, string | undefined>): number | undefined {
  const raw = env.GATEHOUSE_HOUSEKEEPING_INTERVAL_MS;
  if (raw === undefined || raw === '') return undefined;
  const ms = Number(raw);
  if (!Number.isFinite(ms) || ms <= 0) throw new Error(`GATEHOUSE_HOUSEKEEPING_INTERVAL_MS: expected a positive number of milliseconds, got "${raw}"`);
  return ms;
}

export function startHousekeeping(db: DB, o: HousekeepingWorkerOptions = {}): { stop(): Promise<void> } {
  const intervalMs = o.intervalMs ?? 10 * 60_000;
  const logger = o.logger ?? console;
  let loop: ReturnType<typeof startPollingLoop> | null = null;
  const timer = setTimeout(() => {
    loop = startPollingLoop({
      pollMs: intervalMs,
      // runHousekeeping drains every table itself; a round never asks for an immediate rerun.
      batchSize: Number.POSITIVE_INFINITY,
      round: async () => { await runHousekeeping(db, undefined, o); return 0; },
      onRoundError: (err) => logger.error('[housekeeping] run failed:', err),
    });
  }, o.initialDelayMs ?? Math.min(30_000, intervalMs));
  return {
    async stop() {
      clearTimeout(timer);
      await loop?.stop();
    },
  };
}
