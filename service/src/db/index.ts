// One database API over two drivers: PostgreSQL (postgres.js) when DATABASE_URL is set, otherwise embedded
// PGlite on disk. The same drizzle migrations are applied at start on both.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as coreSchema from './schema';
import * as enterpriseSchema from './schema-enterprise';
import { registerChangeNotices, registerWriteGeneration } from './read-cache';
import { CHANGE_NOTICE_MESSAGE, ChangeNotices } from './change-notices';
import { listenWithState } from './postgres-listener';
import { readWriteReach } from './write-reach';
import type { DB } from './handle';

export type { DB } from './handle';
export { rowsOf } from './handle';
/** Every table: the core model and the teams-as-organizations tables of schema-enterprise.ts. */
const schema = { ...coreSchema, ...enterpriseSchema };
export { schema };

export interface Database {
  db: DB;
  driver: 'postgres' | 'pglite';
  close(): Promise<void>;
  /**
   * Postgres LISTEN/NOTIFY between service instances (absent on PGlite: one process owns its data directory).
   * `onConnect` runs on every (re)connection of the listening connection: notifications may have been missed;
   * `onLost` when it closes (notifications go unheard until the next `onConnect`).
   */
  listen?(channel: string, onPayload: (payload: string) => void, onConnect?: () => void, onLost?: () => void): Promise<{ unlisten(): Promise<void> }>;
  notify?(channel: string, payload: string): Promise<void>;
  /**
   * PostgreSQL: the change notices of the rows kept in memory (db/change-notices.ts); the service's listener hands them
   * the channel's payloads and its connection's state.
   */
  changeNotices?: ChangeNotices;
}

// In the binary the migrations are embedded under drizzle/ at the root of its files (scripts/build-binary.mjs).
export const migrationsFolder = Bun.isStandaloneExecutable
  ? join(import.meta.dir, 'drizzle')
  : fileURLToPath(new URL('../../../drizzle', import.meta.url));

export interface OpenDatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  /** PostgreSQL: how long opening a connection may take (GATEHOUSE_DB_CONNECT_TIMEOUT_SECONDS, default 5). */
  connectTimeoutSeconds?: number;
  /** PostgreSQL: server-side statement_timeout of the pool's connections (GATEHOUSE_DB_STATEMENT_TIMEOUT_MS); not migrations. */
  statementTimeoutMs?: number;
  /** Called with every statement the service runs and its parameters (tests count the statements of a request, and capture hot queries to explain, with it). */
  logQuery?: (query: string, params: unknown[]) => void;
}

export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const { default: postgres } = await import('postgres');
    const { drizzle } = await import('drizzle-orm/postgres-js');
    const { migrate } = await import('drizzle-orm/postgres-js/migrator');
    const connect_timeout = opts.connectTimeoutSeconds ?? 5;
    // Migrations on a connection of their own: the statement timeout must not cut a long index build short.
    const migrator = postgres(opts.databaseUrl, { max: 1, onnotice: () => {}, connect_timeout });
    try { await migrate(drizzle(migrator, { schema }), { migrationsFolder }); } finally { await migrator.end({ timeout: 5 }); }
    const changeNotices = new ChangeNotices();
    const options = {
      connect_timeout,
      // Seconds before a failed connection is retried, by failures in a row across the pool. The driver's default
      // grows to 20 s, and a request needing that connection waited for it: during an outage requests must fail
      // fast, and after it the service must reconnect within about a second.
      backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1) * (0.5 + Math.random() / 2),
    };
    const client = postgres(opts.databaseUrl, {
      ...options, max: opts.poolSize ?? 16,
      // The change notices of this instance's own statements come back on their connection, before its answer
      // (drizzle/0026 raises them only where `gatehouse.change_notices` is on: never in an operator's psql).
      onnotice: (notice) => { if (notice.message === CHANGE_NOTICE_MESSAGE && notice.detail) changeNotices.changedHere(notice.detail); },
      connection: { 'gatehouse.change_notices': 'on', ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}) },
    });
    const db = drizzle(client, { schema, ...logger(opts) });
    registerChangeNotices(db as unknown as DB, changeNotices);
    const listeners: { unlisten(): Promise<void> }[] = [];
    return {
      db: db as unknown as DB, driver: 'postgres', changeNotices,
      close: async () => {
        await Promise.all(listeners.map((l) => l.unlisten()));
        await client.end({ timeout: 5 });
      },
      listen: async (channel, onPayload, onConnect, onLost) => {
        const listener = await listenWithState(postgres, opts.databaseUrl!, { ...options, onnotice: () => {} }, channel, { onPayload, onConnect, onLost });
        listeners.push(listener);
        return listener;
      },
      notify: async (channel, payload) => { await client.notify(channel, payload); },
    };
  }
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const { PGliteRemote } = await import('./pglite-remote');
  // PGlite's NodeFS creates only the last directory level.
  mkdirSync(opts.dataDir, { recursive: true });
  // PGlite (with pg_trgm, for the fragment search of GET /users) in a thread of its own, off the one serving HTTP
  // (db/pglite-worker.ts).
  const client = await PGliteRemote.open(`${opts.dataDir}/pglite`);
  const db = drizzle(client.asPGlite(), { schema, ...logger(opts) });
  try { await migrate(db, { migrationsFolder }); } catch (err) { await client.close().catch(() => {}); throw err; }
  // This process alone writes to the data directory, so reads can be reused until its next write; which tables'
  // writes reach a cached read (through triggers and foreign key actions) is read from the migrated schema.
  try {
    registerWriteGeneration(db as unknown as DB, (tables) => client.writeGeneration(tables), await readWriteReach(db as unknown as DB));
  } catch (err) { await client.close().catch(() => {}); throw err; }
  return { db: db as unknown as DB, driver: 'pglite', close: () => client.close() };
}

function logger(opts: OpenDatabaseOptions) {
  const log = opts.logQuery;
  return log ? { logger: { logQuery: (query: string, params: unknown[]) => log(query, params) } } : {};
}
