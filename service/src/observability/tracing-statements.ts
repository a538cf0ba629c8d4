// A span per database statement when tracing is on (observability/tracing.ts), through db/statement-hooks.ts. The
// span says what kind of statement on which tables (drizzle's own metadata), never its text or values.
import { wrapStatements, type StatementFacts } from '../db/statement-hooks';
import { traced } from './tracing';

/** `SELECT users`, `INSERT sessions`, `WITH`, `BEGIN`…: the operation and, where drizzle knows them, the tables. */
export function statementSpan(facts: StatementFacts): { name: string; attributes: Record<string, string> } {
  const operation = (facts.queryMetadata?.type ?? /^\s*([a-z]+)/i.exec(facts.queryString ?? '')?.[1] ?? 'statement').toUpperCase();
  const tables = facts.queryMetadata?.tables?.join(',') ?? '';
  return {
    name: tables ? `${operation} ${tables}` : operation,
    attributes: { 'db.system.name': 'postgresql', 'db.operation.name': operation, ...(tables ? { 'db.collection.name': tables } : {}) },
  };
}

export function traceStatements(): void {
  wrapStatements((facts, run) => {
    const span = statementSpan(facts);
    return traced(span.name, span.attributes, run);
  });
}
