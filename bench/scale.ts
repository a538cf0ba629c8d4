// `npm run bench:scale`: Gatehouse on PostgreSQL at growing numbers of users in one project (issue 16 §1).
// Sizes: GATEHOUSE_BENCH_SIZES (default 10000,100000,1000000), seeded in order into one project by set-based SQL
// (bench/scale-seed.ts), VACUUM ANALYZE after each step. At each size, in this one run, sequential requests measure
// p50/p99 of the hot requests; each figure is printed with its ratio to the first size. Users that sign in are created
// through the API (their hashes are the service's own). EXPLAIN (ANALYZE, BUFFERS) of every hot query at the largest
// size goes to GATEHOUSE_BENCH_EXPLAIN (default bench/results/scale-explain.txt); the table to bench/results/scale.md.
// The deletes are measured as they come and again after a CHECKPOINT (the whole server's: run the bench under the
// bench lock), with the full-page images they logged (bench/scale-delete-probe.ts takes a delete apart).
// Knobs: GATEHOUSE_BENCH_REQUESTS (200 per request kind), PGHOST/PGPORT/PGUSER, GATEHOUSE_BENCH_DB (the database's
// name), GATEHOUSE_BENCH_CONSOLE=1 to time the console's Users and Metrics screens in Chromium at each size too
// (bench/scale-console.ts).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import * as schema from '../service/src/db/schema';
import type { DB } from '../service/src/db';
import { personOf, seedRows, seedUsers } from './scale-seed';
import { queryRecorder, runHotQueries } from '../service/test/support/hot-queries';
import { openConsoleScaleRun, type ConsoleScaleRun, type ConsoleTiming } from './scale-console';

