// Rate-limit counters (table `rate_limits`): one row per key holds a fixed window's start and a counter, bumped by
// one atomic upsert. The rules (which keys, what limits) are auth/rate-limits.ts.
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DB } from '../db';

export interface CounterHit { key: string; windowStart: string; count: number; retryAfter: number }

/**
 * Counts one hit on every key in one statement (one round trip however many keys). Keys are locked in sorted
 * order, so two requests sharing keys cannot deadlock. A key whose window has passed starts a new one.
 */
export async function hitCounters(db: DB, windows: Map<string, number>): Promise<CounterHit[]> {
  if (windows.size === 0) return [];
  const keys = [...windows.keys()].sort();
  const windowOf = sql`(case rate_limits.key ${sql.join(keys.map((k) => sql`when ${k} then ${windows.get(k)!}::int`), sql` `)} end)`;
  const expired = sql`rate_limits.window_start <= now() - ${windowOf} * interval '1 second'`;
  const rows = rowsOf<{ key: string; count: number; window_start: string; retry_after: number }>(await db.execute(sql`
    insert into rate_limits (key, window_start, count)
    values ${sql.join(keys.map((k) => sql`(${k}, now(), 1)`), sql`, `)}
    on conflict (key) do update set
      window_start = case when ${expired} then now() else rate_limits.window_start end,
      count = case when ${expired} then 1 else rate_limits.count + 1 end
    returning key, count, window_start::text as window_start,
      greatest(1, ceil(extract(epoch from (window_start + ${windowOf} * interval '1 second' - now()))))::int as retry_after`));
  return rows.map((r) => ({ key: r.key, windowStart: r.window_start, count: Number(r.count), retryAfter: Number(r.retry_after) }));
}

/** Takes back one count of each hit, in its window only (a window that restarted meanwhile is left alone). */
export async function refundCounters(db: DB, hits: { key: string; windowStart: string }[]): Promise<void> {
  if (hits.length === 0) return;
  await db.execute(refundStatement(hits));
}

/**
 * The refund as a statement another one can carry in a `with` clause (repo/sessions.ts: a successful sign-in's
 * session insert), saving the sign-in a round trip and a statement. `hits` is not empty.
 */
export function refundStatement(hits: { key: string; windowStart: string }[]): SQL {
  const pairs = sql.join(hits.map((h) => sql`(${h.key}, ${h.windowStart})`), sql`, `);
  return sql`update rate_limits set count = greatest(count - 1, 0) where (key, window_start::text) in (${pairs})`;
}
