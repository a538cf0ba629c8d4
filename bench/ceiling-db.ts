// Ceiling (b): Bun + postgres.js answering one primary-key SELECT per request (pool 16, prepared statements),
// on a small table shaped like a user row. This is what one database round trip per request costs here.
import postgres from 'postgres';

const ROWS = 10_000;
const sql = postgres(process.env.DATABASE_URL!, { max: 16, prepare: true, onnotice: () => {} });
await sql`drop table if exists bench_ceiling`;
await sql`create table bench_ceiling (id integer primary key, email text not null, display_name text, created_at timestamptz not null default now())`;
await sql`insert into bench_ceiling (id, email, display_name) select i, 'user' || i || '@example.com', 'User ' || i from generate_series(1, ${ROWS}) i`;
await sql`analyze bench_ceiling`;

const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: '127.0.0.1',
  development: false,
  async fetch(req) {
    const url = req.url;
    const id = Number(url.slice(url.lastIndexOf('/') + 1)) || 1;
    const [row] = await sql`select id, email, display_name, created_at from bench_ceiling where id = ${id}`;
    if (!row) return new Response('not found', { status: 404 });
    return Response.json(row);
  },
});
console.log(`ready ${server.port}`);
process.on('SIGTERM', async () => { server.stop(); await sql.end({ timeout: 2 }); process.exit(0); });
