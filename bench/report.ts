// Turns the results of bench/run.sh (lines `name<TAB>json`) into a markdown table with pass/fail per target
// of issues 2 and 16 (and, with BENCH_PEERS=1, Gatehouse beside Better Auth), prints it and writes it to the given file.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

interface R { requests: number; rps: number; p50_ms: number; p99_ms: number; max_ms: number; non2xx: number; errors: number; peak_rss_kib?: number; peak_connections?: number; concurrency?: number; cpu_us_per_op?: number; cpu_ticks?: number; pool_ticks?: number; pg_ticks?: number; clk_tck?: number }
const [input, output] = process.argv.slice(2);
const results = new Map<string, R>();
for (const line of readFileSync(input!, 'utf8').split('\n')) {
  const tab = line.indexOf('\t');
  if (tab > 0) results.set(line.slice(0, tab), JSON.parse(line.slice(tab + 1)));
}

const dbCeiling = results.get('ceiling-db')?.rps ?? NaN;
/** The DB ceiling measured right before this workload (falls back to the first one). */
const ceilingFor = (name: string) => results.get(`ceiling-db@${name}`)?.rps ?? dbCeiling;
/** Raw verify throughput around this workload's sign-in run: the mean of the runs before and after it. */
const verifyRuns = (label: string) => [results.get(`${label}:verify`), results.get(`${label}:verify-after`)].filter((r): r is R => !!r);
/** Raw hash throughput around this workload's sign-up run, likewise. */
const hashRuns = (label: string) => [results.get(`${label}:hash`), results.get(`${label}:hash-after`)].filter((r): r is R => !!r);
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const verifyOf = (name: string) => mean(verifyRuns(name.split(':')[0]!).map((r) => r.rps));
const hashOf = (name: string) => mean(hashRuns(name.split(':')[0]!).map((r) => r.rps));
/** The raw figure a workload is compared with: hash for sign-up, verify for sign-in. */
const rawOf = (name: string) => (name.endsWith(':sign-up') ? hashOf(name) : verifyOf(name));
const isRaw = (name: string) => /:(verify|verify-after|hash|hash-after)$/.test(name);
const perRequestUs = (ticks: number | undefined, r?: R) => (ticks !== undefined && r?.clk_tck && r.requests ? (ticks / r.clk_tck / r.requests) * 1e6 : NaN);
const cpuPerRequestUs = (r?: R) => perRequestUs(r?.cpu_ticks, r);
/** Server CPU per request outside the threads that hash (Bun's work pool): what competes with the hashing. */
const besideHashUs = (r?: R) => (r?.pool_ticks !== undefined ? perRequestUs(r.cpu_ticks! - r.pool_ticks, r) : NaN);
/** CPU of the PostgreSQL backends of the server's database per request (on the same two cores). */
const pgUs = (r?: R) => perRequestUs(r?.pg_ticks, r);
const conns = process.env.BENCH_CONNECTIONS ?? '64';
const f0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '–');
const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2)) + ' ms';
const mib = (kib?: number) => (kib ? `${(kib / 1024).toFixed(0)} MiB` : '–');

