// The hot queries of the scale targets (issue 16 §1) keep index plans: 30,000 users seeded by set-based SQL (the
// bench's own seed, bench/scale-seed.ts) and ANALYZEd, then every hot repo call is captured and EXPLAINed; a
// sequential scan of a table that grows with the users (users, contact channels, sessions, team members, activity
// days, the metric counters) fails the test. A user delete is also checked by PostgreSQL's own scan counts, which
// include what EXPLAIN leaves out (the foreign keys' cascades, the counter triggers), and every foreign key must have
// an index led by its columns. On PostgreSQL under DATABASE_URL (a scratch database), else on PGlite.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../src/db/index';
import { openTestDatabase } from './support/pglite-template';
import { personOf, seedStatements } from '../../bench/scale-seed';
import { inlineParams, queryRecorder, runHotQueries, seqScansOfUserDelete, seqScansOnLargeTables, type CapturedQuery } from './support/hot-queries';
import { isolatedDatabase } from './support/isolated-database';

const USERS = 30_000;
const rec = queryRecorder();
let database: Database;
let scratch: Awaited<ReturnType<typeof isolatedDatabase>>;
const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-plans-'));
let captured: CapturedQuery[] = [];
let projectId = '';

const md5Uuid = async (text: string) => rowsOf<{ id: string }>(await database.db.execute(sql`select md5(${text})::uuid as id`))[0].id;

beforeAll(async () => {
  scratch = await isolatedDatabase();
  database = await openTestDatabase({ databaseUrl: scratch.url, dataDir, logQuery: rec.logQuery });
  const db = database.db;
  const p = crypto.randomUUID();
  projectId = p;
  await db.execute(sql`insert into projects (id, display_name, config) values (${p}, 'Plans', '{}'::jsonb)`);
  const hash = await Bun.password.hash('unused-password', { algorithm: 'argon2id', memoryCost: 19456, timeCost: 2 });
  await db.transaction(async (tx) => { for (const s of seedStatements(p, 0, USERS, hash)) await tx.execute(sql.raw(s)); });
  await db.execute(sql`select gatehouse_rebuild_metric_counts()`);
  await db.execute(sql`analyze`);
  // A session whose refresh token is known (the seeded ones are random).
  const userId = await md5Uuid(`${p}:u:17`);
  const refreshToken = 'plans-test-refresh-token';
  await db.execute(sql`insert into sessions (project_id, user_id, refresh_token_hash) values (${p}, ${userId}, encode(sha256(convert_to(${refreshToken}, 'UTF8')), 'hex'))`);
  const [deep] = rowsOf<{ id: string }>(await db.execute(sql`select id from users where project_id = ${p} order by created_at, id offset ${USERS / 2} limit 1`));
  const person = personOf(12_345);
  captured = await runHotQueries(db, rec, {
    projectId: p, userId, refreshToken, email: person.email, deepCursor: deep.id,
    emailFragment: person.email.split('@')[0].split('.').slice(1).join('.'), nameFragment: person.name,
    teamId: await md5Uuid(`${p}:t:${Math.floor(12_345 / 250)}`), deleteUserId: await md5Uuid(`${p}:u:23456`),
  });
}, 600_000);

afterAll(async () => {
  await database?.close();
  await scratch?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('every hot query was captured', () => {
  const names = new Set(captured.map((q) => q.name));
  expect(names.size).toBe(17);
  expect(captured.length).toBeGreaterThanOrEqual(20);
});

test('no hot query reads a large table by sequential scan', async () => {
  const offenders: string[] = [];
  for (const q of captured) {
    const [row] = rowsOf<Record<string, unknown>>(await database.db.execute(sql.raw(`explain (format json) ${inlineParams(q)}`)));
    const json = row['QUERY PLAN'];
    const [plan] = (typeof json === 'string' ? JSON.parse(json) : json) as { Plan: Parameters<typeof seqScansOnLargeTables>[0] }[];
    const scans = seqScansOnLargeTables(plan.Plan);
    if (scans.length) offenders.push(`${q.name}: Seq Scan on ${scans.join(', ')}\n  ${inlineParams(q).slice(0, 400)}`);
  }
  expect(offenders).toEqual([]);
}, 120_000);

test('the check sees a sequential scan when there is one', async () => {
  // Without its trigram index a fragment search can only read every contact channel: the check must say so.
  const search = captured.find((q) => q.name === 'GET /users?query=: email fragment')!;
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`drop index contact_channels_value_trgm_idx`);
    const [row] = rowsOf<Record<string, unknown>>(await tx.execute(sql.raw(`explain (format json) ${inlineParams(search)}`)));
    const json = row['QUERY PLAN'];
    const [plan] = (typeof json === 'string' ? JSON.parse(json) : json) as { Plan: Parameters<typeof seqScansOnLargeTables>[0] }[];
    expect(seqScansOnLargeTables(plan.Plan)).toContain('contact_channels');
    tx.rollback();
  }).catch((e) => { if (!String(e?.message ?? e).toLowerCase().includes('rollback')) throw e; });
}, 120_000);

// Every fifth seeded user is in a team, 30% have activity days (and a country), every tenth a second address: user
// 23450 has all of them, so each cascade and counter trigger of the delete has rows to act on.
test('deleting a user reads no large table by sequential scan, its cascades and counter triggers included', async () => {
  expect(await seqScansOfUserDelete(database.db, projectId, await md5Uuid(`${projectId}:u:23450`))).toEqual([]);
}, 120_000);

test('the delete check sees a sequential scan in a cascade when there is one', async () => {
  // Without the index led by sessions.user_id, the cascade to the user's sessions can only read every session.
  const found = await seqScansOfUserDelete(database.db, projectId, await md5Uuid(`${projectId}:u:23450`),
    (tx) => tx.execute(sql`drop index sessions_user_idx`));
  expect(found).toContain('sessions');
}, 120_000);

// A foreign key whose referencing rows are found without an index is a read of the whole referencing table each
// time a referenced row is deleted (the cascade) or its key checked: at a million users, per user delete. The
// references to projects are left out: a project is deleted rarely and as a whole (not checked here yet).
test('every foreign key (but those to projects) has an index led by its columns', async () => {
  const unindexed = rowsOf<{ fk: string }>(await database.db.execute(sql`
    select c.conrelid::regclass::text || '(' || (select string_agg(a.attname, ', ') from pg_attribute a
      where a.attrelid = c.conrelid and a.attnum = any(c.conkey)) || ') -> ' || c.confrelid::regclass::text as fk
    from pg_constraint c
    where c.contype = 'f' and c.confrelid <> 'projects'::regclass
      and not exists (select 1 from pg_index i where i.indrelid = c.conrelid
        and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] = c.conkey)
    order by 1`)).map((r) => r.fk);
  expect(unindexed).toEqual([]);
});
