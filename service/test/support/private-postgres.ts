// A PostgreSQL cluster of the test's own (initdb + pg_ctl on a free port, data under /tmp), for tests that stop
// and start the server. Run as the `postgres` OS user when the tests run as root (PostgreSQL refuses root).
import { mkdtempSync, rmSync, chownSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';

const BIN = process.env.GATEHOUSE_PG_BIN ?? '/usr/lib/postgresql/15/bin';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface PrivatePostgres {
  port: number;
  /** URL of database `name` (default `postgres`). */
  url(name?: string): string;
  start(): Promise<void>;
  /** `pg_ctl stop -m fast`: connections are closed, the server is down until `start`. */
  stop(): Promise<void>;
  /** Stops the server and removes its data. */
  destroy(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const pgUser = asRoot ? Number((await Bun.$`id -u postgres`.text()).trim()) : undefined;
  const pgGroup = asRoot ? Number((await Bun.$`id -g postgres`.text()).trim()) : undefined;
  if (asRoot) chownSync(dir, pgUser!, pgGroup!);
  const run = async (args: string[]) => {
    const cmd = asRoot ? ['runuser', '-u', 'postgres', '--', ...args] : args;
    const p = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe', cwd: dir });
    const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
    if ((await p.exited) !== 0) throw new Error(`${args.join(' ')} failed:\n${out}\n${err}`);
  };
  await run([`${BIN}/initdb`, '-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  // fsync off: the test stops the server cleanly (a fast shutdown checkpoints), it never loses power.
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=100`;
  const pg: PrivatePostgres = {
    port,
    url: (name = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${name}`,
    start: () => run([`${BIN}/pg_ctl`, '-D', data, '-l', join(dir, 'log'), '-o', opts, '-w', '-t', '30', 'start']),
    stop: () => run([`${BIN}/pg_ctl`, '-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']),
    async destroy() {
      await pg.stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await pg.start();
  return pg;
}
