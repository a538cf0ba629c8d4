// One database API over two drivers: PostgreSQL (postgres.js) when DATABASE_URL is set, otherwise embedded
// PGlite on disk. The same drizzle migrations are applied at start on both.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';

export type DB = PgDatabase<PgQueryResultHKT, typeof schema>;
export { schema };

export interface Database {
  db: DB;
  driver: 'postgres' | 'pglite';
  close(): Promise<void>;
  /**
   * Postgres LISTEN/NOTIFY between service instances (absent on PGlite: one process owns its data directory).
   * `onConnect` runs on every (re)connection of the listening connection: notifications may have been missed.
   */
  listen?(channel: string, onPayload: (payload: string) => void, onConnect?: () => void): Promise<{ unlisten(): Promise<void> }>;
  notify?(channel: string, payload: string): Promise<void>;
}

export const migrationsFolder = fileURLToPath(new URL('../../../drizzle', import.meta.url));

export interface OpenDatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  /** PostgreSQL: how long opening a connection may take (GATEHOUSE_DB_CONNECT_TIMEOUT_SECONDS, default 5). */
  connectTimeoutSeconds?: number;
  /** PostgreSQL: server-side statement_timeout of the pool's connections (GATEHOUSE_DB_STATEMENT_TIMEOUT_MS); not migrations. */
  statementTimeoutMs?: number;
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
    const client = postgres(opts.databaseUrl, {
      max: opts.poolSize ?? 16, onnotice: () => {}, connect_timeout,
      // Seconds before a failed connection is retried, by failures in a row across the pool. The driver's default
      // grows to 20 s, and a request needing that connection waited for it: during an outage requests must fail
      // fast, and after it the service must reconnect within about a second.
      backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1) * (0.5 + Math.random() / 2),
      ...(opts.statementTimeoutMs ? { connection: { statement_timeout: opts.statementTimeoutMs } } : {}),
    });
    const db = drizzle(client, { schema });
    return {
      db: db as unknown as DB, driver: 'postgres', close: () => client.end({ timeout: 5 }),
      listen: (channel, onPayload, onConnect) => client.listen(channel, onPayload, onConnect),
      notify: async (channel, payload) => { await client.notify(channel, payload); },
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  // PGlite's NodeFS creates only the last directory level.
  mkdirSync(opts.dataDir, { recursive: true });
  const client = await PGlite.create(`${opts.dataDir}/pglite`);
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  return { db: db as unknown as DB, driver: 'pglite', close: () => client.close() };
}

/** Error codes meaning the database cannot be reached or is restarting (not a problem of the request itself). */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND',
  'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT',
  '57P01', '57P02', '57P03', '53300', '57014', // admin/crash shutdown, starting up, too many connections, statement timeout
]);

/**
 * Whether `err` (or an error it wraps: drizzle wraps driver errors with the failed SQL) says the database is
 * unavailable. Such errors are answered 503 + Retry-After, without details (http/respond.ts).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  }
  return false;
}

/** Raw `db.execute` returns `{rows}` on PGlite and an array on postgres.js. */
export function rowsOf<T>(result: unknown): T[] {
  const r = result as { rows?: T[] };
  return (r.rows ?? (result as T[])) as T[];
}
