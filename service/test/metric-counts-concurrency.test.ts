// Concurrent sign-ups of one project must not queue on its counters (drizzle/0031): a new user's counters are bumped
// as its transaction commits, so a transaction that has inserted a user and goes on writing holds no counter lock
// another project member's sign-up waits for. PostgreSQL only (the embedded database has one connection).
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../src/db/index';
import { openTestDatabase } from './support/pglite-template';
import { isolatedDatabase } from './support/isolated-database';

let database: Database;
let scratch: Awaited<ReturnType<typeof isolatedDatabase>>;
const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-counts-concurrency-'));
const project = crypto.randomUUID();

beforeAll(async () => {
  scratch = await isolatedDatabase({ postgres: true });
  database = await openTestDatabase({ databaseUrl: scratch.url, dataDir });
  await database.db.execute(sql`insert into projects (id, display_name, config) values (${project}, 'Counts', '{}'::jsonb)`);
}, 300_000);

afterAll(async () => {
  await database?.close();
  await scratch?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const insertUser = () => sql`insert into users (project_id, is_anonymous, password_hash) values (${project}, false, 'argon2-hash-placeholder')`;

test('a sign-up commits while another sign-up of the project is still in its transaction; both are counted', async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => { release = resolve; });
  let inserted!: () => void;
  const firstInserted = new Promise<void>((resolve) => { inserted = resolve; });
  // The first sign-up inserts its user, then stays in its transaction (its further writes, the service's round trips).
  const first = database.db.transaction(async (tx) => {
    await tx.execute(insertUser());
    inserted();
    await released;
  });
  await firstInserted;
  const second = database.db.execute(insertUser()).then(() => 'committed' as const);
  const outcome = await Promise.race([second, Bun.sleep(5_000).then(() => 'waited for the first' as const)]);
  release();
  await first;
  await second;
  expect(outcome).toBe('committed');
  const [row] = rowsOf<{ users: number; password: number }>(await database.db.execute(sql`
    select (select n from metric_counts where project_id = ${project} and metric = 'users') as users,
           (select n from metric_counts where project_id = ${project} and metric = 'method' and key = 'password') as password`));
  expect([Number(row!.users), Number(row!.password)]).toEqual([2, 2]);
}, 60_000);
