// The database handle's type and the raw-result helper, apart from index.ts: the db/ modules that index.ts itself
// imports (the read cache, the write reach, prepared statements) take them from here, so db/ has no import cycle.
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

export type DB = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Raw `db.execute` returns `{rows}` on PGlite and an array on postgres.js. */
export function rowsOf<T>(result: unknown): T[] {
  const r = result as { rows?: T[] };
  return (r.rows ?? (result as T[])) as T[];
}