const labels: Record<string, string> = {
  'ceiling-static': 'ceiling: Bun static JSON',
  'ceiling-db': 'ceiling: Bun + postgres.js PK SELECT (pool 16, prepared)',
  'ceiling-db@postgres:users-me': '… DB ceiling again, right before the next row',
  'ceiling-db@postgres:refresh': '… DB ceiling again, right before the next row',
  'ceiling-db@pglite:users-me': '… DB ceiling again, right before the next row',
  'ceiling-db@pglite:refresh': '… DB ceiling again, right before the next row',
  'postgres:verify': 'raw `Bun.password.verify` (argon2id m=19456 t=2), before the Postgres sign-in run',
  'postgres:verify-after': 'raw `Bun.password.verify`, after the Postgres sign-in run',
  'pglite:verify': 'raw `Bun.password.verify` (argon2id m=19456 t=2), before the PGlite sign-in run',
  'pglite:verify-after': 'raw `Bun.password.verify`, after the PGlite sign-in run',
  'postgres:hash': 'raw `Bun.password.hash` (argon2id m=19456 t=2), before the Postgres sign-up run',
  'postgres:hash-after': 'raw `Bun.password.hash`, after the Postgres sign-up run',
  'pglite:hash': 'raw `Bun.password.hash` (argon2id m=19456 t=2), before the PGlite sign-up run',
  'pglite:hash-after': 'raw `Bun.password.hash`, after the PGlite sign-up run',
  'postgres:sign-up': 'Postgres · password sign-up',
  'pglite:sign-up': 'PGlite · password sign-up',
  'better-auth:verify': 'raw `Bun.password.verify`, before Better Auth\'s sign-in run',
  'better-auth:verify-after': 'raw `Bun.password.verify`, after Better Auth\'s sign-in run',
  'better-auth:sign-in': 'Better Auth (same Postgres, same argon2id) · email sign-in',
  'better-auth:hash': 'raw `Bun.password.hash`, before Better Auth\'s sign-up run',
  'better-auth:hash-after': 'raw `Bun.password.hash`, after Better Auth\'s sign-up run',
  'better-auth:sign-up': 'Better Auth (same Postgres, same argon2id) · email sign-up',
  'postgres:users-me': 'Postgres · `GET /users/me`',
  'postgres:refresh': 'Postgres · refresh grant',
  'postgres:sign-in': 'Postgres · password sign-in',
  'postgres:sign-in-500': 'Postgres · password sign-in, 500 in flight (for the RSS; few finish in the window)',
  'pglite:users-me': 'PGlite · `GET /users/me`',
  'pglite:refresh': 'PGlite · refresh grant',
  'pglite:sign-in': 'PGlite · password sign-in',
  'pglite:sign-in-500': 'PGlite · password sign-in, 500 in flight (for the RSS; few finish in the window)',
};

const rows = [
  `| workload | connections | requests/s | p50 | p99 | × DB ceiling | × raw hash | server CPU/request | … beside the hash · Postgres | peak RSS | failed |`,
  `|---|---|---|---|---|---|---|---|---|---|---|`,
];
const us = (n: number) => (Number.isFinite(n) ? `${f0(n)} µs` : '–');
const besides = (r: R) => (r.pool_ticks !== undefined && r.requests ? `${us(besideHashUs(r))} · ${us(pgUs(r))}` : '');
for (const [name, r] of results) {
  const isVerify = isRaw(name);
  const isCeiling = name.startsWith('ceiling');
  const conc = isVerify ? `${r.concurrency} (concurrency)` : name.endsWith('-500') ? '500' : conns;
  const signIn = name.includes('sign-in') || name.endsWith(':sign-up') || isVerify;
  const failed = r.non2xx + r.errors;
  const cpu = r.cpu_ticks !== undefined && r.clk_tck && r.requests ? `${f0((r.cpu_ticks / r.clk_tck / r.requests) * 1e6)} µs`
    : r.cpu_us_per_op ? `${f0(r.cpu_us_per_op)} µs` : '';
  const lat = (v: number) => (r.requests ? ms(v) : '–');
  rows.push(`| ${labels[name] ?? name} | ${r.peak_connections !== undefined ? `${conc} (${r.peak_connections} seen)` : conc} | ${f0(r.rps)} | ${lat(r.p50_ms)} | ${lat(r.p99_ms)} | ${isCeiling || signIn ? '' : f2(r.rps / ceilingFor(name))} | ${isVerify ? '' : signIn ? f2(r.rps / rawOf(name)) : ''} | ${cpu} | ${besides(r)} | ${mib(r.peak_rss_kib)} | ${failed ? `**${failed}**` : 0} |`);
}

