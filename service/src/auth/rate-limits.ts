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
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import { hashSecret } from '../db/secret-hash';
import { hitCounters, hitCountersReading, keyStampedWithin, refundCounters, stampKey, type CarriedRead, type CarriedRow, type CounterHit } from '../repo/rate-limits';
import { securityEvent } from '../observability/security-events';
import { userPlaneEntry } from '../observability/audit-trail';

/** 429 RATE_LIMITED (Gatehouse's own code), answered with a `Retry-After` header saying when the window ends. */
export class RateLimited extends KnownErrors.RateLimited {
  constructor(readonly retryAfterSeconds: number) {
    super(retryAfterSeconds);
  }
}

export type RuleName =
  | 'sign_in_ip' | 'sign_in_account' | 'sign_in_account_all' | 'code_send_ip' | 'code_send_email' | 'code_attempt_ip' | 'mfa_attempt_account' | 'sign_up_ip';
export interface Rule { limit: number; windowSeconds: number }

/**
 * Defaults, per project. Normal use stays far below them; a brute force does not:
 *   - password sign-in: 50 failures / 10 min per IP, 10 failures / 10 min per account (email) and IP: keyed on
 *     both, so that someone guessing from elsewhere cannot lock the owner out of their own client (the per-IP
 *     limit bounds each guessing IP across accounts); and 50 failures / hour per account over every address
 *     (`sign_in_account_all`, ASVS 2.2.1 allows at most 100), so that many addresses do not multiply the guesses.
 *     That budget spent, the account's password is checked only for its owner's known ways in (a session of the
 *     account, the address that reset the password by mail: auth/password-sign-in.ts); other addresses get 429;
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
  sign_in_account_all: { limit: 50, windowSeconds: 3600 },
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

export interface Check { rule: RuleName; projectId: string; subject: string }

/** The checks keyed by the caller's IP (the route's `ip`: GATEHOUSE_TRUST_PROXY applied, http/client-ip.ts). */
export function byIp(ip: string, rule: RuleName, projectId: string): Check {
  return { rule, projectId, subject: `ip:${ip}` };
}

/** Checks keyed by an email address (case-insensitive). */
export function byEmail(rule: RuleName, projectId: string, email: string): Check {
  return { rule, projectId, subject: `email:${email.toLowerCase()}` };
}

/** The per-account check of a sign-in, keyed on the account and the caller's IP (see DEFAULT_RULES). */
export function byEmailAndIp(ip: string, rule: RuleName, projectId: string, email: string): Check {
  return { rule, projectId, subject: `email:${email.toLowerCase()}|ip:${ip}` };
}

/** Checks keyed by a user id (for steps where the account is known by id only, like the MFA step). */
export function byUser(rule: RuleName, projectId: string, userId: string): Check {
  return { rule, projectId, subject: `user:${userId}` };
}

const keyOf = (c: Check) => `${c.rule}:${c.projectId}:${hashSecret(c.subject)}`;

/**
 * Lets a request through though these rules (and only these) are over their limits: the caller knows it for the
 * account's owner (auth/password-sign-in.ts). Its hits stay counted, and are given back if it succeeds.
 */
export type Waiver<T> = (row: T | null, rulesOver: RuleName[]) => Promise<boolean>;

/**
 * Counts one request against every check. Over a limit: the checks still within theirs are refunded (a request
 * refused by one limit does not use up another's budget) and RateLimited is thrown with the longest wait, unless
 * `waive` lets it through. Rows of ended windows are deleted by housekeeping. `read` rides in the hit's statement
 * (repo/rate-limits.ts).
 */
