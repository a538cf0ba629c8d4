// Where the time of `DELETE /users/{id}` goes on a seeded scale database (issue 16 §1: the delete grew ×1.6 from 10k
// to 1M users while its statements take under 2 ms). Usage, on a database kept by `npm run bench:scale`
// (GATEHOUSE_BENCH_KEEP_DB=1 GATEHOUSE_BENCH_DB=<name>), under `flock /tmp/bench.lock` for figures to report:
//   bun bench/scale-delete-probe.ts <database url> [deletes per condition (default 30)] [1: CHECKPOINT first]
//     [wal_compression for its sessions, e.g. lz4 (a superuser setting: the connection must be a superuser's)]
// It runs the route's own calls (repo/users.ts removeWithTeams, the webhook events, COMMIT, the revoked-session
// sync) on random seeded users, timing each phase, and reads each delete's own WAL records back with pg_walinspect
// (by its transaction id, so other databases' writes are left out): records, full-page images and of which
// relations, bytes. Three conditions, interleaved, so load and checkpoints fall on all three alike:
// - cold: nothing done to the user before;
// - read: the user's rows read just before (their pages are in shared_buffers; a write to them still logs a
//   full-page image if it is the first since the last checkpoint);
// - touched: the user's rows locked FOR UPDATE just before, in a committed transaction (the pages are in
//   shared_buffers and already written since the checkpoint, so the delete logs no image of them).
// read − touched is what the full-page images cost the delete; cold − read what reading the pages costs.
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import { sql as sql_ } from 'drizzle-orm';
import * as schema from '../service/src/db/schema';
import type { DB } from '../service/src/db';
import * as users from '../service/src/repo/users';
import { Events } from '../service/src/events';
import { RevokedSessions } from '../service/src/auth/revoked-sessions';

const url = process.argv[2];
const N = Number(process.argv[3] ?? 30);
const checkpointFirst = process.argv[4] === '1';
const walCompression = process.argv[5];
const sql = postgres(url, { max: 2, onnotice: () => {}, connection: { stats_fetch_consistency: 'none', ...(walCompression ? { wal_compression: walCompression } : {}) } });
const marks: [string, number][] = [];
const db = drizzle(sql, { schema, logger: { logQuery: (q: string) => marks.push([q.slice(0, 40), performance.now()]) } }) as unknown as DB;
const [{ project_id: p, n }] = await sql`select project_id, count(*)::int as n from users group by 1 order by 2 desc limit 1`;
// Seeded ids are md5('<project>:u:<i>'); a random index may be gone already (deleted by the bench): skip those.
const victims = async (count: number) => (await sql`select distinct u.id from generate_series(1, ${count * 3}) g,
    lateral (select md5(${p} || ':u:' || (1 + floor(random() * ${n}) + 0 * g)::int)::uuid as id) r join users u on u.id = r.id limit ${count}`).map((r) => r.id as string);
const events = new Events({ wake() {} } as never);
const revoked = new RevokedSessions(db, 3600);
await revoked.sync(true);
// Backends report their WAL counters at most once a second.
const walStats = async () => (await Bun.sleep(1100), await sql`select wal_records::bigint as records, wal_fpi::bigint as fpi, wal_bytes::bigint as bytes from pg_stat_wal`)[0];

await sql`create extension if not exists pg_walinspect`;
if (checkpointFirst) await sql`checkpoint`;
type Cond = 'cold' | 'read' | 'touched';
const CONDS: Cond[] = ['cold', 'read', 'touched'];
const phases: Record<string, Record<string, number[]>> = { cold: {}, read: {}, touched: {} };
const walOf: Record<string, { records: number; fpi: number; bytes: number; fpiByRel: Record<string, number> }> = {};
for (const c of CONDS) walOf[c] = { records: 0, fpi: 0, bytes: 0, fpiByRel: {} };
const OWNED = ['users where id', 'sessions where user_id', 'contact_channels where user_id', 'user_activity_days where user_id',
  'user_countries where user_id', 'team_members where user_id'];