const ok = (r?: R) => !!r && r.non2xx + r.errors === 0;
const me = results.get('postgres:users-me');
const refresh = results.get('postgres:refresh');
const signIn = results.get('postgres:sign-in');
const burst = results.get('postgres:sign-in-500');
const meRatio = (me?.rps ?? NaN) / ceilingFor('postgres:users-me');
const refreshRatio = (refresh?.rps ?? NaN) / ceilingFor('postgres:refresh');
const signUp = results.get('postgres:sign-up');
const signInRatio = (signIn?.rps ?? NaN) / verifyOf('postgres');
const signUpRatio = (signUp?.rps ?? NaN) / hashOf('postgres');
/**
 * The ratio by CPU: the DB ceiling's CPU per request (its server and Postgres) over the workload's (the service and
 * Postgres). On a machine where other work takes the cores, requests/s of two runs seconds apart drift apart; the CPU
 * each request costs moves far less (issue 31's note in bench/RESULTS.md).
 */
const cpuRatio = (name: string, r?: R) => {
  const ceiling = results.get(`ceiling-db@${name}`) ?? results.get('ceiling-db');
  return (cpuPerRequestUs(ceiling) + pgUs(ceiling)) / (cpuPerRequestUs(r) + pgUs(r));
};
const targets: [string, string, boolean][] = [
  // BENCH_AUTH_ONLY=1 runs neither `GET /users/me` nor the refresh grant: their targets are left out, not failed.
  ...(me ? [
    ['`GET /users/me` ≥ 1.0 × DB ceiling (issue 31; by CPU per request in brackets)', `${f2(meRatio)} (${f2(cpuRatio('postgres:users-me', me))})`, ok(me) && meRatio >= 1.0],
    ['`GET /users/me` p99 < 25 ms', ms(me.p99_ms), ok(me) && me.p99_ms < 25],
  ] as [string, string, boolean][] : []),
  ...(refresh ? [['refresh grant ≥ 0.6 × DB ceiling (issue 31; by CPU per request in brackets)', `${f2(refreshRatio)} (${f2(cpuRatio('postgres:refresh', refresh))})`, ok(refresh) && refreshRatio >= 0.6]] as [string, string, boolean][] : []),
  // Issue 16 §3: the work around the hash costs under 5% of the hash's throughput.
  ['password sign-in ≥ 0.95 × raw verify (issue 16 §3; 0.85 in issue 2)', f2(signInRatio), ok(signIn) && signInRatio >= 0.95],
  ['password sign-up ≥ 0.95 × raw hash (issue 16 §3)', f2(signUpRatio), ok(signUp) && signUpRatio >= 0.95],
  ['RSS < 1 GiB with 500 sign-ins in flight', `${mib(burst?.peak_rss_kib)} (${burst?.peak_connections ?? '?'} connections)`,
    ok(burst) && !!burst!.peak_rss_kib && burst!.peak_rss_kib < 1024 * 1024 && (burst!.peak_connections ?? 0) >= 500],
];
// Gatehouse beside the peers measured in this run (BENCH_PEERS=1): each figure with its own bracketing raw runs.
const peers = ['postgres', 'better-auth'].filter((l) => results.has(`${l}:sign-in`) || results.has(`${l}:sign-up`));
const peerName: Record<string, string> = { postgres: 'Gatehouse (Postgres)', 'better-auth': 'Better Auth (Postgres)' };
const peerTable = peers.length < 2 ? [] : [
  `Side by side (same PostgreSQL, same argon2id m=19456 t=2 through Bun.password, wrk -c${conns}; each × raw is against the raw runs right around that row):`,
  ``,
  `| server | sign-in/s | × raw verify | CPU/sign-in (beside the hash · Postgres) | sign-up/s | × raw hash | CPU/sign-up (beside the hash · Postgres) | raw verify/s | raw hash/s |`,
  `|---|---|---|---|---|---|---|---|---|`,
  ...peers.map((l) => {
    const si = results.get(`${l}:sign-in`), su = results.get(`${l}:sign-up`);
    const failed = (r?: R) => (r && r.non2xx + r.errors ? ` (**${r.non2xx + r.errors} failed**)` : '');
    return `| ${peerName[l]} | ${f0(si?.rps ?? NaN)}${failed(si)} | ${f2((si?.rps ?? NaN) / verifyOf(l))} | ${us(cpuPerRequestUs(si))} (${us(besideHashUs(si))} · ${us(pgUs(si))}) | ${f0(su?.rps ?? NaN)}${failed(su)} | ${f2((su?.rps ?? NaN) / hashOf(l))} | ${us(cpuPerRequestUs(su))} (${us(besideHashUs(su))} · ${us(pgUs(su))}) | ${f0(verifyOf(l))} | ${f0(hashOf(l))} |`;
  }),
  ``,
];
const passed = targets.filter((t) => t[2]).length;
// CPU time per sign-in against CPU time per raw verify: the same comparison as the throughput ratio, without the
// noise of other processes (both are dominated by the argon2id work).
const rawVerifyCpu = mean(verifyRuns('postgres').map((r) => r.cpu_us_per_op ?? NaN));
const signInCpu = cpuPerRequestUs(signIn);
const rawHashCpu = mean(hashRuns('postgres').map((r) => r.cpu_us_per_op ?? NaN));
const signUpCpu = cpuPerRequestUs(signUp);
const busy = Number((process.env.BENCH_LOAD_START ?? '0').split(' ')[0]) > cpus().length || loadavg()[0]! > cpus().length;