async function hitAll<R extends CarriedRead>(
  services: Services, rules: Record<RuleName, Rule>, checks: Check[], read?: R, waive?: Waiver<CarriedRow<R>>,
): Promise<{ hits: CounterHit[]; row: CarriedRow<R> | null }> {
  const limits = new Map<string, Rule>();
  const ruleOf = new Map<string, RuleName>();
  for (const c of checks) { limits.set(keyOf(c), rules[c.rule]); ruleOf.set(keyOf(c), c.rule); }
  const windows = new Map([...limits].map(([key, rule]) => [key, rule.windowSeconds]));
  const { hits, row } = read
    ? await hitCountersReading(services.db, windows, read)
    : { hits: await hitCounters(services.db, windows), row: null };
  const over = hits.filter((h) => h.count > limits.get(h.key)!.limit);
  if (over.length === 0) return { hits, row };
  const rulesOver = [...new Set(over.map((h) => ruleOf.get(h.key)!))].sort();
  logBudgetSpent(checks, over.filter((h) => h.count === limits.get(h.key)!.limit + 1).map((h) => ruleOf.get(h.key)!), rules, row);
  if (waive && (await waive(row, rulesOver))) return { hits, row };
  await refundCounters(services.db, hits.filter((h) => !over.includes(h)));
  logRefusal(checks, rulesOver);
  auditLockout(services, checks, over.filter((h) => h.count === limits.get(h.key)!.limit + 1).map((h) => ruleOf.get(h.key)!), row);
  throw new RateLimited(Math.max(...over.map((h) => h.retryAfter)));
}

/** Rules whose spent budget is an account's, told once per window (the first request over it). */
const ACCOUNT_BUDGETS = new Set<RuleName>(['sign_in_account_all']);

function logBudgetSpent(checks: Check[], firstOver: RuleName[], rules: Record<RuleName, Rule>, row: unknown) {
  for (const rule of firstOver) {
    if (!ACCOUNT_BUDGETS.has(rule)) continue;
    const userId = (row as { userId?: string } | null)?.userId ?? null;
    securityEvent('sign_in.account_throttled', {
      project_id: checks[0]?.projectId ?? '', user_id: userId, rule, limit: rules[rule].limit, window_seconds: rules[rule].windowSeconds,
    });
  }
}

/** Security events for a refusal: the rules over their limit (never the subject: an email or IP hash). */
function logRefusal(checks: Check[], rules: RuleName[]) {
  const projectId = checks[0]?.projectId ?? '';
  const userId = checks.find((c) => c.subject.startsWith('user:'))?.subject.slice('user:'.length) ?? null;
  securityEvent('rate_limit.refused', { project_id: projectId, user_id: userId, rules });
  // A per-account limit is a lockout of that account (from this IP, for sign_in_account).
  if (rules.some((r) => LOCKOUT_RULES.has(r))) securityEvent('sign_in.locked_out', { project_id: projectId, user_id: userId, rules });
}

const LOCKOUT_RULES = new Set<string>(['sign_in_account', 'sign_in_account_all', 'mfa_attempt_account']);

/**
 * An account's lockout in the project's audit log (issue 26), once per window: at the first request over a lockout
 * rule. The account's user when it exists; never the email (the rules' subjects are hashes).
 */
function auditLockout(services: Services, checks: Check[], firstOver: RuleName[], row: unknown) {
  const rules = [...new Set(firstOver.filter((r) => LOCKOUT_RULES.has(r)))].sort();
  const projectId = checks[0]?.projectId;
  if (!rules.length || !projectId) return;
  const userId = (row as { userId?: string } | null)?.userId ?? checks.find((c) => c.subject.startsWith('user:'))?.subject.slice('user:'.length) ?? null;
  services.auditTrail.add([userPlaneEntry(projectId, { event: 'sign_in.locked_out', target: null, subjectUserId: userId, details: { rules } })]);
}

/** Counts the request against every check (each request counts, successful or not). */
export async function limitRequests(services: Services, checks: Check[]): Promise<void> {
  const rules = services.config.rateLimitRules;
  if (!rules) return;
  await hitAll(services, rules, checks);
}

