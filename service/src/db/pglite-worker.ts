// The embedded database's thread (issue 16 §2): PGlite runs its WASM synchronously, so on the thread that serves HTTP
// a 1 s statement stalled every request for 1 s, and its ~0.5 ms of CPU per statement competed with request handling.
// Here it owns a Bun Worker; the service talks to it through db/pglite-remote.ts. Statements go through
// db/pglite-fast.ts (one trip into the WASM, named prepared statements) and PGlite's own mutexes, so a transaction
// still excludes every other statement and statements arrive in the order the service sent them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite, type Extension, type PGliteOptions, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { fastQueries } from './pglite-fast';
import type { WireError, WorkerReply, WorkerRequest } from './pglite-remote';

declare const self: Worker;

// PGlite keeps Postgres's default of 128 MB of shared buffers, and its WASM memory touches them at start: opening
// added ~230 MiB of RSS whatever the data's size; ~140 MiB with 32 MB, ~110 MiB with 16 MB (opening the bench's data
// directory, 300 users).
// Pages beyond it are read from the data files through the OS's page cache, a copy each; the embedded default is
// for small deployments (PostgreSQL is the production database). A start setting, not stored in the data directory.
const SHARED_BUFFERS = '16MB';

/**
 * PGlite's WASM, its file system bundle and the pg_trgm extension. PGlite finds them beside its own module; in the
 * binary that module is bundled into this one, and the files are embedded under their node_modules path at the root
 * of the executable's files (scripts/build-binary.mjs), so they are passed to it from there. PGlite reads an
 * extension with a file stream, which the executable's embedded files do not offer: that one is written to a
 * temporary directory for the start (`done` removes it).
 */
async function pgliteFiles(): Promise<{ options: Pick<PGliteOptions, 'pgliteWasmModule' | 'initdbWasmModule' | 'fsBundle'>; trgm: Extension; done(): void }> {
  if (!Bun.isStandaloneExecutable) return { options: {}, trgm: pg_trgm, done() {} };
  const dist = join(import.meta.dir, 'node_modules/@electric-sql/pglite/dist');
  const compile = async (name: string) => WebAssembly.compile(await Bun.file(join(dist, name)).arrayBuffer());
  const [pgliteWasmModule, initdbWasmModule] = await Promise.all([compile('pglite.wasm'), compile('initdb.wasm')]);
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-pglite-'));
  const trgmBundle = join(dir, 'pg_trgm.tar.gz');
  await Bun.write(trgmBundle, Bun.file(join(dist, 'pg_trgm.tar.gz')));
  return {
    options: { pgliteWasmModule, initdbWasmModule, fsBundle: Bun.file(join(dist, 'pglite.data')) },
    trgm: { name: pg_trgm.name, setup: async () => ({ bundlePath: pathToFileURL(trgmBundle) }) },
    done: () => rmSync(dir, { recursive: true, force: true }),
  };
}

let client: PGlite | undefined;
let fast: PGlite | undefined;
/** Open transactions by id: their handle and how to end them (the promise of PGlite's `transaction` call). */
const transactions = new Map<number, { tx: Transaction; end(commit: boolean): void; done: Promise<unknown> }>();
let nextTransaction = 1;
/** Thrown inside a transaction the service rolls back; PGlite rolls back on it and it is not an error here. */
const ROLLBACK = Symbol('rollback');

// Functions cannot cross threads: the service names the result types to keep as raw text (drizzle's parsers for
// timestamps, dates, intervals and their arrays are identities) and the same identities are applied here.
const identity = (value: string) => value;
const rawParsers = new Map<string, Record<number, (value: string) => unknown>>();
function parsersFor(raw: number[] | undefined) {
  if (!raw?.length) return undefined;
  const key = raw.join(',');
  let parsers = rawParsers.get(key);
  if (!parsers) rawParsers.set(key, (parsers = Object.fromEntries(raw.map((t) => [t, identity]))));
  return parsers;
}

function optionsOf(m: Extract<WorkerRequest, { op: 'query' }>): QueryOptions | undefined {
  if (!m.rowMode && !m.raw && !m.paramTypes) return undefined;
  return { rowMode: m.rowMode, parsers: parsersFor(m.raw), paramTypes: m.paramTypes };
}

function target(tx: number | undefined): Pick<PGlite, 'query' | 'exec'> {
  if (tx === undefined) {
    if (!fast) throw new Error('The embedded database is not open');
    return fast;
  }
  const open = transactions.get(tx);
  if (!open) throw new Error('The transaction has already ended');
  return open.tx;
}

async function handle(m: WorkerRequest): Promise<unknown> {
  switch (m.op) {
    case 'open':
      const files = await pgliteFiles();
      try {
        client = await PGlite.create(m.dataDir, { ...files.options, extensions: { pg_trgm: files.trgm }, startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`] });
      } finally { files.done(); }
      fast = fastQueries(client);
      return null;
    case 'query':
      return target(m.tx).query(m.text, m.params, optionsOf(m));
    case 'exec':
      return target(m.tx).exec(m.text);
    case 'begin': {
      if (!fast) throw new Error('The embedded database is not open');
      const id = nextTransaction++;
      // Resolves once BEGIN ran and the transaction mutex is held; PGlite commits when the inner promise resolves
      // and rolls back when it rejects.
      return new Promise<number>((begun, failed) => {
        const done = fast!.transaction((tx) => new Promise<void>((commit, rollback) => {
          transactions.set(id, { tx, end: (ok) => (ok ? commit() : rollback(ROLLBACK)), done });
          begun(id);
        }));
        done.catch(failed);
      });
    }
    case 'end': {
      const open = transactions.get(m.tx);
      if (!open) throw new Error('The transaction has already ended');
      transactions.delete(m.tx);
      open.end(m.commit);
      try { await open.done; } catch (err) { if (err !== ROLLBACK) throw err; }
      return null;
    }
    case 'close':
      await client?.close();
      client = fast = undefined;
      return null;
  }
}

/** A Postgres error keeps its fields (code, constraint, detail...) and the statement that failed, for db/errors.ts. */
function toWire(err: unknown): WireError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(err)) {
    if (key !== 'queryOptions' && typeof value !== 'function' && typeof value !== 'symbol') fields[key] = value;
  }
  return { name: err.name, message: err.message, stack: err.stack, fields };
}

function reply(message: WorkerReply): void {
  try { self.postMessage(message); }
  catch (err) {
    // A value that cannot be cloned to the service's thread: the caller gets an error rather than no answer.
    self.postMessage({ id: message.id, ok: false, error: { name: 'DataCloneError', message: String(err), fields: {} } } satisfies WorkerReply);
  }
}

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const m = event.data;
  handle(m).then((result) => reply({ id: m.id, ok: true, result }), (err) => reply({ id: m.id, ok: false, error: toWire(err) }));
};
