// Rate-limit counters (table `rate_limits`): one row per key holds a fixed window's start and a counter, bumped by
// one atomic upsert. The rules (which keys, what limits) are auth/rate-limits.ts.
// This module owns the hit's combined statements: a hit carrying the read a request needs next (`hitCountersReading`),
// and the refund a session insert carries (`refundStatement`, repo/sessions.ts `create`). Callers pass values: the
// name of a read and its parameters, the hits to give back.
import { sql, type SQL } from 'drizzle-orm';
import type { DB } from '../db';
import { PreparedSql, preparedByShape } from '../db/prepared-sql';
import {
  authEmailOwner, authEmailOwnerSql, passwordSignInFacts, signInFactsOf, signInFactsSql, type AuthEmailOwnerRow, type SignInFacts, type SignInFactsRow,
} from './users';

export interface CounterHit { key: string; windowStart: string; count: number; retryAfter: number }

/**
 * Counts one hit on every key in one statement (one round trip however many keys). Keys are locked in sorted
 * order, so two requests sharing keys cannot deadlock. A key whose window has passed starts a new one.
 */
export async function hitCounters(db: DB, windows: Map<string, number>): Promise<CounterHit[]> {
  if (windows.size === 0) return [];
  const { keys, values } = keyValues(windows);
  return (await hitStatement(keys.length).rows<HitRow>(db, values)).map(hitOf);
}

/** The reads a hit can carry, by name, with the values they take (the SQL is this module's and repo/users.ts'). */
export type CarriedRead =
  /** The account a password sign-in of `email` needs (repo/users.ts `passwordSignInFacts`). */
  | { read: 'password_sign_in_facts'; projectId: string; email: string }
  /** Who signs in with `email`, if anyone: a sign-up's check (repo/users.ts `authEmailOwner`). */
  | { read: 'auth_email_owner'; projectId: string; email: string };
interface CarriedRows { password_sign_in_facts: SignInFacts; auth_email_owner: { userId: string } }
export type CarriedRow<R extends CarriedRead> = CarriedRows[R['read']];

// Each read: its SQL (at most one row; placeholders projectId and email, not k0.., w0..), the record of its row, and
// the same read on its own.
const CARRIED: { [K in keyof CarriedRows]: {
  build: () => SQL; of: (row: unknown) => CarriedRows[K]; alone: (db: DB, projectId: string, email: string) => Promise<CarriedRows[K] | null>;
} } = {
  password_sign_in_facts: { build: signInFactsSql, of: (row) => signInFactsOf(row as SignInFactsRow), alone: passwordSignInFacts },
  auth_email_owner: { build: authEmailOwnerSql, of: (row) => ({ userId: (row as AuthEmailOwnerRow).user_id }), alone: authEmailOwner },
};

/**
 * `hitCounters`, with `read` run in the same statement: one round trip, where a hit followed by the read would take
 * two. On a password sign-in each round trip costs the JS thread and a Postgres backend a wake-up on the cores the
 * hashing needs (issue 16 §3). The read sees the database as the statement starts, like a read right before the hit.
 * With no window to count (rate limiting off) the read runs alone.
 */
export async function hitCountersReading<R extends CarriedRead>(db: DB, windows: Map<string, number>, read: R): Promise<{ hits: CounterHit[]; row: CarriedRow<R> | null }> {
  const carried = CARRIED[read.read] as unknown as { of: (row: unknown) => CarriedRow<R>; alone: (db: DB, projectId: string, email: string) => Promise<CarriedRow<R> | null> };
  if (windows.size === 0) return { hits: [], row: await carried.alone(db, read.projectId, read.email) };
  const { keys, values } = keyValues(windows);
  const rows = await hitReadingStatement(read.read, keys.length)
    .rows<HitRow & { carried: unknown }>(db, { ...values, projectId: read.projectId, email: read.email });
  const row = rows[0]?.carried;
  return { hits: rows.map(hitOf), row: row == null ? null : carried.of(row) };
}

