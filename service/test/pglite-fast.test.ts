// The one-trip statement path over PGlite (db/pglite-fast.ts, issue 16 §2): the same values in and out as PGlite's
// own `query`, errors that still carry their SQLSTATE, transactions kept whole (no outside statement lands inside
// one), and a data directory written by the plain PGlite open path of before still opening through openDatabase.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { eq, sql } from 'drizzle-orm';
import { fastQueries } from '../src/db/pglite-fast';
import { migrationsFolder, openDatabase, rowsOf, schema } from '../src/db';

setDefaultTimeout(120_000);
const dirs: string[] = [];
const tempDir = () => { const d = mkdtempSync(join(tmpdir(), 'gatehouse-pglite-fast-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

describe('one-trip statements', () => {
  let plain: PGlite;
  let fast: PGlite;
  beforeAll(async () => {
    plain = await PGlite.create();
    fast = fastQueries(plain);
    await plain.exec(`create table t (id int primary key, s text, j jsonb, at timestamptz, b boolean, u uuid, n numeric, arr text[])`);
  });
  afterAll(async () => { await plain.close(); });

  test('values in and out are those of PGlite\'s own query, on the first run and the runs after', async () => {
    const insert = 'insert into t (id, s, j, at, b, u, n, arr) values ($1, $2, $3, $4, $5, $6, $7, $8) returning *';
    const at = new Date('2026-01-02T03:04:05.678Z');
    const rows = [
      [1, 'a', '{"k":[1,"x"]}', at, true, '6f1c2a54-0b8e-4d4f-9a55-0f6bd7e4c1a1', '12.5', ['x', 'y']],
      [2, null, { k: 'object' }, '2026-01-02T03:04:05.678Z', false, null, 3, []],
      [3, 'it\'s "quoted"', '"a json string"', null, null, null, null, null],
    ];
    for (const params of rows) await fast.query(insert, params);
    const select = 'select * from t where id = $1';
    for (let i = 0; i < 3; i++) {
      for (const id of [1, 2, 3]) {
        const a = await fast.query(select, [id]);
        const b = await plain.query(select, [id]);
        expect(a.rows).toEqual(b.rows);
        expect(a.fields).toEqual(b.fields);
      }
    }
    const one = (await fast.query<{ j: unknown; at: Date; arr: string[] }>(select, [1])).rows[0]!;
    expect(one.j).toEqual({ k: [1, 'x'] });
    expect(one.at.toISOString()).toBe(at.toISOString());
    expect(one.arr).toEqual(['x', 'y']);
    // Row modes and parsers as drizzle passes them.
    const opts = { rowMode: 'array' as const, parsers: { 1184: (v: string) => v } };
    for (let i = 0; i < 2; i++) expect((await fast.query(select, [1], opts)).rows).toEqual((await plain.query(select, [1], opts)).rows);
    const update = await fast.query('update t set s = $1 where id > $2', ['z', 1]);
    expect(update.affectedRows).toBe(2);
  });

  test('a failing statement throws the database error, with its code, and the connection goes on', async () => {
    const insert = 'insert into t (id, s) values ($1, $2)';
    await fast.query(insert, [10, 'first']);
    const err = await fast.query(insert, [10, 'again']).then(() => null, (e: unknown) => e as { code?: string; query?: string });
    expect(err?.code).toBe('23505');
    expect(err?.query).toBe(insert);
    expect((await fast.query('select s from t where id = $1', [10])).rows).toEqual([{ s: 'first' }]);
  });

  test('a transaction keeps its statements together and others out', async () => {
    await plain.exec('create table tx (id int primary key, note text)');
    const count = async () => Number((await fast.query<{ n: number }>('select count(*)::int as n from tx where id > $1', [0])).rows[0]!.n);
    await count(); await count();
    let seenDuring = -1;
    const inside = fast.transaction(async (tx) => {
      await tx.query('insert into tx (id, note) values ($1, $2)', [1, 'in']);
      await Bun.sleep(50);
      await tx.query('insert into tx (id, note) values ($1, $2)', [2, 'in']);
      throw new Error('roll back');
    }).catch(() => {});
    // Issued while the transaction is open: it must wait for the rollback, never read (or write) inside it.
    const outside = (async () => { await Bun.sleep(10); seenDuring = await count(); await fast.query('insert into tx (id, note) values ($1, $2)', [3, 'out']); })();
    await Promise.all([inside, outside]);
    expect(seenDuring).toBe(0);
    expect((await fast.query('select id from tx where id > $1 order by id', [0])).rows).toEqual([{ id: 3 }]);
  });
});

test('a data directory written by the plain PGlite open path opens through openDatabase, rows intact', async () => {
  const dir = tempDir();
  // The open path before issue 16 §2: PGlite with pg_trgm, drizzle over it, migrations, one write.
  const before = await PGlite.create(`${dir}/pglite`, { extensions: { pg_trgm } });
  const oldDb = drizzle(before, { schema });
  await migrate(oldDb, { migrationsFolder });
  await oldDb.insert(schema.projects).values({ id: 'written-before', displayName: 'Before', config: { kept: true } });
  await before.close();

  const database = await openDatabase({ dataDir: dir });
  try {
    expect(database.driver).toBe('pglite');
    const rows = await database.db.select({ id: schema.projects.id, name: schema.projects.displayName }).from(schema.projects).where(eq(schema.projects.id, 'written-before'));
    expect(rows).toEqual([{ id: 'written-before', name: 'Before' }]);
    const n = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from projects where id = ${'written-before'}`));
    expect(n[0]!.n).toBe(1);
  } finally {
    await database.close();
  }
});

describe('named prepared statements', () => {
  test('a statement whose result type changed under it (DDL) is learnt again, and a rollback keeps what was learnt', async () => {
    const db = await PGlite.create();
    try {
      const fast = fastQueries(db);
      await db.exec('create table d (id int primary key, a text)');
      await db.exec(`insert into d values (1, 'x')`);
      const select = 'select * from d where id = $1';
      for (let i = 0; i < 3; i++) expect((await fast.query(select, [1])).rows).toEqual([{ id: 1, a: 'x' }]);
      // Learnt inside a transaction that rolls back: the prepared statement outlives the rollback.
      await fast.transaction(async (tx) => {
        await tx.query('select a from d where id > $1', [0]);
        await tx.query('select a from d where id > $1', [0]);
        throw new Error('roll back');
      }).catch(() => {});
      expect((await fast.query('select a from d where id > $1', [0])).rows).toEqual([{ a: 'x' }]);
      await db.exec('alter table d add column b int default 7');
      // Postgres refuses a cached plan whose result type changed (0A000): that run fails, the next learns again.
      const after = await fast.query(select, [1]).then((r) => r.rows, (e: { code?: string }) => e.code);
      if (after === '0A000') expect((await fast.query(select, [1])).rows).toEqual([{ id: 1, a: 'x', b: 7 }]);
      else expect(after).toEqual([{ id: 1, a: 'x', b: 7 }]);
      expect((await fast.query(select, [1])).rows).toEqual((await db.query(select, [1])).rows);
    } finally {
      await db.close();
    }
  });
});
