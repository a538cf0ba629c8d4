// The hot queries of the scale targets (issue 16 §1), captured from the repo functions themselves (drizzle's query
// logger), so the plans checked by test/query-plans.test.ts and written by bench/scale.ts are those of the SQL the
// service runs, not a copy of it. Shared by both.
import { sql } from 'drizzle-orm';
import { rowsOf, type DB } from '../../src/db';
import * as users from '../../src/repo/users';
import * as sessions from '../../src/repo/sessions';
import * as members from '../../src/repo/team-members';
import * as metrics from '../../src/repo/metrics';

export interface CapturedQuery { name: string; sql: string; params: unknown[] }

/** The tables that grow with the number of users: a sequential scan of one of them is what must not happen. */
export const LARGE_TABLES = ['users', 'contact_channels', 'sessions', 'team_members', 'user_activity_days', 'metric_counts', 'user_countries'];

export interface HotQueryInputs {
  projectId: string;
  userId: string;
  refreshToken: string;
  email: string;
  deepCursor: string;
  emailFragment: string;
  nameFragment: string;
  teamId: string;
  /** A user the delete is captured with: it is deleted inside a transaction that is rolled back. */
  deleteUserId: string;
}

/**
 * Records queries: pass `logQuery` to openDatabase (or `logger` to `drizzle(client, { logger })`); `start(name)`
 * labels what is logged next, and nothing is recorded while the label is empty.
 */
export function queryRecorder() {
  const captured: CapturedQuery[] = [];
  let current = '';
  const logQuery = (query: string, params: unknown[]) => {
    if (current && !/^(begin|commit|rollback|savepoint|release)/i.test(query.trim())) captured.push({ name: current, sql: query, params });
  };
  return { captured, start(name: string) { current = name; }, logQuery, logger: { logQuery } };
}

/** The query with its parameters written in as literals (EXPLAIN without a prepared statement, on either driver). */
export function inlineParams(q: CapturedQuery): string {
  const literal = (v: unknown): string => {
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'number' || typeof v === 'bigint') return String(v);
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    const text = v instanceof Date ? v.toISOString() : typeof v === 'string' ? v : JSON.stringify(v);
    return `'${text.replace(/'/g, "''")}'`;
  };
  return q.sql.replace(/\$(\d+)/g, (_, n: string) => literal(q.params[Number(n) - 1]));
}

const ROLLBACK = new Error('rollback');

/** Runs every hot repo call once through `db` (whose logger is `rec.logger`). */
export async function runHotQueries(db: DB, rec: ReturnType<typeof queryRecorder>, i: HotQueryInputs) {
  const p = i.projectId;
  const steps: [string, () => Promise<unknown>][] = [
    ['GET /users/me: load the user', () => users.load(db, p, i.userId)],
    ['refresh grant: find the session', () => sessions.findByRefreshToken(db, p, i.refreshToken)],
    ['password sign-in: the account of the email', () => users.passwordSignInFacts(db, p, i.email)],
    ['GET /users: first page', () => users.list(db, p, { limit: 100 })],
    ['GET /users: a page deep into the cursor', () => users.list(db, p, { limit: 100, cursor: i.deepCursor })],
    ['GET /users?query=: email fragment', () => users.list(db, p, { limit: 100, query: i.emailFragment })],
    ['GET /users?query=: name fragment', () => users.list(db, p, { limit: 100, query: i.nameFragment })],
    ['GET /users?team_id=: team members', () => users.list(db, p, { limit: 100, teamId: i.teamId })],
    ['GET /team-member-profiles?team_id=: member profiles and their users', async () => {
      const rows = await members.listProfiles(db, p, { teamId: i.teamId });
      await users.loadMany(db, p, rows.map((r) => r.userId));
    }],
    ['GET /internal/metrics: total users', () => metrics.totalUsers(db, p)],
    ['GET /internal/metrics: daily sign-ups', () => metrics.dailySignUps(db, p)],
    ['GET /internal/metrics: daily active users', () => metrics.dailyActiveUsers(db, p)],
    ['GET /internal/metrics: login methods', () => metrics.loginMethods(db, p)],
    ['GET /internal/metrics: users by country', () => metrics.usersByCountry(db, p)],
    ['GET /internal/metrics: recently registered', () => metrics.recentUsers(db, p, 'registered')],
    ['GET /internal/metrics: recently active', () => metrics.recentUsers(db, p, 'active')],
  ];
  for (const [name, run] of steps) { rec.start(name); await run(); }
  rec.start('DELETE /users/{id}: lock, memberships, delete');
  await db.transaction(async (tx) => { await users.removeWithTeams(tx, p, i.deleteUserId); throw ROLLBACK; }).catch((e) => { if (e !== ROLLBACK) throw e; });
  rec.start('');
  return rec.captured;
}

/**
 * Deletes a user as DELETE /users/{id} does (repo/users.ts removeWithTeams), in a transaction that is rolled back,
 * and returns the large tables read by sequential scan meanwhile: counted by PostgreSQL itself
 * (pg_stat_xact_user_tables), so the statements EXPLAIN does not show are in it too: the cascades of the foreign
 * keys and the statements of the counter triggers. `before` runs first in the same transaction (a test drops an
 * index there to see the check fail).
 */
export async function seqScansOfUserDelete(db: DB, projectId: string, userId: string, before?: (tx: DB) => Promise<unknown>): Promise<string[]> {
  const scans = async (tx: DB) => {
    const rows = rowsOf<{ relname: string; n: number | string }>(await tx.execute(sql`select relname, seq_scan as n from pg_stat_xact_user_tables
      where relname in (${sql.join(LARGE_TABLES.map((t) => sql`${t}`), sql`, `)})`));
    return new Map(rows.map((r) => [r.relname, Number(r.n)]));
  };
  let found: string[] = [];
  let deleted: string[] | null = null;
  await db.transaction(async (tx) => {
    await before?.(tx);
    const at0 = await scans(tx);
    deleted = await users.removeWithTeams(tx, projectId, userId);
    const at1 = await scans(tx);
    found = [...at1].filter(([t, n]) => n > (at0.get(t) ?? 0)).map(([t]) => t);
    throw ROLLBACK;
  }).catch((e) => { if (e !== ROLLBACK) throw e; });
  if (!deleted) throw new Error(`no user ${userId} to delete`);
  return found;
}

interface PlanNode { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] }

/** The large tables a plan (EXPLAIN (FORMAT JSON)) reads by sequential scan. */
export function seqScansOnLargeTables(plan: PlanNode): string[] {
  const found: string[] = [];
  const walk = (n: PlanNode) => {
    if (n['Node Type'] === 'Seq Scan' && n['Relation Name'] && LARGE_TABLES.includes(n['Relation Name'])) found.push(n['Relation Name']);
    for (const c of n.Plans ?? []) walk(c);
  };
  walk(plan);
  return found;
}
