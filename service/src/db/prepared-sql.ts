// Raw SQL run as a named prepared statement. drizzle runs `db.execute(sql)` unnamed, so PostgreSQL parses, analyses
// and plans it on every call, and drizzle builds its text again each time; a statement on a hot path (every password
// sign-in runs the rate-limit hit and the session insert) is built once here, with placeholders for its values, and
// postgres.js keeps it prepared per connection (PGlite's driver learns it too: db/pglite-fast.ts).
import { type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { rowsOf, type DB } from './handle';

const dialect = new PgDialect();

interface Executable { execute(values?: Record<string, unknown>): Promise<unknown> }

export class PreparedSql {
  private readonly byDb = new WeakMap<object, Executable>();
  private query?: ReturnType<PgDialect['sqlToQuery']>;

  /** `build` makes the statement with `sql.placeholder(name)` for every value; it runs once. */
  constructor(readonly name: string, private readonly build: () => SQL) {}

  /** Runs the statement on `db` (a transaction's handle too) with the placeholders' values; returns its rows. */
  async rows<T>(db: DB, values: Record<string, unknown>): Promise<T[]> {
    let prepared = this.byDb.get(db);
    if (!prepared) {
      this.query ??= dialect.sqlToQuery(this.build());
      prepared = db._.session.prepareQuery(this.query, undefined, this.name, false) as Executable;
      this.byDb.set(db, prepared);
    }
    return rowsOf<T>(await prepared.execute(values));
  }
}

/** One PreparedSql per shape (e.g. per number of keys), made when first asked for. */
export function preparedByShape<K extends string | number>(make: (shape: K) => PreparedSql): (shape: K) => PreparedSql {
  const made = new Map<K, PreparedSql>();
  return (shape) => {
    let statement = made.get(shape);
    if (!statement) made.set(shape, (statement = make(shape)));
    return statement;
  };
}
