// The memory the user rows kept on PostgreSQL take (issue 31, repo/users.ts userRowCache): N users of one project,
// each with an email and a display name, a small client metadata object and a selected team (what the client view
// reads), are loaded through `users.load` into the cache on a fresh database; the JS heap is measured after a full
// collection before and after. Prints bytes per kept row, and the cache at its size limit.
// `bun bench/user-cache-memory.ts` (BENCH_KEPT_USERS users in the database, default 10000; BENCH_LOADED_USERS of them
// loaded, spread over the table, default all; PGHOST/PGPORT/PGUSER as bench/run.sh). With 1,000,000 users and
// 100,000 loaded, the cache is at its size limit and the figure is its memory among a million users.
import postgres from 'postgres';
import { heapStats } from 'bun:jsc';
import { openDatabase } from '../service/src/db';
import * as users from '../service/src/repo/users';

const n = Number(process.env.BENCH_KEPT_USERS ?? 10_000);
const loaded = Math.min(n, Number(process.env.BENCH_LOADED_USERS ?? n));
const base = `postgres://${process.env.PGUSER ?? 'postgres'}@${process.env.PGHOST ?? '127.0.0.1'}:${process.env.PGPORT ?? 5432}`;
const dbName = `gatehouse_bench_memory_${process.pid}`;
const admin = postgres(`${base}/postgres`, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${dbName}`);
try {
  const database = await openDatabase({ databaseUrl: `${base}/${dbName}`, dataDir: '/nonexistent' });
  const sql = postgres(`${base}/${dbName}`, { max: 1, onnotice: () => {} });
  await sql`insert into projects (id, display_name, config) values ('p', 'Memory', '{}')`;
  // The rows are seeded without their triggers (metric counters, change notices): this measures the cache only.
  await sql`set session_replication_role = replica`;
  const [team] = await sql`insert into teams (project_id, display_name, client_metadata) values ('p', 'A team of this size', '{"tier": "gold"}') returning id`;
  const ids = (await sql`insert into users (project_id, display_name, primary_email, primary_email_verified, client_metadata, selected_team_id)
    select 'p', 'User number ' || g, 'user' || g || '@example.com', true, jsonb_build_object('theme', 'dark', 'n', g), ${team.id}::uuid
    from generate_series(1, ${n}) g returning id`).map((r) => r.id as string);
  await sql.end();
  database.changeNotices!.connected();
  const measure = () => { Bun.gc(true); return heapStats().heapSize; };
  // Rows loaded once without keeping them (a transaction's handle keeps nothing): the driver's and the JIT's own
  // allocations are in the "before" figure.
  await database.db.transaction(async (tx) => { for (const id of ids.slice(0, 200)) await users.load(tx, 'p', id); });
  const before = measure();
  const step = n / loaded;
  for (let i = 0; i < loaded; i++) await users.load(database.db, 'p', ids[Math.floor(i * step)]!);
  const kept = users.userRowCache.size(database.db);
  const after = measure();
  const perRow = (after - before) / kept;
  const limit = users.USER_ROWS_KEPT;
  console.log(`${n} users, ${loaded} loaded; kept ${kept} rows: ${((after - before) / 2 ** 20).toFixed(1)} MiB of JS heap, ${Math.round(perRow)} bytes per row`);
  console.log(`resident memory of this process: ${(Number(/^VmRSS:\s+(\d+) kB/m.exec(await Bun.file('/proc/self/status').text())![1]) / 1024).toFixed(0)} MiB`);
  console.log(`at the size limit (${limit} rows): ${((perRow * limit) / 2 ** 20).toFixed(0)} MiB; all of 1,000,000 users, were there no limit: ${((perRow * 1e6) / 2 ** 30).toFixed(2)} GiB`);
  await database.close();
} finally {
  await admin.unsafe(`drop database if exists ${dbName} with (force)`);
  await admin.end();
}
