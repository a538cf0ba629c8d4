// A pooled PostgreSQL connection carries nothing from one statement to the next. postgres.js 3.4.9 kept two things
// (patches/postgres+3.4.9.patch resets them):
// - its row counter, past a statement that failed after some of its rows had arrived: the next statement's rows were
//   stored from that index on, with holes in front, so a read of one row found none;
// - the error of a statement the server ended (a shutdown, a restart, a terminated backend), past the connection's
//   close: it failed the first statement of the next, healthy connection, which also skipped the type fetch that
//   would otherwise have taken the stale row count.
// Together, after a restart, a read of a row that exists found none: the 404 USER_NOT_FOUND for an existing user in the
// PostgreSQL restart test, and 401 for a valid key (cached for a second). One pool connection here: each statement
// runs on the connection the failed one left.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf, type Database, type DB } from '../src/db/index';
import { isDatabaseUnavailable } from '../src/db/errors';
import { projects, users as usersTable } from '../src/db/schema';
import * as users from '../src/repo/users';
import { isolatedDatabase } from './support/isolated-database';

const P = crypto.randomUUID();
let dir: string;
let scratch: Awaited<ReturnType<typeof isolatedDatabase>>;
let database: Database;
let db: DB;
let userId: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-pg-state-'));
  scratch = await isolatedDatabase({ postgres: true });
  database = await openDatabase({ databaseUrl: scratch.url, dataDir: dir, poolSize: 1 });
  db = database.db;
  await db.insert(projects).values({ id: P, displayName: 'Connection state', config: {} });
  [{ id: userId }] = await db.insert(usersTable).values({ projectId: P, displayName: 'exists' }).returning({ id: usersTable.id }) as [{ id: string }];
}, 60_000);

/** The error a statement ends with (drizzle's, with the driver's as `cause`), or null when it answers. */
const failure = (q: PromiseLike<unknown>) => Promise.resolve(q).then(() => null, (err: Error) => err);

afterAll(async () => {
  await database?.close();
  await scratch?.drop();
  rmSync(dir, { recursive: true, force: true });
});

test('a statement that fails after its first row: the next read on the connection gets its own rows', async () => {
  // Row 1 (1 / 1) is sent before row 2 divides by zero.
  const err = await failure(db.execute(sql`select 1 / (2 - g) as v from generate_series(1, 2) g`));
  expect((err?.cause as Error | undefined)?.message).toBe('division by zero');
  const row = await users.load(db, P, userId);
  expect(row?.id).toBe(userId);
  expect(row?.display_name).toBe('exists');
  // Several rows, none of them holes.
  const listed = rowsOf<{ g: number }>(await db.execute(sql`select g from generate_series(1, 3) g`));
  expect(listed.length).toBe(3);
  expect(listed.map((r) => r?.g)).toEqual([1, 2, 3]);
});

test('a connection the server ends in the middle of a result (as a restart does): the first read on the new connection gets its own row', async () => {
  const { default: postgres } = await import('postgres');
  const admin = postgres(scratch.url!, { max: 1, onnotice: () => {} });
  try {
    // Row 1 is larger than the server's send buffer, so it reaches the client before row 2 sleeps.
    const cut = failure(db.execute(sql`select repeat('x', 65536) as filler, pg_sleep(case when g = 2 then 30 else 0 end) from generate_series(1, 2) g`));
    let pid: number | undefined;
    for (let i = 0; i < 200 && pid === undefined; i++) {
      const [r] = await admin<{ pid: number }[]>`select pid from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and wait_event = 'PgSleep'`;
      pid = r?.pid;
      if (pid === undefined) await Bun.sleep(25);
    }
    expect(pid).toBeDefined();
    await admin`select pg_terminate_backend(${pid!})`;
    expect(isDatabaseUnavailable(await cut)).toBe(true);
    // The first statement opens a new connection: the error and the row count of the old one are not its own.
    const row = await users.load(db, P, userId);
    expect(row?.id).toBe(userId);
    expect((await users.load(db, P, userId))?.id).toBe(userId);
  } finally {
    await admin.end();
  }
});
