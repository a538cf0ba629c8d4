// Session activity written in batches (auth/activity.ts collects it): sessions' last use, users' last activity and
// the daily activity the metrics count.
import { sql } from 'drizzle-orm';
import type { DB } from '../db';

/** Where a session was used (recorded for browser requests only: auth/activity.ts `ipInfoOf`). */
export interface IpInfo {
  ip: string;
  countryCode: string | null;
  regionCode: string | null;
  cityName: string | null;
  latitude: number | null;
  longitude: number | null;
  tzIdentifier: string | null;
}

/** A sign-in's device (auth/devices.ts): its hash is remembered per user; the rest is for the notice. */
export interface SignInDevice { hash: string; label: string; ip: string }

/**
 * `sessionWritten`: the session row holds this use already (inserted with it): only the user's activity is written.
 * `device`: a sign-in (a new session) from this device, remembered in known_devices.
 */
export interface ActivityEntry { sessionId: string; projectId: string; userId: string; at: Date; ipInfo: IpInfo | null; sessionWritten?: boolean; device?: SignInDevice }

/** A sign-in from a device the user had not signed in from, while the user had signed in from others before. */
export interface NewDeviceSignIn { projectId: string; userId: string; device: SignInDevice }

export async function writeActivity(db: DB, batch: ActivityEntry[]): Promise<NewDeviceSignIn[]> {
  const sessionUses = batch.filter((p) => !p.sessionWritten);
  const sessionsJson = JSON.stringify(sessionUses.map((p) => ({ id: p.sessionId, at: p.at.toISOString(), ip: p.ipInfo })));
  const usersJson = JSON.stringify(batch.map((p) => ({ user_id: p.userId, project_id: p.projectId, at: p.at.toISOString(), day: p.at.toISOString().slice(0, 10), country: p.ipInfo?.countryCode ?? null })));
  return db.transaction(async (tx) => {
    // Its update of users moves last_active_at only: the change-notice trigger (drizzle/0026) skips it.
    await tx.execute(sql`select set_config('gatehouse.activity_flush', 'on', true)`);
    // Users first, locked in id order, then their sessions: the order in which deleting a user takes them (its
    // row, then its sessions by cascade). In the other order a flush and a user delete could each hold what the
    // other waits for (a deadlock, which Postgres ends by failing one of them: the delete would answer 500).
    await tx.execute(sql`
      select u.id from users u
      where u.id in (select r.user_id from jsonb_to_recordset(${usersJson}::jsonb) as r(user_id uuid))
      order by u.id for no key update`);
    await tx.execute(sql`
      update users u set last_active_at = greatest(coalesce(u.last_active_at, v.at), v.at)
      from (select user_id, max(at) as at from jsonb_to_recordset(${usersJson}::jsonb) as r(user_id uuid, at timestamptz) group by user_id) v
      where u.id = v.user_id`);
    if (sessionUses.length > 0) await tx.execute(sql`
      update sessions s set last_used_at = v.at, last_used_ip_info = coalesce(v.ip, s.last_used_ip_info)
      from jsonb_to_recordset(${sessionsJson}::jsonb) as v(id uuid, at timestamptz, ip jsonb)
      where s.id = v.id`);
    await tx.execute(sql`
      insert into user_activity_days (project_id, user_id, day, country_code)
      select distinct on (v.user_id, v.day) v.project_id, v.user_id, v.day::date, v.country
      from jsonb_to_recordset(${usersJson}::jsonb) as v(user_id uuid, project_id text, day text, country text)
      where exists (select 1 from users u where u.id = v.user_id)
      on conflict (user_id, day) do update set country_code = excluded.country_code
      -- A user's every sign-in of the day lands here: rewriting the row with what it holds would leave a dead row
      -- and run its metrics trigger for nothing.
      where excluded.country_code is not null and excluded.country_code is distinct from user_activity_days.country_code`);
    return rememberDevices(tx, batch.filter((p) => p.device));
  });
}

/**
 * Remembers the devices of these sign-ins; returns the sign-ins from a device new to a user who had signed in from
 * another before (a user's first device is no news: the sign-up or the first sign-in since devices were remembered).
 */
async function rememberDevices(tx: DB, signIns: ActivityEntry[]): Promise<NewDeviceSignIn[]> {
  if (signIns.length === 0) return [];
  const json = JSON.stringify(signIns.map((p) => ({ project_id: p.projectId, user_id: p.userId, device_hash: p.device!.hash })));
  const rowsOf = (r: unknown) => ((r as { rows?: unknown[] }).rows ?? (r as unknown[])) as Record<string, string>[];
  // Read before the insert: which of these users had any device remembered.
  const before = rowsOf(await tx.execute(sql`
    select distinct k.user_id from known_devices k
    where k.user_id in (select r.user_id from jsonb_to_recordset(${json}::jsonb) as r(user_id uuid))`));
  const inserted = rowsOf(await tx.execute(sql`
    insert into known_devices (project_id, user_id, device_hash)
    select distinct v.project_id, v.user_id, v.device_hash from jsonb_to_recordset(${json}::jsonb) as v(project_id text, user_id uuid, device_hash text)
    where exists (select 1 from users u where u.id = v.user_id and u.project_id = v.project_id)
    on conflict do nothing
    returning user_id, device_hash`));
  const hadDevices = new Set(before.map((r) => String(r.user_id)));
  const fresh = new Set(inserted.map((r) => `${r.user_id}/${r.device_hash}`));
  const seen = new Set<string>();
  const out: NewDeviceSignIn[] = [];
  // In the order they happened: a user's first sign-in of the batch may be its first device, a later one from
  // another device in the same batch is news all the same.
  for (const p of signIns) {
    const key = `${p.userId}/${p.device!.hash}`;
    const news = hadDevices.has(p.userId) && fresh.has(key) && !seen.has(key);
    seen.add(key);
    hadDevices.add(p.userId);
    if (news) out.push({ projectId: p.projectId, userId: p.userId, device: p.device! });
  }
  return out;
}