const SIZES = (process.env.GATEHOUSE_BENCH_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const REQUESTS = Number(process.env.GATEHOUSE_BENCH_REQUESTS ?? 200);
const EXPLAIN_OUT = process.env.GATEHOUSE_BENCH_EXPLAIN ?? 'bench/results/scale-explain.txt';
const PG = `postgres://${process.env.PGUSER ?? 'postgres'}@${process.env.PGHOST ?? '127.0.0.1'}:${process.env.PGPORT ?? 5432}`;
const DB_NAME = process.env.GATEHOUSE_BENCH_DB ?? 'gatehouse_bench_scale';
const DB_URL = `${PG}/${DB_NAME}`;
const PASSWORD = 'scale-bench-password-1';
const CONSOLE = process.env.GATEHOUSE_BENCH_CONSOLE === '1';
const log = (s: string) => console.error(`\x1b[1m[scale]\x1b[0m ${s}`);
const secs = (t0: number) => (performance.now() - t0) / 1000;

const admin = postgres(`${PG}/postgres`, { max: 1, onnotice: () => {} });
await admin.unsafe(`drop database if exists ${DB_NAME} with (force)`);
await admin.unsafe(`create database ${DB_NAME}`);

// The console is served by the service from its build.
if (CONSOLE && spawnSync('node', ['scripts/build-ui.mjs'], { stdio: 'inherit' }).status !== 0) throw new Error('front-end build failed');

const port = 20000 + Math.floor(Math.random() * 20000);
const service = Bun.spawn([process.execPath, 'service/src/main.ts'], {
  env: {
    ...process.env, NODE_ENV: 'production', PORT: String(port), DATABASE_URL: DB_URL, GATEHOUSE_ACCESS_TOKEN_LIFETIME_SECONDS: '3600',
    GATEHOUSE_PROJECT_CREATION: 'open', GATEHOUSE_OWNER_MFA_REQUIRED: 'false',
    GATEHOUSE_SERVER_SECRET: process.env.GATEHOUSE_SERVER_SECRET ?? Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64'),
    // Every request comes from 127.0.0.1: raise the sign-in limits (the checks still run).
    GATEHOUSE_RATE_LIMITS: 'sign_in_ip=1000000/600,sign_in_account=1000000/600',
  },
  stdout: 'pipe', stderr: 'pipe',
});
let output = '';
void (async () => { for await (const c of service.stdout) output += new TextDecoder().decode(c); })();
void (async () => { for await (const c of service.stderr) output += new TextDecoder().decode(c); })();
const sql = postgres(DB_URL, { max: 2, onnotice: () => {} });
let exitCode = 0;
let consoleRun: ConsoleScaleRun | undefined;
try {
  for (let t = Date.now(); !/secret server key: *(\S+)/.test(output); await Bun.sleep(100)) {
    if (service.exitCode !== null || Date.now() - t > 300_000) throw new Error(`service did not start:\n${output}`);
  }
  const ssk = /secret server key: *(\S+)/.exec(output)![1];
  const pckInternal = /publishable client key: *(\S+)/.exec(output)![1];
  const base = `http://127.0.0.1:${port}/api/v1`;

  const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} -> ${res.status}: ${text}`);
    return JSON.parse(text);
  };
  const internalServer = { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'server', 'x-stack-secret-server-key': ssk };
  const owner = await call('POST', '/users', internalServer, { primary_email: `owner-${Date.now()}@bench.local`, primary_email_auth_enabled: true, password: PASSWORD });
  const ownerSession = await call('POST', '/auth/sessions', internalServer, { user_id: owner.id });
  const project = await call('POST', '/internal/projects', {
    'x-stack-project-id': 'internal', 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': pckInternal, 'x-stack-access-token': ownerSession.access_token,
  }, { display_name: 'Scale bench' });
  const p: string = project.id;
  const adminH = { 'x-stack-project-id': p, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': ownerSession.access_token };
  const keys = await call('POST', '/internal/api-keys', adminH, { description: 'bench', expires_at_millis: Date.now() + 86_400_000, has_publishable_client_key: true, has_secret_server_key: true, has_super_secret_admin_key: false });
  const server = { 'x-stack-project-id': p, 'x-stack-access-type': 'server', 'x-stack-secret-server-key': keys.secret_server_key };
  if (CONSOLE) consoleRun = await openConsoleScaleRun(`http://127.0.0.1:${port}`, { email: owner.primary_email, password: PASSWORD, internalKey: pckInternal });
  const client = { 'x-stack-project-id': p, 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': keys.publishable_client_key };

  // Users that sign in: created through the API, so their argon2id hashes are the service's own.
  const signInEmails: string[] = [];
  for (let k = 0; k < 10; k++) {
    const email = `signin${k}@bench.local`;
    await call('POST', '/users', server, { primary_email: email, primary_email_auth_enabled: true, password: PASSWORD, display_name: `Sign In ${k}` });
    signInEmails.push(email);
  }
  // The seeded users' hash (60% have one; they never sign in): one real hash with the service's parameters.
  const seedHash = await Bun.password.hash('seeded-user-password', { algorithm: 'argon2id', memoryCost: 19456, timeCost: 2 });

  type Row = { size: number; name: string; p50: number; p99: number; n: number };
  const rows: Row[] = [];
  const consoleRows: (ConsoleTiming & { size: number })[] = [];
  const seedTimes: { size: number; insert: number; trgmBuild: number; counts: number; vacuum: number }[] = [];
  const deleted = new Set<number>();
  // pg_walinspect (a contrib extension of PostgreSQL 15) counts the full-page images of the deletes; without it, they are not reported.
  const walinspect = await sql`create extension if not exists pg_walinspect`.then(() => true, () => false);
  const [{ oid: dbOid }] = await sql`select oid::text from pg_database where datname = current_database()`;
  const deleteWal: { size: number; name: string; fpi: number; kib: number }[] = [];
  const writeCost = { with: 0, without: 0 };
  let seeded = 0;
  const pick = (n: number, count: number, taken: Set<number>) => {
    const out: number[] = [];
    while (out.length < count) { const i = 1 + Math.floor(Math.random() * n); if (!taken.has(i) && !out.includes(i)) out.push(i); }
    return out;
  };
  // Runs `fn` in a transaction that is rolled back (what it wrote is undone), and returns its result.
  const rolledBack = async <T>(fn: (tx: postgres.TransactionSql) => Promise<T>): Promise<T> => {
    let result: T;
    const undo = new Error('rollback');
    await sql.begin(async (tx) => { result = await fn(tx); throw undo; }).catch((e) => { if (e !== undo) throw e; });
    return result!;
  };
  const idOf = async (i: number) => (await sql`select md5(${`${p}:u:${i}`})::uuid as id`)[0].id as string;

  async function measure(size: number, name: string, count: number, request: (k: number) => Promise<Response>) {
    // Warm-up calls get indices past the measured ones (a delete needs users of its own for them).
    for (let k = 0; k < 10; k++) await (await request(count + k)).arrayBuffer();
    const times: number[] = [];
    for (let k = 0; k < count; k++) {
      const t0 = performance.now();
      const res = await request(k);
      const body = await res.text();
      times.push(performance.now() - t0);
      if (!res.ok) throw new Error(`${name}: ${res.status} ${body.slice(0, 300)}`);
    }
    times.sort((a, b) => a - b);
    const q = (f: number) => times[Math.min(times.length - 1, Math.ceil(f * times.length) - 1)];
    rows.push({ size, name, p50: q(0.5), p99: q(0.99), n: count });
    log(`${size}: ${name}: p50 ${q(0.5).toFixed(2)} ms, p99 ${q(0.99).toFixed(2)} ms (${count})`);
  }

  for (const size of SIZES) {
    log(`seeding users ${seeded + 1}..${size}`);
    // A large load drops the trigram indexes and builds them after (as an operator's bulk import would): a GIN index
    // built once is faster and smaller than one grown row by row. The build time is reported on its own.
    const bulk = size - seeded > 50_000;
    if (bulk) await sql.unsafe(`drop index users_display_name_trgm_idx; drop index contact_channels_value_trgm_idx`);
    let t0 = performance.now();
    for (let from = seeded; from < size; from += 100_000) await seedUsers(sql, p, from, Math.min(size, from + 100_000), seedHash);
    const insert = secs(t0);
    t0 = performance.now();
    if (bulk) {
      await sql.begin(async (tx) => {
        await tx.unsafe(`set local maintenance_work_mem = '256MB'`);
        await tx.unsafe(`create index users_display_name_trgm_idx on users using gin (display_name gin_trgm_ops)`);
        await tx.unsafe(`create index contact_channels_value_trgm_idx on contact_channels using gin (value gin_trgm_ops)`);
      });
    }
    const trgmBuild = bulk ? secs(t0) : 0;
    t0 = performance.now();
    await sql`select gatehouse_rebuild_metric_counts()`;
    const counts = secs(t0);
    t0 = performance.now();
    await sql.unsafe('vacuum analyze');
    const vacuum = secs(t0);
    seedTimes.push({ size, insert, trgmBuild, counts, vacuum });
    log(`${size}: insert ${insert.toFixed(1)} s, trigram index build ${trgmBuild.toFixed(1)} s, counters ${counts.toFixed(1)} s, vacuum analyze ${vacuum.toFixed(1)} s`);
    // The summary columns written by the seed must be what the triggers' own function computes.
    const sample = await sql`select id, primary_email, primary_email_verified, primary_email_auth_enabled, has_passkey, oauth_providers, selected_team_id
      from users where project_id = ${p} and id in (select md5(${p} || ':u:' || g)::uuid from generate_series(${seeded + 1}::int, ${size}::int, ${Math.max(1, Math.floor((size - seeded) / 50))}::int) g) order by id`;
    const after = await rolledBack(async (tx) => {
      for (const r of sample) await tx`select gatehouse_refresh_user_summary(${r.id})`;
      return tx`select id, primary_email, primary_email_verified, primary_email_auth_enabled, has_passkey, oauth_providers, selected_team_id
        from users where id in ${tx(sample.map((r) => r.id))} order by id`;
    });
    if (JSON.stringify(after) !== JSON.stringify(sample)) throw new Error('seeded summary columns differ from gatehouse_refresh_user_summary');
    seeded = size;
    if (size === SIZES[0]) {
      // What the trigram indexes cost a write: the same 5,000 users (with their channels, sessions...) inserted with
      // and without them, each in a transaction that is rolled back.
      const batch = async (tx: postgres.TransactionSql, from: number) => { const t = performance.now(); await seedRows(tx, p, from, from + 5000, seedHash); return secs(t); };
      writeCost.with = await rolledBack((tx) => batch(tx, 50_000_000));
      writeCost.without = await rolledBack(async (tx) => {
        await tx.unsafe(`drop index users_display_name_trgm_idx; drop index contact_channels_value_trgm_idx`);
        return batch(tx, 50_000_000);
      });
      log(`5,000 users inserted in ${writeCost.with.toFixed(2)} s with the trigram indexes, ${writeCost.without.toFixed(2)} s without`);
    }

    const tokenUsers = pick(size, 100, deleted);
    const sessions = [] as { access_token: string; refresh_token: string }[];
    for (const i of tokenUsers) sessions.push(await call('POST', '/auth/sessions', server, { user_id: await idOf(i) }));
    const deep = (await sql`select id from users where project_id = ${p} order by created_at, id offset ${Math.floor(size / 2)} limit 1`)[0].id;
    const teamUsers = pick(Math.floor(size / 5), 20, new Set()).map((k) => k * 5).filter((i) => i <= size);
    const teamIds = await Promise.all(teamUsers.map(async (i) => (await sql`select md5(${`${p}:t:${Math.floor(i / 250)}`})::uuid as id`)[0].id as string));
    const searchUsers = pick(size, 50, deleted);
    const n = REQUESTS;
    await measure(size, 'GET /users/me', n, (k) => fetch(`${base}/users/me`, { headers: { ...client, 'x-stack-access-token': sessions[k % sessions.length].access_token } }));
    await measure(size, 'refresh grant', n, (k) => fetch(`${base}/auth/oauth/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=refresh_token&refresh_token=${sessions[k % sessions.length].refresh_token}&client_id=${p}&client_secret=${keys.publishable_client_key}`,
    }));
    await measure(size, 'password sign-in', 20, (k) => fetch(`${base}/auth/password/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json', ...client }, body: JSON.stringify({ email: signInEmails[k % 10], password: PASSWORD }) }));
    await measure(size, 'GET /users first page', n, () => fetch(`${base}/users?limit=100`, { headers: server }));
    await measure(size, 'GET /users deep page', n, () => fetch(`${base}/users?limit=100&cursor=${deep}`, { headers: server }));
    await measure(size, 'GET /users?query= email fragment', n, (k) => {
      const i = searchUsers[k % searchUsers.length];
      return fetch(`${base}/users?limit=100&query=${encodeURIComponent(personOf(i).email.split('@')[0].split('.').slice(1).join('.'))}`, { headers: server });
    });
    await measure(size, 'GET /users?query= name fragment', n, (k) => fetch(`${base}/users?limit=100&query=${encodeURIComponent(personOf(searchUsers[k % searchUsers.length]).name)}`, { headers: server }));
    await measure(size, 'GET /users?team_id= members', n, (k) => fetch(`${base}/users?limit=100&team_id=${teamIds[k % teamIds.length]}`, { headers: server }));
    await measure(size, 'GET /team-member-profiles?team_id=', n, (k) => fetch(`${base}/team-member-profiles?team_id=${teamIds[k % teamIds.length]}`, { headers: server }));
    await measure(size, 'GET /internal/metrics', n, () => fetch(`${base}/internal/metrics`, { headers: adminH }));
    // A delete writes pages of users, contact_channels, sessions..., and the first write to a page after a checkpoint
    // logs the whole page to the WAL (a full-page image, bench/scale-delete-probe.ts). Among a million users a random
    // user's pages have almost never been written since the last checkpoint; at 10,000 they may all have been written
    // by the seed a minute before, if no checkpoint fell in between. So the deletes are measured twice: as they come
    // (whatever checkpoint state the run is in), then right after a CHECKPOINT, the same state at every size (that of
    // a table whose pages are not all rewritten between two checkpoints). The images each delete logged are counted
    // from the WAL records of this database (pg_walinspect).
    for (const [name, checkpoint] of [['DELETE /users/{id}', false], ['DELETE /users/{id} after CHECKPOINT', true]] as const) {
      const victims = pick(size, 40, new Set([...deleted, ...tokenUsers, ...searchUsers]));
      const victimIds = await Promise.all(victims.map(idOf));
      victims.forEach((i) => deleted.add(i));
      if (checkpoint) await sql`checkpoint`;
      const [{ lsn: walFrom }] = await sql`select pg_current_wal_insert_lsn() as lsn`;
      await measure(size, name, 30, (k) => fetch(`${base}/users/${victimIds[k]}`, { method: 'DELETE', headers: server }));
      if (!walinspect) continue;
      const [w] = await sql`select coalesce(sum((length(block_ref) - length(replace(block_ref, 'FPW', ''))) / 3), 0)::int as fpi,
          coalesce(sum(record_length), 0)::bigint as bytes
        from pg_get_wal_records_info(${walFrom}, pg_current_wal_flush_lsn()) where block_ref like ${`%/${dbOid}/%`}`;
      // 40 deletes: the 10 warm-up ones and the 30 measured.
      deleteWal.push({ size, name, fpi: w.fpi / 40, kib: Number(w.bytes) / 40 / 1024 });
      log(`${size}: ${name}: WAL of this database per delete: ${(w.fpi / 40).toFixed(1)} full-page images, ${(Number(w.bytes) / 40 / 1024).toFixed(1)} KiB`);
    }

    if (consoleRun) {
      for (const r of await consoleRun.measure(size, { projectName: 'Scale bench', nameFragment: personOf(searchUsers[0]).name })) {
        consoleRows.push({ size, ...r });
        log(`${size}: ${r.name}: median ${r.median.toFixed(0)} ms, max ${r.max.toFixed(0)} ms (${r.n})`);
      }
    }

    if (size === SIZES[SIZES.length - 1]) {
      log(`EXPLAIN (ANALYZE, BUFFERS) of the hot queries at ${size} users`);
      const rec = queryRecorder();
      const explainDb = drizzle(sql, { schema, logger: rec.logger }) as unknown as DB;
      const searchI = searchUsers[0];
      const captured = await runHotQueries(explainDb, rec, {
        projectId: p, userId: await idOf(tokenUsers[0]), refreshToken: sessions[1].refresh_token, email: signInEmails[0], deepCursor: deep,
        emailFragment: personOf(searchI).email.split('@')[0].split('.').slice(1).join('.'), nameFragment: personOf(searchI).name,
        teamId: teamIds[0], deleteUserId: await idOf(pick(size, 1, new Set([...deleted, ...tokenUsers, ...searchUsers]))[0]),
      });
      const parts: string[] = [`# EXPLAIN (ANALYZE, BUFFERS) at ${size} users, ${new Date().toISOString()}, load ${(await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')}\n`];
      for (const q of captured) {
        // A write is explained inside a transaction that is rolled back.
        const plan = await rolledBack((tx) => tx.unsafe(`explain (analyze, buffers) ${q.sql}`, q.params as never[]));
        parts.push(`## ${q.name}\n${q.sql}\n-- params: ${JSON.stringify(q.params)}\n${(plan as unknown as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n')}\n`);
      }
      mkdirSync('bench/results', { recursive: true });
      writeFileSync(EXPLAIN_OUT, parts.join('\n'));
      log(`plans written to ${EXPLAIN_OUT}`);
    }
  }

  // --- report ---
  const first = SIZES[0];
  const names = [...new Set(rows.map((r) => r.name))];
  const at = (size: number, name: string) => rows.find((r) => r.size === size && r.name === name)!;
  const [{ shared_buffers: sharedBuffers }] = await sql`select current_setting('shared_buffers') as shared_buffers`;
  const lines = [
    `Scale run ${new Date().toISOString()}, load average at start of report ${(await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')}, `
      + `PostgreSQL shared_buffers ${sharedBuffers}${process.env.GATEHOUSE_BENCH_SIZED === '1' ? ' (own cluster, bench/scale-own-cluster.sh)' : ''}`,
    '', '| request | ' + SIZES.map((s) => `p50 ms @${s} (×${first})`).join(' | ') + ' | ' + SIZES.map((s) => `p99 ms @${s}`).join(' | ') + ' |',
    '|---|' + SIZES.map(() => '---').join('|') + '|' + SIZES.map(() => '---').join('|') + '|',
    ...names.map((name) => `| ${name} | ` + SIZES.map((s) => `${at(s, name).p50.toFixed(2)} (×${(at(s, name).p50 / at(first, name).p50).toFixed(2)})`).join(' | ')
      + ' | ' + SIZES.map((s) => `${at(s, name).p99.toFixed(2)}${name !== 'password sign-in' && s >= 1_000_000 && at(s, name).p99 > 100 ? ' (over 100 ms)' : ''}`).join(' | ') + ' |'),
    '', '| seed step | ' + SIZES.join(' | ') + ' |', '|---|' + SIZES.map(() => '---').join('|') + '|',
    `| insert (s) | ${seedTimes.map((t) => t.insert.toFixed(1)).join(' | ')} |`,
    `| build the two trigram indexes after a bulk load (s) | ${seedTimes.map((t) => (t.trgmBuild ? t.trgmBuild.toFixed(1) : '-')).join(' | ')} |`,
    `| recount metric counters (s) | ${seedTimes.map((t) => t.counts.toFixed(1)).join(' | ')} |`,
    `| VACUUM ANALYZE (s) | ${seedTimes.map((t) => t.vacuum.toFixed(1)).join(' | ')} |`,
  ];
  if (consoleRows.length) {
    const cat = (size: number, name: string) => consoleRows.find((r) => r.size === size && r.name === name)!;
    lines.push('', `Console in Chromium (1280 px, loopback), median and max of ${consoleRows[0]!.n} per size, ms:`, '',
      '| action | ' + SIZES.map((s) => `@${s}`).join(' | ') + ' |', '|---|' + SIZES.map(() => '---').join('|') + '|',
      ...[...new Set(consoleRows.map((r) => r.name))].map((name) => `| ${name} | ` + SIZES.map((s) => `${cat(s, name).median.toFixed(0)} (max ${cat(s, name).max.toFixed(0)})`).join(' | ') + ' |'));
  }
  const sizes = await sql`select relname, pg_size_pretty(pg_relation_size(oid)) as size, pg_relation_size(oid) as bytes from pg_class
    where relname in ('users', 'contact_channels', 'users_display_name_trgm_idx', 'contact_channels_value_trgm_idx', 'users_pkey', 'users_project_created_idx', 'contact_channels_auth_idx', 'users_project_last_active_idx') order by relname`;
  if (deleteWal.length) {
    lines.push('', 'WAL per delete (records of this database, warm-up deletes included): '
      + deleteWal.map((w) => `${w.name} at ${w.size}: ${w.fpi.toFixed(1)} full-page images, ${w.kib.toFixed(1)} KiB`).join('; ') + '.');
  }
  lines.push('', `Write cost of the trigram indexes: 5,000 users (and their rows) inserted in ${writeCost.with.toFixed(2)} s with them, ${writeCost.without.toFixed(2)} s without (×${(writeCost.with / writeCost.without).toFixed(2)}).`);
  lines.push('', `Relation sizes at ${SIZES[SIZES.length - 1]} users: ` + sizes.map((r) => `${r.relname} ${r.size}`).join(', '));
  console.log(lines.join('\n'));
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/scale.md', lines.join('\n') + '\n');
} catch (e) {
  console.error(e);
  console.error(output.slice(-3000));
  exitCode = 1;
} finally {
  await consoleRun?.close();
  service.kill('SIGTERM');
  await service.exited;
  await sql.end({ timeout: 5 });
  if (process.env.GATEHOUSE_BENCH_KEEP_DB !== '1') await admin.unsafe(`drop database if exists ${DB_NAME} with (force)`);
  await admin.end({ timeout: 5 });
}
process.exit(exitCode);
