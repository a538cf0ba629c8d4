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

export async function totalUsers(db: DB, projectId: string): Promise<number> {
  const [r] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from users where project_id = ${projectId} and not is_anonymous`));
  return Number(r?.n ?? 0);
}

export async function dailySignUps(db: DB, projectId: string): Promise<DailyPoint[]> {
  return points(rowsOf(await db.execute(sql`
    select to_char(d.day, 'YYYY-MM-DD') as date, count(u.id)::int as activity
    from ${DAYS} as d(day)
    left join users u on u.project_id = ${projectId} and not u.is_anonymous and (u.created_at at time zone 'utc')::date = d.day::date
    group by d.day order by d.day`)));
}

export async function dailyActiveUsers(db: DB, projectId: string): Promise<DailyPoint[]> {
  return points(rowsOf(await db.execute(sql`
    select to_char(d.day, 'YYYY-MM-DD') as date, count(distinct a.user_id)::int as activity
    from ${DAYS} as d(day)
    left join (user_activity_days a join users u on u.id = a.user_id and not u.is_anonymous)
      on a.project_id = ${projectId} and a.day = d.day::date
    group by d.day order by d.day`)));
}

export async function loginMethods(db: DB, projectId: string): Promise<{ method: string; count: number }[]> {
  const rows = rowsOf<{ method: string; count: number }>(await db.execute(sql`
    select method, count(*)::int as count from (
      select 'password' as method from users where project_id = ${projectId} and not is_anonymous and password_hash is not null
      union all select 'otp' from users where project_id = ${projectId} and not is_anonymous and otp_auth_enabled
      union all select 'passkey' from passkeys p join users u on u.id = p.user_id where p.project_id = ${projectId} and not u.is_anonymous
      union all select lower(o.provider_id) from oauth_accounts o join users u on u.id = o.user_id
        where o.project_id = ${projectId} and o.used_for_auth and not u.is_anonymous
    ) m group by method order by count desc, method`));
  return rows.map((r) => ({ method: r.method, count: Number(r.count) }));
}

/** Users by the country of their latest activity day that has one. */
export async function usersByCountry(db: DB, projectId: string): Promise<Record<string, number>> {
  const rows = rowsOf<{ country: string; n: number }>(await db.execute(sql`
    select country, count(*)::int as n from (
      select distinct on (a.user_id) a.user_id, upper(a.country_code) as country
      from user_activity_days a join users u on u.id = a.user_id and not u.is_anonymous
      where a.project_id = ${projectId} and a.country_code is not null and a.country_code <> ''
      order by a.user_id, a.day desc
    ) latest group by country order by country`));
  return Object.fromEntries(rows.map((r) => [r.country, Number(r.n)]));
}

/** Up to `limit` users, newest sign-ups first or most recently active first. */
export async function recentUsers(db: DB, projectId: string, by: 'registered' | 'active', limit = 5): Promise<users.UserRow[]> {
  const order = by === 'registered' ? sql`created_at desc, id desc` : sql`coalesce(last_active_at, created_at) desc, id desc`;
  const ids = rowsOf<{ id: string }>(await db.execute(sql`
    select id from users where project_id = ${projectId} and not is_anonymous order by ${order} limit ${limit}`));
  const loaded = await Promise.all(ids.map((r) => users.load(db, projectId, r.id)));
  return loaded.filter((u): u is users.UserRow => u !== null);
}
