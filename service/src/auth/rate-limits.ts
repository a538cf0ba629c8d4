// Abuse limits kept in the database (table `rate_limits`), so they hold across any number of service instances.
// Fixed windows: one row per key holds the window start and a counter, bumped by one atomic upsert; a request
// over the limit gets 429 with Retry-After = the rest of the window. Keys are scoped to the project and carry
// only a hash of the IP or email (the table never holds personal data in clear).
//
// Two kinds of use:
//   - `limitRequests`: every request counts (sending codes: per IP and per email).
//   - `limitFailures`: the attempt is counted *before* the work (so parallel guesses cannot slip past the
//     limit) and refunded when it succeeds, so only failures accumulate (password sign-in per IP and per
//     account, code redemption per IP, TOTP codes of the MFA step per user). Legitimate users, who mostly
//     succeed, never hit these.
import { sql } from 'drizzle-orm';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { rowsOf } from '../db';
import type { Services } from '../services';
import { hashSecret } from '../tokens/hash';
import { RateLimited } from '../http/rate-limited';
import { clientIp } from '../http/client-ip';

export type RuleName = 'sign_in_ip' | 'sign_in_account' | 'code_send_ip' | 'code_send_email' | 'code_attempt_ip' | 'mfa_attempt_account' | 'sign_up_ip';
export interface Rule { limit: number; windowSeconds: number }

/**
 * Defaults, per project. Normal use stays far below them; a brute force does not:
 *   - password sign-in: 50 failures / 10 min per IP, 10 failures / 10 min per account (email) and IP: keyed on
 *     both, so that someone guessing from elsewhere cannot lock the owner out of their own client (the per-IP
 *     limit bounds each guessing IP across accounts);
 *   - sign-up (password and anonymous): 300 / hour per IP (mass account creation; offices behind one NAT fit);
 *   - sending codes (magic link, reset, verification): 30 / 10 min per IP, 10 / 10 min per email;
 *   - redeeming codes: 50 failures / 10 min per IP (on top of the 20 attempts per code, §4.3);
 *   - TOTP codes of the MFA step: 10 failures / hour per user, across attempt codes (each password sign-in
 *     that reaches MFA yields a fresh attempt code, so the 20 attempts per code alone would not bound guessing
 *     by someone who knows the password); per IP they count toward `code_attempt_ip`.
 * Override with GATEHOUSE_RATE_LIMITS, e.g. `sign_in_account=3/60,code_send_email=2/60`, or `off`.
 */
export const DEFAULT_RULES: Readonly<Record<RuleName, Rule>> = Object.freeze({
  sign_in_ip: { limit: 50, windowSeconds: 600 },
  sign_in_account: { limit: 10, windowSeconds: 600 },
  code_send_ip: { limit: 30, windowSeconds: 600 },
  code_send_email: { limit: 10, windowSeconds: 600 },
  code_attempt_ip: { limit: 50, windowSeconds: 600 },
  mfa_attempt_account: { limit: 10, windowSeconds: 3600 },
  sign_up_ip: { limit: 300, windowSeconds: 3600 },
});

/** Parses GATEHOUSE_RATE_LIMITS; null means rate limiting is off. Bad entries are an error at start-up. */
export function parseRules(spec: string | undefined): Record<RuleName, Rule> | null {
  const rules = { ...DEFAULT_RULES };
  if (!spec) return rules;
  if (spec.trim() === 'off') return null;
  for (const entry of spec.split(',').map((e) => e.trim()).filter(Boolean)) {
    const m = /^(\w+)=(\d+)\/(\d+)$/.exec(entry);
    if (!m || !(m[1]! in rules) || Number(m[3]) < 1) throw new Error(`GATEHOUSE_RATE_LIMITS: bad entry "${entry}" (expected <rule>=<count>/<seconds>, rules: ${Object.keys(rules).join(', ')})`);
    rules[m[1] as RuleName] = { limit: Number(m[2]), windowSeconds: Number(m[3]) };
  }
  return rules;
}

const parsed = new WeakMap<object, Record<RuleName, Rule> | null>();
function rulesOf(services: Services): Record<RuleName, Rule> | null {
  if (!parsed.has(services.config)) parsed.set(services.config, parseRules(services.config.rateLimits));
  return parsed.get(services.config)!;
}

export interface Check { rule: RuleName; projectId: string; subject: string }
interface Hit { key: string; windowStart: string }

/** The checks keyed by the caller's IP. */
export function byIp(services: Services, request: Request, rule: RuleName, projectId: string): Check {
  return { rule, projectId, subject: `ip:${clientIp(request, services.config.trustProxy)}` };
}