/**
 * `limitRequests`, with the read the request needs next (named by value: repo/rate-limits.ts `CarriedRead`) run in
 * the hit's statement, one round trip fewer; returns its row.
 */
export async function limitRequestsReading<R extends CarriedRead>(services: Services, checks: Check[], read: R): Promise<CarriedRow<R> | null> {
  const rules = services.config.rateLimitRules;
  if (!rules) return (await hitCountersReading(services.db, new Map(), read)).row;
  return (await hitAll(services, rules, checks, read)).row;
}

/**
 * An attempt counted as a failure until it succeeds (`countAttempt`): the hits to give back when it does, as values
 * (key and window), and the row of the read it started with.
 */
export interface CountedAttempt<T> { hits: CounterHit[]; row: T | null }

/**
 * Counts an attempt *before* the work, so parallel guesses cannot slip past the limit (RateLimited when over it);
 * `read` (a password sign-in's account lookup) rides in the hit's statement. It runs even when the hit is over a
 * limit (then its row is unused). A success gives the hits back: `refundAttempt`, or a statement that carries them
 * (a password sign-in's session insert, auth/session-tokens.ts `issueSession`).
 */
export async function countAttempt<R extends CarriedRead>(services: Services, checks: Check[], read: R, waive?: Waiver<CarriedRow<R>>): Promise<CountedAttempt<CarriedRow<R>>>;
export async function countAttempt(services: Services, checks: Check[]): Promise<CountedAttempt<never>>;
export async function countAttempt<R extends CarriedRead>(services: Services, checks: Check[], read?: R, waive?: Waiver<CarriedRow<R>>): Promise<CountedAttempt<CarriedRow<R>>> {
  const rules = services.config.rateLimitRules;
  if (!rules) return { hits: [], row: read ? (await hitCountersReading(services.db, new Map(), read)).row : null };
  return hitAll(services, rules, checks, read, waive);
}

/**
 * The account's owner proved their mailbox from this address (a completed password reset): for the rest of the
 * `sign_in_account_all` window, their password is checked from here though the account's budget is spent.
 */
export async function noteOwnerAddress(services: Services, projectId: string, email: string, ip: string): Promise<void> {
  if (!services.config.rateLimitRules) return;
  await stampKey(services.db, keyOf(ownerAddress(projectId, email, ip)));
}

/** Did the owner of `email` prove their mailbox from `ip` within the `sign_in_account_all` window? */
export async function isOwnerAddress(services: Services, projectId: string, email: string, ip: string): Promise<boolean> {
  const rules = services.config.rateLimitRules;
  if (!rules) return false;
  return keyStampedWithin(services.db, keyOf(ownerAddress(projectId, email, ip)), rules.sign_in_account_all.windowSeconds);
}

// A rate_limits row of its own kind (count 0, its window the budget's), so housekeeping ends it with the others.
const ownerAddress = (projectId: string, email: string, ip: string): Check =>
  ({ rule: 'sign_in_account_all', projectId, subject: `owner-address|email:${email.toLowerCase()}|ip:${ip}` });

/** Gives a successful attempt's hits back (each in its window only). */
export async function refundAttempt(services: Services, hits: readonly CounterHit[]): Promise<void> {
  await refundCounters(services.db, [...hits]);
}

/**
 * Runs `attempt` if no check is over its limit, counting it as a failure unless it succeeds. Reaching MFA
 * (MULTI_FACTOR_AUTHENTICATION_REQUIRED) means the first factor was right: that counts as a success too.
 */
export async function limitFailures<T>(services: Services, checks: Check[], attempt: () => Promise<T>): Promise<T> {
  const { hits } = await countAttempt(services, checks);
  try {
    const result = await attempt();
    await refundAttempt(services, hits);
    return result;
  } catch (err) {
    if (err instanceof KnownErrors.MultiFactorAuthenticationRequired) await refundAttempt(services, hits);
    throw err;
  }
}
