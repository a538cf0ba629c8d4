// Figures for GET /internal/metrics. Days are UTC dates (the activity recorder writes UTC days too).
// Anonymous users are left out of every figure: a console charts real users.
import { sql } from 'drizzle-orm';
import type { DB } from '../db';
import { rowsOf } from '../db';
import * as users from './users';

export interface DailyPoint { date: string; activity: number }

const DAYS = sql`generate_series((now() at time zone 'utc')::date - 30, (now() at time zone 'utc')::date, interval '1 day')`;

function points(rows: { date: string | Date; activity: number | string }[]): DailyPoint[] {
  return rows.map((r) => ({ date: typeof r.date === 'string' ? r.date.slice(0, 10) : r.date.toISOString().slice(0, 10), activity: Number(r.activity) }));
}

// The figures are read from `metric_counts`, kept by triggers on every write (drizzle/0016_metric_counts.sql): counting
// them per request read every user of the project.
const counter = (projectId: string, metric: string) => sql`select key, n from metric_counts where project_id = ${projectId} and metric = ${metric}`;

export async function totalUsers(db: DB, projectId: string): Promise<number> {
  const [r] = rowsOf<{ n: number }>(await db.execute(sql`${counter(projectId, 'users')} and key = ''`));
  return Number(r?.n ?? 0);
}

async function dailySeries(db: DB, projectId: string, metric: 'sign_ups' | 'active'): Promise<DailyPoint[]> {
  return points(rowsOf(await db.execute(sql`
    select to_char(d.day, 'YYYY-MM-DD') as date, coalesce(c.n, 0)::int as activity
    from ${DAYS} as d(day)
    left join (${counter(projectId, metric)}
      and key between to_char((now() at time zone 'utc')::date - 30, 'YYYY-MM-DD') and to_char((now() at time zone 'utc')::date, 'YYYY-MM-DD')
    ) c on c.key = to_char(d.day, 'YYYY-MM-DD')
    order by d.day`)));
}

export const dailySignUps = (db: DB, projectId: string) => dailySeries(db, projectId, 'sign_ups');
export const dailyActiveUsers = (db: DB, projectId: string) => dailySeries(db, projectId, 'active');

export async function loginMethods(db: DB, projectId: string): Promise<{ method: string; count: number }[]> {
  const rows = rowsOf<{ key: string; n: number }>(await db.execute(sql`${counter(projectId, 'method')} and n > 0 order by n desc, key`));
  return rows.map((r) => ({ method: r.key, count: Number(r.n) }));
}

/** Users by the country of their latest activity day that has one. */
export async function usersByCountry(db: DB, projectId: string): Promise<Record<string, number>> {
  const rows = rowsOf<{ key: string; n: number }>(await db.execute(sql`${counter(projectId, 'country')} and n > 0 order by key`));
  return Object.fromEntries(rows.map((r) => [r.key, Number(r.n)]));
}

/** Up to `limit` users, newest sign-ups first or most recently active first. */
export async function recentUsers(db: DB, projectId: string, by: 'registered' | 'active', limit = 5): Promise<users.UserRow[]> {
  // By activity: users who have been active (signed in or refreshed a session), by their last activity. A user an
  // owner or a back end created and who never signed in is not active, whatever its sign-up time (one index read:
  // users_project_last_active_idx).
  const ids = rowsOf<{ id: string }>(await db.execute(by === 'registered'
    ? sql`select id from users where project_id = ${projectId} and not is_anonymous order by created_at desc, id desc limit ${limit}`
    : sql`select id from users where project_id = ${projectId} and not is_anonymous and last_active_at is not null
        order by last_active_at desc, id desc limit ${limit}`));
  const loaded = await users.loadMany(db, projectId, ids.map((r) => r.id));
  return ids.flatMap((r) => loaded.get(r.id) ?? []);
}