/** Emails are compared case-insensitively here, so case variants share one budget. */
export function byEmail(rule: RuleName, projectId: string, email: string): Check {
  return { rule, projectId, subject: `email:${email.toLowerCase()}` };
}

/** The per-account check of a sign-in, keyed on the account and the caller's IP (see DEFAULT_RULES). */
export function byEmailAndIp(services: Services, request: Request, rule: RuleName, projectId: string, email: string): Check {
  return { rule, projectId, subject: `email:${email.toLowerCase()}|ip:${clientIp(request, services.config.trustProxy)}` };
}

/** Checks keyed by a user id (for steps where the account is known by id only, like the MFA step). */
export function byUser(rule: RuleName, projectId: string, userId: string): Check {
  return { rule, projectId, subject: `user:${userId}` };
}

let hitsSinceCleanup = 0;

/**
 * Counts one request against every check in one statement (one round trip however many checks). Keys are
 * locked in sorted order, so two requests sharing keys cannot deadlock. Over a limit: the checks still within
 * theirs are refunded (a request refused by one limit does not use up another's budget) and RateLimited is
 * thrown with the longest wait.
 */
async function hitAll(services: Services, rules: Record<RuleName, Rule>, checks: Check[]): Promise<Hit[]> {
  const byKey = new Map<string, Rule>();
  for (const c of checks) byKey.set(`${c.rule}:${c.projectId}:${hashSecret(c.subject)}`, rules[c.rule]);
  if (byKey.size === 0) return [];
  const keys = [...byKey.keys()].sort();
  const windowOf = sql`(case rate_limits.key ${sql.join(keys.map((k) => sql`when ${k} then ${byKey.get(k)!.windowSeconds}::int`), sql` `)} end)`;
  const expired = sql`rate_limits.window_start <= now() - ${windowOf} * interval '1 second'`;
  const rows = rowsOf<{ key: string; count: number; window_start: string; retry_after: number }>(await services.db.execute(sql`
    insert into rate_limits (key, window_start, count)
    values ${sql.join(keys.map((k) => sql`(${k}, now(), 1)`), sql`, `)}
    on conflict (key) do update set
      window_start = case when ${expired} then now() else rate_limits.window_start end,
      count = case when ${expired} then 1 else rate_limits.count + 1 end
    returning key, count, window_start::text as window_start,
      greatest(1, ceil(extract(epoch from (window_start + ${windowOf} * interval '1 second' - now()))))::int as retry_after`));
  if (++hitsSinceCleanup >= 500) {
    hitsSinceCleanup = 0;
    const longest = Math.max(...Object.values(rules).map((r) => r.windowSeconds));
    void services.db.execute(sql`delete from rate_limits where window_start < now() - ${longest}::int * interval '1 second'`).catch(() => {});
  }
  const hits = rows.map((r) => ({ key: r.key, windowStart: r.window_start, over: Number(r.count) > byKey.get(r.key)!.limit, retryAfter: Number(r.retry_after) }));
  const over = hits.filter((h) => h.over);
  if (over.length > 0) {
    await refund(services, hits.filter((h) => !h.over));
    throw new RateLimited(Math.max(...over.map((h) => h.retryAfter)));
  }
  return hits;
}

/** Takes back one count of each hit, in its window only (a window that restarted meanwhile is left alone). */
async function refund(services: Services, hits: Hit[]) {
  if (hits.length === 0) return;
  const pairs = sql.join(hits.map((h) => sql`(${h.key}, ${h.windowStart})`), sql`, `);
  await services.db.execute(sql`update rate_limits set count = greatest(count - 1, 0) where (key, window_start::text) in (${pairs})`);
}

/** Counts the request against every check (each request counts, successful or not). */
export async function limitRequests(services: Services, checks: Check[]): Promise<void> {
  const rules = rulesOf(services);
  if (!rules) return;
  await hitAll(services, rules, checks);
}

/**
 * Runs `attempt` if no check is over its limit, counting it as a failure unless it succeeds. Reaching MFA
 * (MULTI_FACTOR_AUTHENTICATION_REQUIRED) means the first factor was right: that counts as a success too.
 */
export async function limitFailures<T>(services: Services, checks: Check[], attempt: () => Promise<T>): Promise<T> {
  const rules = rulesOf(services);
  if (!rules) return attempt();
  const hits = await hitAll(services, rules, checks);
  const refundAll = () => refund(services, hits);
  try {
    const result = await attempt();
    await refundAll();
    return result;
  } catch (err) {
    if (err instanceof KnownErrors.MultiFactorAuthenticationRequired) await refundAll();
    throw err;
  }
}