const wal0 = await walStats();
const ids = await victims(N * 3);
for (const [k, id] of ids.entries()) {
  const cond = CONDS[k % 3];
  if (cond === 'read') for (const t of OWNED) await sql.unsafe(`select * from ${t} = $1`, [id]);
  if (cond === 'touched') await sql.begin(async (tx) => { for (const t of OWNED) await tx.unsafe(`select 1 from ${t} = $1 for update`, [id]); });
  const [{ lsn: lsn0 }] = await sql`select pg_current_wal_flush_lsn() as lsn`;
  marks.length = 0;
  let t0 = 0, tCb = 0, xid = '';
  await db.transaction(async (tx) => {
    // The transaction id first (untimed), so the WAL records of this delete can be told from others'.
    xid = (await tx.execute(sql_`select txid_current()::text as x`) as unknown as { x: string }[])[0].x;
    t0 = performance.now();
    const teamIds = await users.removeWithTeams(tx, p, id);
    marks.push(['(delete done)', performance.now()]);
    for (const t of teamIds ?? []) await events.emit(tx, p, 'team_membership.deleted', { team_id: t, user_id: id });
    await events.emit(tx, p, 'user.deleted', { id, teams: (teamIds ?? []).map((t) => ({ id: t })) });
    tCb = performance.now();
  });
  const tCommit = performance.now();
  await revoked.sync();
  const tEnd = performance.now();
  const at = (re: RegExp) => marks.find(([q]) => re.test(q))![1];
  const tMembers = at(/^delete from "team_members"/), tUsers = at(/^delete from "users"/), tDone = at(/^\(delete done\)/);
  const add = (name: string, v: number) => (phases[cond][name] ??= []).push(v);
  add('lock', tMembers - t0);
  add('memberships', tUsers - tMembers);
  add('delete + cascades + triggers', tDone - tUsers);
  add('events', tCb - tDone);
  add('commit', tCommit - tCb);
  add('revoked sync', tEnd - tCommit);
  add('total (BEGIN excluded)', tEnd - t0);
  const [{ lsn: lsn1 }] = await sql`select pg_current_wal_flush_lsn() as lsn`;
  const w = walOf[cond];
  for (const r of await sql`select record_length, fpi_length, block_ref from pg_get_wal_records_info(${lsn0}, ${lsn1}) where xid::text = ${xid}`) {
    w.records++; w.bytes += r.record_length;
    for (const m of String(r.block_ref ?? '').matchAll(/rel \d+\/\d+\/(\d+)[^,]*?FPW/g)) { w.fpi++; w.fpiByRel[m[1]] = (w.fpiByRel[m[1]] ?? 0) + 1; }
  }
}
const wal1 = await walStats();
const names = Object.fromEntries((await sql`select pg_relation_filenode(oid)::text as f, relname from pg_class where pg_relation_filenode(oid) is not null`).map((r) => [r.f, r.relname]));
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = (await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ');
// The minimum as well as the median: on a busy machine the fastest of N is the closest to the uncontended cost.
console.log(`${n} users, ${N} deletes per condition${checkpointFirst ? ', CHECKPOINT first' : ''}${walCompression ? `, wal_compression=${walCompression}` : ''}, load ${load}; ms per phase, median / minimum:`);
console.log(`  ${'phase'.padEnd(30)} ${CONDS.map((c) => c.padStart(13)).join(' ')}`);
for (const name of Object.keys(phases.cold)) {
  console.log(`  ${name.padEnd(30)} ${CONDS.map((c) => `${med(phases[c][name]).toFixed(2)} / ${Math.min(...phases[c][name]).toFixed(2)}`.padStart(13)).join(' ')}`);
}
for (const c of CONDS) {
  const w = walOf[c], per = (x: number) => (x / N).toFixed(1);
  console.log(`  WAL per delete, ${c}: ${per(w.records)} records, ${per(w.fpi)} full-page images, ${per(w.bytes)} bytes; images by relation: `
    + Object.entries(w.fpiByRel).sort((a, b) => b[1] - a[1]).map(([f, v]) => `${names[f] ?? f} ${per(v)}`).join(', '));
}
console.log(`  pg_stat_wal over the run (whole cluster, others' writes included): ${wal1.records - wal0.records} records, ${wal1.fpi - wal0.fpi} FPI`);
await sql.end();
process.exit(0);
