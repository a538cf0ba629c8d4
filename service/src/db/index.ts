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

export async function openDatabase(opts: { databaseUrl?: string; dataDir: string; poolSize?: number }): Promise<Database> {
  if (opts.databaseUrl) {
    const { default: postgres } = await import('postgres');
    const { drizzle } = await import('drizzle-orm/postgres-js');
    const { migrate } = await import('drizzle-orm/postgres-js/migrator');
    const client = postgres(opts.databaseUrl, { max: opts.poolSize ?? 16, onnotice: () => {} });
    const db = drizzle(client, { schema });
    await migrate(db, { migrationsFolder });
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

/** Raw `db.execute` returns `{rows}` on PGlite and an array on postgres.js. */
export function rowsOf<T>(result: unknown): T[] {
  const r = result as { rows?: T[] };
  return (r.rows ?? (result as T[])) as T[];
}
