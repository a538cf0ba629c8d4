// Per-statement cost inside PGlite (issue 16 §2), in one process: a one-row primary-key SELECT and a one-row UPDATE
// through PGlite's own `query`, through db/pglite-fast.ts with unnamed statements (one trip, parsed every run) and
// with named prepared statements (parsed once). Prints µs of CPU per statement. `bun bench/pglite-statements.ts`.
import { PGlite } from '@electric-sql/pglite';
import { fastQueries } from '../service/src/db/pglite-fast';

const N = Number(process.env.BENCH_STATEMENTS ?? 20000);
const db = await PGlite.create();
await db.exec(`create table u (id int primary key, email text, meta jsonb, created_at timestamptz default now());
  insert into u select i, 'u' || i || '@x.test', '{"a":1}', now() from generate_series(1, 10000) i;`);
const parsers = { 1184: (v: string) => v, 1114: (v: string) => v };
const variants: [string, PGlite][] = [['pglite query', db], ['one trip, unnamed', fastQueries(db, { named: false })], ['one trip, named', fastQueries(db, { named: true })]];
for (const [label, client] of variants) {
  const run = async (n: number) => {
    for (let i = 0; i < n; i++) {
      await client.query('select id, email, meta, created_at from u where id = $1', [1 + (i % 10000)], { rowMode: 'array', parsers });
      await client.query('update u set meta = $1 where id = $2', ['{"a":2}', 1 + (i % 10000)]);
    }
  };
  await run(2000);
  const t0 = process.cpuUsage();
  const w0 = performance.now();
  await run(N);
  const cpu = process.cpuUsage(t0);
  const wall = performance.now() - w0;
  console.log(`${label.padEnd(20)} ${((cpu.user + cpu.system) / (2 * N)).toFixed(1)} µs CPU/statement, ${((wall * 1000) / (2 * N)).toFixed(1)} µs wall`);
}
await db.close();