const md = [
  `# Gatehouse benchmark`,
  ``,
  `${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'} · ${(totalmem() / 2 ** 30).toFixed(1)} GiB · Bun ${Bun.version} · ` +
    `wrk -t1 -c${conns} -d${process.env.BENCH_DURATION ?? '10s'} on loopback (server and wrk share the cores) · ` +
    `${process.env.BENCH_USERS ?? 2000} users with sessions, ${process.env.BENCH_SIGNIN_USERS ?? 200} with passwords · ` +
    `load average at start ${process.env.BENCH_LOAD_START ?? '?'}, at end ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
  ``,
  `"server CPU/request" is the user+system CPU time of the server process (Bun; not Postgres, not wrk) per completed request;`,
  `"… beside the hash" is the part of it outside Bun's hashing threads (JS thread, JIT, GC, allocator), "Postgres" the CPU of`,
  `the database's backends per request: on two cores, both are taken from the hashing. CPU per request is barely`,
  `affected by other load on the machine, unlike requests/s. "× DB ceiling" divides by the DB ceiling`,
  `measured right before the row; "× raw hash" by the mean of the raw runs right before and right after the row`,
  `(\`Bun.password.verify\` for sign-in, \`Bun.password.hash\` for sign-up, at the service's hashing concurrency: the`,
  `machine's speed drifts; bracketing keeps the drift from landing on one side of the ratio).`,
  ``,
  ...rows,
  ``,
  ...(busy ? [`**Warning:** the load average exceeded the number of cores: other processes competed for the CPU, so requests/s and ratios are lower and noisier than on a quiet machine (CPU/request is still meaningful).`, ``] : []),
  ...peerTable,
  `Targets (issues 2 and 16, measured on Postgres; PGlite rows are for reference):`,
  ``,
  `| target | measured | result |`,
  `|---|---|---|`,
  ...targets.map(([t, m, p]) => `| ${t} | ${m} | ${p ? 'pass' : '**FAIL**'} |`),
  ``,
  `${passed}/${targets.length} targets met.` +
    (rawVerifyCpu && signInCpu ? ` For reference, CPU per raw verify ÷ CPU per sign-in = ${f2(rawVerifyCpu / signInCpu)} (1.00 = sign-in costs no more CPU than the hash alone)` : '') +
    (rawHashCpu && signUpCpu ? `; CPU per raw hash ÷ CPU per sign-up = ${f2(rawHashCpu / signUpCpu)}.` : '.'),
  ``,
].join('\n');
writeFileSync(output!, md);
console.log('\n' + md);