type HitRow = { key: string; count: number; window_start: string; retry_after: number };
const hitOf = (r: HitRow): CounterHit => ({ key: r.key, windowStart: r.window_start, count: Number(r.count), retryAfter: Number(r.retry_after) });

function keyValues(windows: Map<string, number>) {
  const keys = [...windows.keys()].sort();
  const values: Record<string, unknown> = {};
  keys.forEach((k, i) => { values[`k${i}`] = k; values[`w${i}`] = windows.get(k)!; });
  return { keys, values };
}

// The hit's rows, each carrying the read's row as one jsonb value (null when the read finds none).
const hitAndRead = (n: number, read: SQL) => sql`
  with hit as (${hitSql(n)}), carried as (${read})
  select hit.*, (select to_jsonb(carried) from carried limit 1) as carried from hit`;
const hitReadingStatements = new Map<keyof CarriedRows, (n: number) => PreparedSql>();
function hitReadingStatement(name: keyof CarriedRows, n: number): PreparedSql {
  let byKeys = hitReadingStatements.get(name);
  if (!byKeys) {
    byKeys = preparedByShape((k: number) => new PreparedSql(`rate_limits_hit_${k}_${name}`, () => hitAndRead(k, CARRIED[name].build())));
    hitReadingStatements.set(name, byKeys);
  }
  return byKeys(n);
}

// The statement for n keys: placeholders k0..k(n-1) (the keys, sorted) and w0..w(n-1) (their windows in seconds).
const hitStatement = preparedByShape((n: number) => new PreparedSql(`rate_limits_hit_${n}`, () => hitSql(n)));
function hitSql(n: number): SQL {
  const indices = [...Array(n).keys()];
  const windowOf = sql`(case rate_limits.key ${sql.join(indices.map((i) => sql`when ${sql.placeholder(`k${i}`)} then ${sql.placeholder(`w${i}`)}::int`), sql` `)} end)`;
  const expired = sql`rate_limits.window_start <= now() - ${windowOf} * interval '1 second'`;
  return sql`
    insert into rate_limits (key, window_start, count)
    values ${sql.join(indices.map((i) => sql`(${sql.placeholder(`k${i}`)}, now(), 1)`), sql`, `)}
    on conflict (key) do update set
      window_start = case when ${expired} then now() else rate_limits.window_start end,
      count = case when ${expired} then 1 else rate_limits.count + 1 end
    returning key, count, window_start::text as window_start,
      greatest(1, ceil(extract(epoch from (window_start + ${windowOf} * interval '1 second' - now()))))::int as retry_after`;
}

/** Takes back one count of each hit, in its window only (a window that restarted meanwhile is left alone). */
export async function refundCounters(db: DB, hits: { key: string; windowStart: string }[]): Promise<void> {
  if (hits.length === 0) return;
  await refundOnly(hits.length).rows(db, refundValues(hits));
}

/**
 * The refund as a statement another one carries in a `with` clause (repo/sessions.ts: a successful sign-in's session
 * insert), saving the sign-in a round trip and a statement: placeholders rk0..rk(n-1) (keys) and rw0..rw(n-1) (their
 * window starts, as `hitCounters` returned them); `refundValues` gives their values. For repo/ modules only.
 */
export function refundStatement(n: number): SQL {
  const pairs = sql.join([...Array(n).keys()].map((i) => sql`(${sql.placeholder(`rk${i}`)}, ${sql.placeholder(`rw${i}`)})`), sql`, `);
  return sql`update rate_limits set count = greatest(count - 1, 0) where (key, window_start::text) in (${pairs})`;
}

export function refundValues(hits: readonly { key: string; windowStart: string }[]): Record<string, string> {
  const values: Record<string, string> = {};
  hits.forEach((h, i) => { values[`rk${i}`] = h.key; values[`rw${i}`] = h.windowStart; });
  return values;
}

const refundOnly = preparedByShape((n: number) => new PreparedSql(`rate_limits_refund_${n}`, () => refundStatement(n)));
