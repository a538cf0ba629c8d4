// The counters behind GET /internal/metrics (drizzle/0016_metric_counts.sql) are kept by triggers: after each kind
// of write they must equal a recount from the rows (gatehouse_rebuild_metric_counts, run in a transaction that is
// rolled back). On PostgreSQL under DATABASE_URL (a scratch database), else on PGlite.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { rowsOf, type Database, type DB } from '../src/db/index';
import { openTestDatabase } from './support/pglite-template';
import { isolatedDatabase } from './support/isolated-database';

let database: Database;
let scratch: Awaited<ReturnType<typeof isolatedDatabase>>;
const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-counts-'));
const p = crypto.randomUUID();
const other = crypto.randomUUID();

beforeAll(async () => {
  scratch = await isolatedDatabase();
  database = await openTestDatabase({ databaseUrl: scratch.url, dataDir });
  for (const id of [p, other]) await database.db.execute(sql`insert into projects (id, display_name, config) values (${id}, 'Counts', '{}'::jsonb)`);
}, 300_000);

afterAll(async () => {
  await database?.close();
  await scratch?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

type Counts = Record<string, number>;
const read = async (db: DB): Promise<Counts> => Object.fromEntries(rowsOf<{ project_id: string; metric: string; key: string; n: number }>(
  await db.execute(sql`select project_id, metric, key, n from metric_counts where n <> 0 order by 1, 2, 3`),
).map((r) => [`${r.project_id === p ? 'p' : 'other'}:${r.metric}:${r.key}`, Number(r.n)]));

const NOT_KEPT = new Error('recount');
/** The counters as kept, and as recounted from the rows. */
async function keptAndRecounted(): Promise<[Counts, Counts]> {
  const kept = await read(database.db);
  let recounted: Counts = {};
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`select gatehouse_rebuild_metric_counts()`);
    recounted = await read(tx);
    throw NOT_KEPT;
  }).catch((e) => { if (e !== NOT_KEPT) throw e; });
  return [kept, recounted];
}

async function user(o: { anonymous?: boolean; password?: boolean; createdDaysAgo?: number; project?: string } = {}): Promise<string> {
  const [row] = rowsOf<{ id: string }>(await database.db.execute(sql`insert into users (project_id, is_anonymous, password_hash, created_at)
    values (${o.project ?? p}, ${o.anonymous ?? false}, ${o.password ? 'argon2-hash-placeholder' : null}, now() - ${o.createdDaysAgo ?? 0} * interval '1 day')
    returning id`));
  return row.id;
}
const activity = (userId: string, daysAgo: number, country: string | null, project = p) => database.db.execute(sql`
  insert into user_activity_days (project_id, user_id, day, country_code)
  values (${project}, ${userId}, (now() at time zone 'utc')::date - ${daysAgo}::int, ${country})
  on conflict (user_id, day) do update set country_code = coalesce(excluded.country_code, user_activity_days.country_code)`);

test('sign-ups, methods, activity and countries are counted as they are written', async () => {
  const a = await user({ password: true });
  const b = await user({ createdDaysAgo: 3 });
  await user({ anonymous: true, password: true });
  await user({ project: other, password: true });
  await database.db.execute(sql`update users set otp_auth_enabled = true where id = ${b}`);
  await database.db.execute(sql`insert into passkeys (project_id, user_id, credential_id, public_key) values (${p}, ${a}, 'cred-a', '\\x01'::bytea)`);
  await database.db.execute(sql`insert into oauth_accounts (project_id, provider_id, provider_account_id, user_id) values (${p}, 'GitHub', 'gh-1', ${b}), (${p}, 'google', 'g-1', ${b})`);
  await activity(a, 2, 'de');
  await activity(a, 0, null);
  await activity(b, 1, 'US');
  const [kept, recounted] = await keptAndRecounted();
  expect(kept).toEqual(recounted);
  expect(kept['p:users:']).toBe(2);
  expect(kept['p:method:password']).toBe(1);
  expect(kept['p:method:otp']).toBe(1);
  expect(kept['p:method:passkey']).toBe(1);
  expect(kept['p:method:github']).toBe(1);
  expect(kept['p:country:DE']).toBe(1);
  expect(kept['p:country:US']).toBe(1);
  expect(kept['other:users:']).toBe(1);
}, 120_000);

