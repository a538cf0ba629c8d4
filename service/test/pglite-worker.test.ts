// Runs alone: one test bounds the event loop's delay while a slow statement runs (400 ms); beside a browser file of
// the other worker it measured 411 ms in a rehearsal.
// The embedded database in a thread of its own (db/pglite-worker.ts, db/pglite-remote.ts, issue 16 §2): the same
// values in and out as PGlite in-thread, through drizzle's parsers too; Postgres errors with their fields; PGlite's
// transaction exclusion kept; a slow statement no longer stalls the event loop; a dead worker fails calls instead of
// leaving them waiting; a clean close keeps the data.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { eq, sql } from 'drizzle-orm';
import { date, integer, interval, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { PGliteRemote } from '../src/db/pglite-remote';
import { openDatabase, rowsOf, schema } from '../src/db';
import { isDatabaseUnavailable, isUniqueViolation } from '../src/db/errors';
import { openTestDatabase } from './support/pglite-template';

setDefaultTimeout(120_000);
const dirs: string[] = [];
const tempDir = () => { const d = mkdtempSync(join(tmpdir(), 'gatehouse-pglite-worker-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

const times = pgTable('times', {
  id: integer('id').primaryKey(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }),
  atText: timestamp('at_text', { withTimezone: true, mode: 'string' }),
  local: timestamp('local', { mode: 'date' }),
  day: date('day'),
  span: interval('span'),
  amount: numeric('amount'),
  note: text('note'),
});
const DDL = `create table t (id int primary key, s text, j jsonb, at timestamptz, b boolean, u uuid, n numeric, arr text[], big bigint, bytes bytea);
  create table times (id int primary key, at timestamptz, at_text timestamptz, local timestamp, day date, span interval, amount numeric, note text,
    days date[], stamps timestamptz[], amounts numeric[], spans interval[], locals timestamp[]);
  create table tx (id int primary key, note text);`;

describe('the worker client and PGlite in-thread', () => {
  let plain: PGlite;
  let remote: PGliteRemote;
  beforeAll(async () => {
    plain = await PGlite.create();
    remote = await PGliteRemote.open(`${tempDir()}/pglite`);
    await plain.exec(DDL);
    await remote.exec(DDL);
  });
  afterAll(async () => { await plain.close(); await remote.close(); });

  test('values in and out are equal, with PGlite\'s own parsers and row modes', async () => {
    const insert = 'insert into t (id, s, j, at, b, u, n, arr, big, bytes) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning *';
    const at = new Date('2026-01-02T03:04:05.678Z');
    const rows = [
      [1, 'a', '{"k":[1,"x"]}', at, true, '6f1c2a54-0b8e-4d4f-9a55-0f6bd7e4c1a1', '12.5', ['x', 'y'], 9007199254740993n, new Uint8Array([0, 1, 255])],
      [2, null, { k: 'object' }, '2026-01-02T03:04:05.678Z', false, null, 3, [], 5, null],
      [3, 'it\'s "quoted" ✓', '"a json string"', null, null, null, null, null, null, null],
    ];
    for (const params of rows) expect((await remote.query(insert, params)).rows).toEqual((await plain.query(insert, params)).rows);
    const select = 'select * from t where id = $1';
    for (let i = 0; i < 3; i++) {
      for (const id of [1, 2, 3, 4]) {
        for (const options of [undefined, { rowMode: 'array' as const }, { rowMode: 'array' as const, parsers: { 1184: (v: string) => v } }]) {
          const a = await remote.query(select, [id], options);
          const b = await plain.query(select, [id], options);
          expect(a.rows).toEqual(b.rows);
          expect(a.fields).toEqual(b.fields);
          expect(a.affectedRows).toEqual(b.affectedRows);
        }
      }
    }
    const one = (await remote.query<{ at: Date; big: bigint; bytes: Uint8Array }>(select, [1])).rows[0]!;
    expect(one.at).toBeInstanceOf(Date);
    expect(one.at.toISOString()).toBe(at.toISOString());
    expect(one.big).toBe(9007199254740993n);
    expect([...one.bytes]).toEqual([0, 1, 255]);
    const update = 'update t set s = $1 where id > $2';
    expect((await remote.query(update, ['z', 1])).affectedRows).toBe((await plain.query(update, ['z', 1])).affectedRows!);
    expect(await remote.exec('select 1 as one; select 2 as two')).toEqual(await plain.exec('select 1 as one; select 2 as two'));
  });

  test('through drizzle: timestamps, dates, intervals and their arrays stay text where drizzle keeps them text', async () => {
    const a = drizzle(remote.asPGlite());
    const b = drizzle(plain);
    const row = { id: 1, at: new Date('2026-03-04T05:06:07.089Z'), atText: '2026-03-04 05:06:07.089+00', local: new Date('2026-03-04T05:06:07Z'), day: '2026-03-04', span: '1 day 02:03:04', amount: '123.4500', note: 'n' };
    expect(await a.insert(times).values(row).returning()).toEqual(await b.insert(times).values(row).returning());
    for (const db of [a, b]) await db.execute(sql`update times set days = '{2026-01-01,2026-01-02}', stamps = array[now()], amounts = '{1.50,2}', spans = '{"1 hour"}', locals = '{"2026-01-01 00:00:00"}' where id = 1`);
    const selected = await a.select().from(times).where(eq(times.id, 1));
    expect(selected).toEqual(await b.select().from(times).where(eq(times.id, 1)));
    expect(selected[0]!.at).toEqual(row.at);
    expect(selected[0]!.span).toBe('1 day 02:03:04');
    const raw = (db: typeof a) => db.execute(sql`select at, local, day, span, days, amounts, spans, locals, stamps is not null as has_stamps from times where id = ${1}`);
    const rawA = rowsOf<Record<string, unknown>>(await raw(a));
    expect(rawA).toEqual(rowsOf(await raw(b)));
    expect(rawA[0]).toMatchObject({ at: '2026-03-04 05:06:07.089+00', day: '2026-03-04', days: '{2026-01-01,2026-01-02}', amounts: '{1.50,2}' });
  });

  test('a parser that does more than keep the text is refused, not silently dropped', async () => {
    const err = await remote.query('select 1', [], { parsers: { 23: (v: string) => Number(v) * 2 } }).then(() => null, (e: Error) => e);
    expect(err?.message).toContain('cannot run in the embedded database\'s thread');
  });

  test('a failing statement throws the Postgres error with its fields and statement; the connection goes on', async () => {
    const insert = 'insert into t (id, s) values ($1, $2)';
    await remote.query(insert, [10, 'first']);
    await remote.query(insert, [11, 'second']);
    const err = await remote.query(insert, [10, 'again']).then(() => null, (e: unknown) => e as Record<string, unknown>);
    const expected = await plain.query('insert into t (id, s) values ($1, $2), ($1, $2)', [10, 'x']).then(() => null, (e: unknown) => e as Record<string, unknown>);
    expect(err?.code).toBe('23505');
    for (const field of ['code', 'severity', 'constraint', 'table', 'schema', 'detail']) expect(err?.[field]).toBe(expected?.[field] as never);
    expect(err?.query).toBe(insert);
    expect(err?.params).toEqual([10, 'again']);
    expect(err?.message).toBe(expected?.message as never);
    expect((await remote.query('select s from t where id = $1', [10])).rows).toEqual([{ s: 'first' }]);
    // Through drizzle (which wraps the driver's error) the service's recognisers still find it.
    const viaDrizzle = await drizzle(remote.asPGlite()).execute(sql`insert into t (id, s) values (${10}, ${'again'})`).then(() => null, (e: unknown) => e);
    expect(isUniqueViolation(viaDrizzle, 't_pkey')).toBe(true);
  });

  test('a transaction keeps its statements together and every other statement out', async () => {
    const count = async () => Number((await remote.query<{ n: number }>('select count(*)::int as n from tx where id > $1', [0])).rows[0]!.n);
    await count(); await count();
    let seenDuring = -1;
    const inside = remote.transaction(async (tx) => {
      await tx.query('insert into tx (id, note) values ($1, $2)', [1, 'in']);
      await Bun.sleep(50);
      await tx.query('insert into tx (id, note) values ($1, $2)', [2, 'in']);
      throw new Error('roll back');
    }).then(() => 'committed', (e: Error) => e.message);
    const outside = (async () => { await Bun.sleep(10); seenDuring = await count(); await remote.query('insert into tx (id, note) values ($1, $2)', [3, 'out']); })();
    expect(await inside).toBe('roll back');
    await outside;
    expect(seenDuring).toBe(0);
    expect(await remote.transaction(async (tx) => (await tx.query('insert into tx (id, note) values ($1, $2) returning id', [4, 'kept'])).rows)).toEqual([{ id: 4 }]);
    // drizzle: a nested transaction is a savepoint; its rollback keeps the outer transaction's rows.
    const db = drizzle(remote.asPGlite());
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into tx (id, note) values (${5}, ${'outer'})`);
      await tx.transaction(async (inner) => { await inner.execute(sql`insert into tx (id, note) values (${6}, ${'inner'})`); inner.rollback(); }).catch(() => {});
    });
    expect((await remote.query('select id from tx where id > $1 order by id', [0])).rows).toEqual([{ id: 3 }, { id: 4 }, { id: 5 }]);
  });
});

test('a slow statement through the service\'s database does not stall the event loop; other work goes on', async () => {
  // A copy of the migrated template: what is measured starts after the open (opening an empty directory, initdb and
  // every migration, is the last test's).
  const database = await openTestDatabase({ dataDir: tempDir() });
  try {
    let maxDelay = 0;
    let last = performance.now();
    const timer = setInterval(() => { const now = performance.now(); maxDelay = Math.max(maxDelay, now - last - 10); last = now; }, 10);
    const started = performance.now();
    const slow = database.db.execute(sql`select pg_sleep(1)`).then(() => performance.now() - started);
    // Work of the service's thread (here an HTTP round trip to a local server) completes during the statement...
    const server = Bun.serve({ port: 0, fetch: () => new Response('ok') });
    const other = (async () => { await Bun.sleep(100); const res = await fetch(`http://localhost:${server.port}/`); await res.text(); return performance.now() - started; })();
    // ...and a database statement issued meanwhile waits for the embedded database's one backend, then runs.
    const queued = database.db.select({ id: schema.projects.id }).from(schema.projects).where(eq(schema.projects.id, 'internal')).then(() => performance.now() - started);
    const [slowMs, otherMs, queuedMs] = await Promise.all([slow, other, queued]);
    clearInterval(timer);
    server.stop(true);
    expect(slowMs).toBeGreaterThan(950);
    expect(otherMs).toBeLessThan(slowMs - 500);
    expect(queuedMs).toBeGreaterThanOrEqual(slowMs - 50);
    // PGlite on this thread would hold the loop for the whole second. A loaded two-core CI machine delays a 10 ms timer
    // by up to 150 ms on its own (142 ms seen in a rehearsal), so the bound is well below the second, not near zero.
    expect(maxDelay).toBeLessThan(400);
  } finally {
    await database.close();
  }
});

test('when the worker dies, pending and later statements fail as "database unavailable" instead of waiting', async () => {
  const remote = await PGliteRemote.open(`${tempDir()}/pglite`);
  const pending = remote.query('select pg_sleep(30)').then(() => null, (e: unknown) => e);
  await Bun.sleep(200);
  const t0 = performance.now();
  remote.worker.terminate();
  const err = await pending;
  expect(performance.now() - t0).toBeLessThan(5000);
  expect(isDatabaseUnavailable(err)).toBe(true);
  const later = await remote.query('select 1').then(() => null, (e: unknown) => e);
  expect(isDatabaseUnavailable(later)).toBe(true);
  await remote.close();
});

test('close flushes the data: a reopened directory has every row', async () => {
  const dir = tempDir();
  const first = await openDatabase({ dataDir: dir });
  await first.db.insert(schema.projects).values({ id: 'closed-cleanly', displayName: 'Closed', config: {} });
  await first.db.transaction(async (tx) => { await tx.insert(schema.projects).values({ id: 'closed-in-tx', displayName: 'Tx', config: {} }); });
  await first.close();
  const again = await openDatabase({ dataDir: dir });
  try {
    const ids = (await again.db.select({ id: schema.projects.id }).from(schema.projects)).map((r) => r.id);
    expect(ids).toContain('closed-cleanly');
    expect(ids).toContain('closed-in-tx');
    // Opened with the smaller shared buffers of db/pglite-worker.ts (the RSS target of issue 16 §2).
    expect(rowsOf<{ shared_buffers: string }>(await again.db.execute(sql`show shared_buffers`))).toEqual([{ shared_buffers: '16MB' }]);
  } finally {
    await again.close();
  }
});
