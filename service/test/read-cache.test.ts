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
import { cachedTablesIn, ReadCache, registerWriteGeneration, touchesCachedTables, writeGeneration } from '../src/db/read-cache';
import { reachOf, readSchemaCatalog } from '../src/db/write-reach';
import * as users from '../src/repo/users';
import * as sessions from '../src/repo/sessions';
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

  // The tables each cache watches are derived from the schema (db/write-reach.ts): its own tables, plus every table
  // whose writes reach them through a trigger (with the functions it calls) or a foreign key action.
  test('the user-row cache watches every table whose writes reach the row, derived from the schema', async () => {
    const watched = new Set(users.userRowCache.tables);
    expect(users.userRowCache.reads).toEqual(['users', 'teams']);
    // What the hand-kept list named before it was derived: the summary triggers' tables and the project cascade.
    expect([...watched].sort()).toEqual(['contact_channels', 'oauth_accounts', 'passkeys', 'projects', 'team_members', 'teams', 'users']);
    expect(touchesCachedTables('update contact_channels set value = 1')).toBe(true);
    for (const table of watched) expect(touchesCachedTables(`delete from "${table}" where false`)).toBe(true);
    const { reasons } = reachOf(await readSchemaCatalog(db), ['users', 'teams']);
    expect(reasons.some((r) => r.startsWith('contact_channels (trigger'))).toBe(true);
    expect(reasons.some((r) => r.startsWith('projects (foreign key action on'))).toBe(true);
  });

  test('the session lookup watches the sessions and what deletes them by cascade, derived from the schema', async () => {
    expect([...sessions.sessionLookupCache.tables].sort()).toEqual(['projects', 'sessions', 'users']);
    for (const table of sessions.sessionLookupCache.tables) expect(cachedTablesIn(`delete from "${table}" where false`)).toContain(table);
    expect(reachOf(await readSchemaCatalog(db), ['sessions']).reasons).toContain('users (foreign key action on sessions)');
  });

  describe('the session lookup of the refresh grant', () => {
    let token: string;
    let sessionId: string;
    const lookup = () => counted(() => sessions.findByRefreshToken(db, projectId, token));
    const newSession = async (p: { expiresInMs?: number | null } = {}) => {
      const created = await sessions.create(db, { projectId, userId, ...p });
      token = created.refreshToken;
      sessionId = created.sessionId;
    };

    test('a second lookup runs no statement; revoking the session ends it at once', async () => {
      await newSession();
      expect(await lookup()).toEqual({ value: { id: sessionId, userId, createdAt: expect.any(Date) }, statements: 1 });
      expect(await lookup()).toEqual({ value: { id: sessionId, userId, createdAt: expect.any(Date) }, statements: 0 });
      expect(await sessions.revoke(db, projectId, sessionId)).toBe(true);
      expect((await lookup()).value).toBeNull();
    });

    test('a token no session holds is not kept (guesses do not fill the cache)', async () => {
      token = 'not-a-refresh-token';
      expect(await lookup()).toEqual({ value: null, statements: 1 });
      expect(await lookup()).toEqual({ value: null, statements: 1 });
    });

    test('an expired session is refused from memory too', async () => {
      await newSession({ expiresInMs: 300 });
      expect((await lookup()).value).toEqual({ id: sessionId, userId, createdAt: expect.any(Date) });
      expect((await lookup()).statements).toBe(0);
      await Bun.sleep(400);
      expect(await lookup()).toEqual({ value: null, statements: 0 });
    });

    test("a new session elsewhere (a sign-in) keeps the kept user rows and lookups; deleting the user ends the user's sessions", async () => {
      await newSession();
      await lookup();
      await name();
      await sessions.create(db, { projectId, userId });
      expect((await counted(name)).statements).toBe(0);
      expect((await lookup()).statements).toBe(1);
      const [other] = rowsOf<{ id: string }>(await db.execute(sql`insert into users (project_id, display_name) values (${projectId}, 'other') returning id`));
      const theirs = await sessions.create(db, { projectId, userId: other!.id });
      expect((await counted(() => sessions.findByRefreshToken(db, projectId, theirs.refreshToken))).value).toEqual({ id: theirs.sessionId, userId: other!.id, createdAt: expect.any(Date) });
      await db.execute(sql`delete from users where id = ${other!.id}`);
      expect(await counted(() => sessions.findByRefreshToken(db, projectId, theirs.refreshToken))).toEqual({ value: null, statements: 1 });
    });
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

  test('a trigger or a foreign key action a later migration adds is watched when the database opens, with no list to edit', async () => {
    await db.execute(sql.raw('create table read_cache_parent (id int primary key)'));
    await db.execute(sql.raw('alter table sessions add column read_cache_parent_id int references read_cache_parent (id) on delete cascade'));
    await db.execute(sql.raw('create table read_cache_log (id int primary key, user_id uuid)'));
    await db.execute(sql.raw(`create function read_cache_log_touch() returns trigger language plpgsql as $$
      begin update users set display_name = 'touched' where id = new.user_id; return new; end $$`));
    await db.execute(sql.raw('create trigger read_cache_log_touch after insert on read_cache_log for each row execute function read_cache_log_touch()'));
    const catalog = await readSchemaCatalog(db);
    expect(reachOf(catalog, ['sessions']).tables).toContain('read_cache_parent');
    expect(reachOf(catalog, ['users', 'teams']).reasons).toContain('read_cache_log (trigger writing users)');
    // Opened again (as after the migration), the user-row cache watches the new table: its insert ends the reuse.
    await database.close();
    database = await openTestDatabase({ dataDir: dir, logQuery: (query) => statements.push(query) });
    db = database.db;
    expect(users.userRowCache.tables).toContain('read_cache_log');
    await name();
    expect((await counted(name)).statements).toBe(0);
    await db.execute(sql`insert into read_cache_log (id, user_id) values (1, ${userId})`);
    expect(await counted(name)).toEqual({ value: 'touched', statements: 1 });
  });
});