test('a new user is counted by its own row: OTP on at insert counts; a passkey inserted in the same statement counts once', async () => {
  const before = await read(database.db);
  const [withOtp] = rowsOf<{ id: string }>(await database.db.execute(sql`insert into users (project_id, is_anonymous, otp_auth_enabled) values (${p}, false, true) returning id`));
  // The user's AFTER INSERT trigger fires at the end of the statement, when the passkey is there already: the
  // passkey's own trigger counts it, so the user's must not count it again.
  const [withPasskey] = rowsOf<{ id: string }>(await database.db.execute(sql`with u as (insert into users (project_id, is_anonymous) values (${p}, false) returning id)
    insert into passkeys (project_id, user_id, credential_id, public_key) select ${p}, id, 'cred-same-statement', '\\x01'::bytea from u returning user_id as id`));
  const [kept, recounted] = await keptAndRecounted();
  expect(kept).toEqual(recounted);
  const added = (k: string) => (kept[k] ?? 0) - (before[k] ?? 0);
  expect([added('p:users:'), added('p:method:otp'), added('p:method:passkey'), added('p:method:password')]).toEqual([2, 1, 1, 0]);
  // Gone again, the later tests count on the project as it was.
  await database.db.execute(sql`delete from users where id in (${withOtp!.id}, ${withPasskey!.id})`);
  expect(await read(database.db)).toEqual(before);
}, 120_000);

test('a newer country moves the user; an older one does not', async () => {
  const u = await user();
  await activity(u, 5, 'FR');
  await activity(u, 1, 'JP');
  await activity(u, 3, 'BR');
  let [kept, recounted] = await keptAndRecounted();
  expect(kept).toEqual(recounted);
  expect(kept['p:country:FR']).toBeUndefined();
  expect(kept['p:country:JP']).toBe(1);
  await database.db.execute(sql`delete from user_activity_days where user_id = ${u} and day = (now() at time zone 'utc')::date - 1`);
  [kept, recounted] = await keptAndRecounted();
  expect(kept).toEqual(recounted);
  expect(kept['p:country:JP']).toBeUndefined();
  expect(kept['p:country:BR']).toBe(1);
}, 120_000);

test('an anonymous user upgraded enters every figure with what it already has; changed methods move', async () => {
  const u = await user({ anonymous: true });
  await activity(u, 0, 'CA');
  await database.db.execute(sql`insert into oauth_accounts (project_id, provider_id, provider_account_id, user_id) values (${p}, 'github', 'gh-anon', ${u})`);
  const before = await read(database.db);
  await database.db.execute(sql`update users set is_anonymous = false, password_hash = 'argon2-hash-placeholder' where id = ${u}`);
  let [kept, recounted] = await keptAndRecounted();
  expect(kept).toEqual(recounted);
  expect(kept['p:users:']).toBe(before['p:users:'] + 1);
  expect(kept['p:country:CA']).toBe(1);
  await database.db.execute(sql`update users set password_hash = null where id = ${u}`);
  await database.db.execute(sql`update oauth_accounts set used_for_auth = false where user_id = ${u}`);
  [kept, recounted] = await keptAndRecounted();
  expect(kept).toEqual(recounted);
}, 120_000);

test('users created, changed and deleted inside one transaction are counted as the committed rows say (0031: a new user counts at commit)', async () => {
  const before = await read(database.db);
  await database.db.transaction(async (tx) => {
    const [kept] = rowsOf<{ id: string }>(await tx.execute(sql`insert into users (project_id, is_anonymous) values (${p}, false) returning id`));
    await tx.execute(sql`update users set otp_auth_enabled = true, password_hash = 'argon2-hash-placeholder' where id = ${kept!.id}`);
    const [gone] = rowsOf<{ id: string }>(await tx.execute(sql`insert into users (project_id, is_anonymous, otp_auth_enabled) values (${p}, false, true) returning id`));
    await tx.execute(sql`delete from users where id = ${gone!.id}`);
  });
  const [kept, recounted] = await keptAndRecounted();
  expect(kept).toEqual(recounted);
  const added = (k: string) => (kept[k] ?? 0) - (before[k] ?? 0);
  expect([added('p:users:'), added('p:method:otp'), added('p:method:password')]).toEqual([1, 1, 1]);
}, 120_000);

test('a deleted user leaves every figure; a deleted project leaves no counters', async () => {
  const [{ id }] = rowsOf<{ id: string }>(await database.db.execute(sql`select user_id as id from passkeys where project_id = ${p} limit 1`));
  await database.db.execute(sql`delete from users where id = ${id}`);
  let [kept, recounted] = await keptAndRecounted();
  expect(kept).toEqual(recounted);
  expect(kept['p:method:passkey']).toBeUndefined();
  await database.db.execute(sql`delete from projects where id = ${other}`);
  [kept, recounted] = await keptAndRecounted();
  expect(kept).toEqual(recounted);
  expect(Object.keys(kept).some((k) => k.startsWith('other:'))).toBe(false);
}, 120_000);
