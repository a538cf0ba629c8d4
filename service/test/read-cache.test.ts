// Reads reused until the next write (db/read-cache.ts, issue 16 §2): the embedded database's user load is served
// from memory while nothing has been written, and never after a write that completed before it was asked for, nor
// from a read that overlapped a write; transactions and PostgreSQL always read the database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { rowsOf, type Database, type DB } from '../src/db';
import { openTestDatabase } from './support/pglite-template';
import { ReadCache, registerWriteGeneration, touchesCachedTables, writeGeneration } from '../src/db/read-cache';
import * as users from '../src/repo/users';
import { ActivityRecorder } from '../src/auth/activity';

setDefaultTimeout(120_000);

describe('ReadCache', () => {
  const fakeDb = () => ({}) as unknown as DB;

  test('a value is reused while the generation stays, and read again once it moves', async () => {
    const db = fakeDb();
    let generation = 0;
    registerWriteGeneration(db, () => generation);
    const cache = new ReadCache<{ n: number }>(10, ['users']);
    let loads = 0;
    const load = async () => ({ n: ++loads });
    expect(await cache.read(db, 'k', load)).toEqual({ n: 1 });
    expect(await cache.read(db, 'k', load)).toEqual({ n: 1 });
    expect(await cache.read(db, 'other', load)).toEqual({ n: 2 });
    generation++;
    expect(await cache.read(db, 'k', load)).toEqual({ n: 3 });
    expect(loads).toBe(3);
  });

  test('a read that overlapped a write is not kept', async () => {
    const db = fakeDb();
    let generation = 0;
    registerWriteGeneration(db, () => generation);
    const cache = new ReadCache<number>(10, ['users']);
    let loads = 0;
    const overlapping = cache.read(db, 'k', async () => { loads++; generation++; return 1; });
    expect(await overlapping).toBe(1);
    expect(await cache.read(db, 'k', async () => { loads++; return 2; })).toBe(2);
    expect(loads).toBe(2);
  });

  test('a handle without a generation (PostgreSQL, a transaction) always loads', async () => {
    const cache = new ReadCache<number>(10, ['users']);
    let loads = 0;
    const db = fakeDb();
    await cache.read(db, 'k', async () => ++loads);
    await cache.read(db, 'k', async () => ++loads);
    expect(loads).toBe(2);
  });

  test('kept values are frozen, deeply, and the oldest goes at the limit', async () => {
    const db = fakeDb();
    registerWriteGeneration(db, () => 0);
    const cache = new ReadCache<{ meta: { tags: string[] } }>(2, ['users']);
    const value = await cache.read(db, 'a', async () => ({ meta: { tags: ['x'] } }));
    expect(() => { value.meta.tags.push('y'); }).toThrow();
    expect(() => { (value as { meta: unknown }).meta = null; }).toThrow();
    let loads = 0;
    const load = async () => { loads++; return { meta: { tags: [] } }; };
    await cache.read(db, 'b', load);
    await cache.read(db, 'c', load);
    await cache.read(db, 'a', load);
    expect(loads).toBe(3);
  });
});

