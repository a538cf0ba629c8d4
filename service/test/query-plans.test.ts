// The hot queries of the scale targets (issue 16 §1) keep index plans: 30,000 users seeded by set-based SQL (the
// bench's own seed, bench/scale-seed.ts) and ANALYZEd, then every hot repo call is captured and EXPLAINed; a
// sequential scan of a table that grows with the users (users, contact channels, sessions, team members, activity
// days, the metric counters) fails the test. On PostgreSQL under DATABASE_URL (a scratch database), else on PGlite.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf, type Database } from '../src/db/index';
import { personOf, seedStatements } from '../../bench/scale-seed';
import { inlineParams, queryRecorder, runHotQueries, seqScansOnLargeTables, type CapturedQuery } from './support/hot-queries';
import { isolatedDatabase } from './support/isolated-database';

const USERS = 30_000;
const rec = queryRecorder();
let database: Database;
let scratch: Awaited<ReturnType<typeof isolatedDatabase>>;
const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-plans-'));
let captured: CapturedQuery[] = [];

const md5Uuid = async (text: string) => rowsOf<{ id: string }>(await database.db.execute(sql`select md5(${text})::uuid as id`))[0].id;

beforeAll(async () => {
  scratch = await isolatedDatabase();
  database = await openDatabase({ databaseUrl: scratch.url, dataDir, logQuery: rec.logQuery });
  const db = database.db;
  const p = crypto.randomUUID();
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
