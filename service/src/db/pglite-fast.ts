// PGlite's `query` runs an extended-protocol statement as six calls into its WASM (parse, describe the statement,
// bind, describe the portal, execute, sync), each a full trip through the backend's main loop, because it must learn
// the parameters' types before it can serialize them. That costs ~1 ms of CPU for a one-row primary-key SELECT
// whose planning and execution take 0.2 ms (issue 16 §2), on the thread that also serves HTTP.
//
// Here the parameter types of a statement are learnt once (by PGlite's own path) and remembered by statement text;
// later runs send parse + bind + describe + execute + sync as one message batch: one trip instead of six. Parameters
// are serialized by PGlite's own serializers for those types and results parsed by its own `parseResults`, so values
// in and out are the same as through `query`. Locking is PGlite's: outside a transaction a statement takes the
// transaction mutex and then the query mutex, exactly as `query` does; inside `transaction(fn)` only the query mutex.
//
// With `named` (the default) the statement learnt is also kept parsed in the backend as a named prepared statement,
// so a later run is bind + describe + execute + sync: no parse and analysis per run, and after five runs Postgres may
// keep a generic plan (its plan cache) instead of planning again. Prepared statements outlive a rollback, and
// Postgres re-plans them itself after DDL; one whose result type changed under it (0A000) or that vanished (26000)
// is forgotten, so its next run learns it again.
import { PGlite, parse as pgParse, protocol, type Results, type QueryOptions, type Transaction } from '@electric-sql/pglite';

/** Statement texts whose parameter types are remembered (drizzle's texts are a bounded set; raw SQL may vary). */
const MAX_CACHED = 2000;

type Query = (text: string, params?: unknown[], options?: QueryOptions) => Promise<Results>;

interface Learnt { types: number[]; name: string | undefined }

export function fastQueries(client: PGlite, opts: { named?: boolean } = {}): PGlite {
  const named = opts.named ?? true;
  const learnt = new Map<string, Learnt>();
  /** Names of prepared statements forgotten here, closed in the backend with the next describe. */
  const toClose: string[] = [];
  let nextName = 0;
  const internals = client as unknown as {
    _checkReady(): Promise<void>;
    _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
    _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  };

  // PGlite merges a query's own parsers into its full table (every type and array type, hundreds of entries) by
  // copying it on every query: a tenth of the service's CPU under load. The merged tables are kept instead, keyed by
  // the overridden types and the parsers' source (drizzle passes new but identical functions with every query).
  const merged = new Map<string, Record<number, (value: string, typeId?: number) => unknown>>();
  // The same parsers object passed again (the worker's, db/pglite-worker.ts) skips building the key (4% of its CPU).
  const byObject = new WeakMap<object, Record<number, (value: string, typeId?: number) => unknown>>();
  function parsersWith(own: NonNullable<QueryOptions['parsers']>) {
    let known = byObject.get(own);
    if (!known) byObject.set(own, (known = mergedFor(own)));
    return known;
  }
  function mergedFor(own: NonNullable<QueryOptions['parsers']>) {
    const key = Object.entries(own).map(([type, fn]) => `${type}:${String(fn)}`).join('\n');
    let table = merged.get(key);
    if (!table) {
      if (merged.size >= 100) merged.clear();
      table = { ...client.parsers, ...own };
      merged.set(key, table);
    }
    return table;
  }

  /** Learns (and remembers) the parameter types of a statement that just ran; the caller holds the transaction mutex. */
  async function describe(text: string): Promise<void> {
    if (learnt.size >= MAX_CACHED) forget(learnt.keys().next().value as string);
    const name = named ? `gh_${(nextName++).toString(36)}` : undefined;
    const types = await internals._runExclusiveQuery(async () => {
      const closing = toClose.splice(0).map((n) => wire.close({ type: 'S', name: n }));
      const { messages } = await client.execProtocol(concat([...closing, wire.parse({ text, name }), wire.describe({ type: 'S', name }), wire.sync()]), { syncToFs: false });
      return pgParse.parseDescribeStatementResults(messages);
    });
    learnt.set(text, { types, name });
  }

  function forget(text: string): void {
    const entry = learnt.get(text);
    if (!entry) return;
    learnt.delete(text);
    if (entry.name) toClose.push(entry.name);
  }

  /** One trip into the backend; the caller holds the right mutexes. */
  async function oneTrip(text: string, { types, name }: Learnt, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results> {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serialize = options?.serializers?.[types[i]!] ?? client.serializers[types[i]!];
      return serialize ? serialize(value) : (value as { toString(): string }).toString();
    });
    let messages;
    try {
      ({ messages } = await client.execProtocol(concat([
        ...(name ? [] : [wire.parse({ text })]), wire.bind({ statement: name, values: values as string[] }),
        wire.describe({ type: 'P' }), wire.execute({}), wire.sync(),
      ]), { syncToFs: false }));
    } catch (err) {
      const code = (err as { code?: unknown } | null)?.code;
      if (name && (code === '0A000' || code === '26000')) forget(text);
      // As PGlite's own query path does: the error names its statement (drizzle and the logs show it).
      if (err && typeof err === 'object') Object.assign(err, { query: text, params, queryOptions: options });
      throw err;
    }
    if (!inTransaction) await client.syncToFs();
    if (!options?.parsers) return pgParse.parseResults(messages, client.parsers, options)[0]!;
    return pgParse.parseResults(messages, parsersWith(options.parsers), { ...options, parsers: undefined })[0]!;
  }

  function makeQuery(original: Query, inTransaction: boolean): Query {
    return async (text, params = [], options) => {
      // Blobs (COPY) and statements with no parameters keep PGlite's path (the latter is already cheap to describe).
      if (options?.blob || params.length === 0) return original(text, params, options);
      const types = learnt.get(text);
      if (!types) {
        // The first run takes PGlite's path; once it succeeded (a failing text is never remembered) its parameter
        // types are described by a parse + describe that plans nothing. Inside a transaction the transaction mutex is
        // already held (by PGlite's transaction); outside it is taken, so no other statement comes between.
        const result = await original(text, params, options);
        await (inTransaction ? describe(text) : internals._runExclusiveTransaction(() => describe(text))).catch(() => {});
        return result;
      }
      if (inTransaction) return internals._runExclusiveQuery(() => oneTrip(text, types, params, options, true));
      await internals._checkReady();
      return internals._runExclusiveTransaction(() => internals._runExclusiveQuery(() => oneTrip(text, types, params, options, false)));
    };
  }

  const query = makeQuery(client.query.bind(client) as Query, false);
  const transaction = client.transaction.bind(client);
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === 'query') return query;
      if (prop === 'transaction') {
        return <T>(fn: (tx: Transaction) => Promise<T>) => transaction((tx) => {
          const txQuery = makeQuery(tx.query.bind(tx) as Query, true);
          const wrapped = new Proxy(tx, { get: (t, p, r) => (p === 'query' ? txQuery : Reflect.get(t, p, r)) });
          return fn(wrapped);
        });
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const wire = protocol.serialize;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}