describe('the embedded database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-read-cache-'));
  const statements: string[] = [];
  let database: Database;
  let db: DB;
  const projectId = 'read-cache-project';
  let userId: string;
  const name = async () => (await users.load(db, projectId, userId))?.display_name;
  const counted = async <T>(fn: () => Promise<T>) => { const before = statements.length; const value = await fn(); return { value, statements: statements.length - before }; };

  beforeAll(async () => {
    database = await openTestDatabase({ dataDir: dir, logQuery: (query) => statements.push(query) });
    db = database.db;
    await db.execute(sql`insert into projects (id, display_name, config) values (${projectId}, 'Read cache', '{}'::jsonb)`);
    const [row] = rowsOf<{ id: string }>(await db.execute(sql`insert into users (project_id, display_name) values (${projectId}, 'first') returning id`));
    userId = row!.id;
  });
  afterAll(async () => { await database.close(); rmSync(dir, { recursive: true, force: true }); });

  test('a second load of the same user runs no statement; another user or project is its own entry', async () => {
    expect((await counted(name)).value).toBe('first');
    expect(await counted(name)).toEqual({ value: 'first', statements: 0 });
    expect(await counted(() => users.load(db, 'another-project', userId))).toEqual({ value: null, statements: 1 });
  });

  test('a write, a data-modifying with, a locking select and a transaction each end the reuse', async () => {
    const writes = [
      () => db.execute(sql`update users set display_name = 'second' where id = ${userId}`),
      () => db.execute(sql`with changed as (update users set display_name = 'third' where id = ${userId} returning id) select count(*) from changed`),
      () => db.execute(sql`select id from users where id = ${userId} for update`),
      () => db.transaction(async (tx) => { await tx.execute(sql`update users set display_name = 'fourth' where id = ${userId}`); }),
    ];
    const expected = ['second', 'third', 'third', 'fourth'];
    for (const [i, write] of writes.entries()) {
      await name();
      await write();
      expect(await counted(name)).toEqual({ value: expected[i], statements: 1 });
    }
  });

  test('loads asked for while a write runs are not reused after it, and a rolled-back transaction changes nothing', async () => {
    await db.execute(sql`update users set display_name = 'before' where id = ${userId}`);
    // Which of them the database runs before the update is not fixed; none is kept past it.
    await Promise.all([name(), db.execute(sql`update users set display_name = 'after' where id = ${userId}`), name()]);
    expect(await counted(name)).toEqual({ value: 'after', statements: 1 });
    expect(await counted(name)).toEqual({ value: 'after', statements: 0 });
    await db.transaction(async (tx) => {
      await tx.execute(sql`update users set display_name = 'rolled back' where id = ${userId}`);
      // Inside the transaction the handle is the transaction's: never cached, sees its own write.
      expect((await users.load(tx, projectId, userId))?.display_name).toBe('rolled back');
      tx.rollback();
    }).catch(() => {});
    expect(await name()).toBe('after');
  });

  test('the activity flush (a declared write) patches the kept row instead of emptying the cache, and agrees with the database', async () => {
    const recorder = new ActivityRecorder(db, 60_000);
    const fromDb = async () => db.transaction(async (tx) => (await users.load(tx, projectId, userId))!);
    for (const at of [new Date('2030-01-02T03:04:05.678Z'), new Date('2029-01-01T00:00:00.000Z'), new Date('2030-06-01T00:00:00.000Z')]) {
      await name();
      const before = writeGeneration(db);
      recorder.record(crypto.randomUUID(), projectId, userId, null, { at, sessionWritten: true });
      await recorder.flush();
      expect(writeGeneration(db)).toBe(before);
      const { value: kept, statements: ran } = await counted(() => users.load(db, projectId, userId));
      expect(ran).toBe(0);
      // The same instant as the row now in the database (greatest of the old and the new: the older date changes nothing).
      expect(new Date(kept!.last_active_at!).getTime()).toBe(new Date((await fromDb()).last_active_at!).getTime());
    }
    expect(new Date((await fromDb()).last_active_at!).toISOString()).toBe('2030-06-01T00:00:00.000Z');
  });

  test('writes to tables no cache reads from (the email outbox, webhook deliveries...) keep the kept rows', async () => {
    await name();
    const before = writeGeneration(db);
    await db.execute(sql`delete from email_attempts where false`);
    await db.transaction(async (tx) => { await tx.execute(sql`delete from webhook_deliveries where false`); });
    expect(writeGeneration(db)).toBe(before);
    expect((await counted(name)).statements).toBe(0);
  });

  test('every table whose writes reach the user row through a trigger or a foreign key action is watched', async () => {
    const watched = new Set<string>(users.USER_ROW_TABLES);
    expect(touchesCachedTables('update contact_channels set value = 1')).toBe(true);
    for (const table of watched) expect(touchesCachedTables(`delete from "${table}" where false`)).toBe(true);
    const triggers = rowsOf<{ table: string; source: string }>(await db.execute(sql`
      select c.relname as table, p.prosrc as source from pg_trigger t
      join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid where not t.tgisinternal`));
    const functions = new Map(rowsOf<{ name: string; source: string }>(await db.execute(sql`
      select p.proname as name, p.prosrc as source from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public'`)).map((f) => [f.name, f.source]));
    // A function's source with the sources of the functions it calls, transitively.
    const expand = (source: string, seen = new Set<string>()): string => {
      let all = source;
      for (const [fn, body] of functions) if (!seen.has(fn) && new RegExp(`\\b${fn}\\s*\\(`).test(source)) { seen.add(fn); all += expand(body, seen); }
      return all;
    };
    const actions = rowsOf<{ child: string; parent: string }>(await db.execute(sql`
      select c.relname as child, p.relname as parent from pg_constraint k
      join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
      where k.contype = 'f' and (k.confdeltype in ('c', 'n', 'd') or k.confupdtype in ('c', 'n', 'd'))`));
    const reaching = new Set<string>();
    const writesTo = (source: string, table: string) =>
      new RegExp(`\\b(?:update|insert\\s+into|delete\\s+from|merge\\s+into)\\s+(?:only\\s+)?(?:public\\.)?"?${table}\\b`, 'i').test(source);
    let grew = true;
    const closure = new Set(['users', 'teams']);
    while (grew) {
      grew = false;
      for (const t of triggers) for (const target of [...closure]) if (!closure.has(t.table) && writesTo(expand(t.source), target)) { closure.add(t.table); reaching.add(`${t.table} (trigger writing ${target})`); grew = true; }
      for (const a of actions) if (closure.has(a.child) && !closure.has(a.parent)) { closure.add(a.parent); reaching.add(`${a.parent} (foreign key action on ${a.child})`); grew = true; }
    }
    expect([...closure].filter((t) => !watched.has(t)).join(", ")).toBe("");
    // The check finds the summary triggers and the project cascade (it is not vacuous).
    expect([...reaching].some((r) => r.startsWith('contact_channels (trigger'))).toBe(true);
    expect(closure.has('projects')).toBe(true);
  });

  test('a plain select does not move the write generation; a statement that may write and names a watched table does', async () => {
    await db.execute(sql.raw('create table read_cache_t (id int primary key, users int)'));
    await db.execute(sql.raw('create sequence read_cache_s'));
    const moved = async (text: string) => {
      const before = writeGeneration(db);
      await db.execute(sql.raw(text)).catch(() => {});
      return writeGeneration(db) !== before;
    };
    // Statements that name a watched table ("users" here is a column: conservative).
    expect(await moved('select users from read_cache_t where id = 1')).toBe(false);
    expect(await moved('  SELECT count(*) from users')).toBe(false);
    expect(await moved('insert into read_cache_t (id, users) values (1, 1)')).toBe(true);
    expect(await moved('select nextval(\'read_cache_s\'), users from read_cache_t')).toBe(true);
    expect(await moved('select * from users for share')).toBe(true);
    expect(await moved('with x as (delete from read_cache_t returning users) select * from x')).toBe(true);
    expect(await moved('select set_config(\'search_path\', \'public\', false) from users')).toBe(true);
    // Writes that name none.
    expect(await moved('insert into read_cache_t (id) values (2)')).toBe(false);
    expect(await moved('select nextval(\'read_cache_s\')')).toBe(false);
  });
});
