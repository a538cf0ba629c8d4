// One hook around every statement the service runs, for traces (observability/tracing-statements.ts). drizzle runs
// each statement (query builders, relational queries, the named ones of prepared-sql.ts) through its driver's
// prepared-query class; postgres.js has no official OpenTelemetry instrumentation, so those classes' `execute` and
// `all` are wrapped here, once, and only when asked (with tracing off nothing is wrapped).
import { PglitePreparedQuery } from 'drizzle-orm/pglite/session';
import { PostgresJsPreparedQuery } from 'drizzle-orm/postgres-js/session';

/** What drizzle knows of a statement: its text (placeholders, no values) and, for builders, kind and tables. */
export interface StatementFacts {
  queryString?: string;
  queryMetadata?: { type?: string; tables?: string[] };
}

export type StatementWrapper = <T>(facts: StatementFacts, run: () => Promise<T>) => Promise<T>;

let wrapped = false;

export function wrapStatements(wrap: StatementWrapper): void {
  if (wrapped) return;
  wrapped = true;
  for (const prepared of [PostgresJsPreparedQuery.prototype, PglitePreparedQuery.prototype] as unknown as Record<'execute' | 'all', (values?: unknown) => Promise<unknown>>[]) {
    for (const method of ['execute', 'all'] as const) {
      const original = prepared[method]!;
      prepared[method] = function (this: StatementFacts, values?: unknown) {
        return wrap(this, () => original.call(this, values));
      };
    }
  }
}
