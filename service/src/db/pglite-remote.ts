// The service's side of the embedded database's thread (db/pglite-worker.ts, issue 16 §2): a client with what
// drizzle's PGlite driver and its migrator call (`query` with rowMode and parsers, `exec`, `transaction`) and `close`.
// Statements of a transaction carry its id, so the worker runs them inside the transaction it holds open; every other
// statement waits for it there, as on PGlite in-thread. If the worker dies, every pending and later call fails with
// a connection error (SQLSTATE 08006: answered 503 by the service) instead of waiting forever.
import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import { cachedTablesIn, inDeclaredWrite } from './read-cache';

export type WorkerRequest = { id: number } & (
  | { op: 'open'; dataDir: string }
  | { op: 'query'; tx?: number; text: string; params: unknown[]; rowMode?: 'array' | 'object'; raw?: number[]; paramTypes?: number[] }
  | { op: 'exec'; tx?: number; text: string }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'close' }
);
type Op = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;
export interface WireError { name: string; message: string; stack?: string; fields: Record<string, unknown> }
export type WorkerReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: WireError };

/** A parser that returns its input (drizzle's, for the types it keeps as text): `(value) => value`, `v => v`. */
const IDENTITY = /^\s*(?:async\s+)?\(?\s*([\w$]+)\s*\)?\s*=>\s*\(?\s*\1\s*\)?\s*;?\s*$/;
/** A statement that reads only: `select ...` without a locking clause or a call of a sequence or lock function. */
const PLAIN_SELECT = /^\s*select\s/i;
const WRITING_SELECT = /\bfor\s+(?:update|no\s+key\s+update|share|key\s+share)\b|\b(?:nextval|setval|pg_advisory\w*|set_config|gatehouse_\w+)\s*\(/i;
const readsOnly = new Map<string, boolean>();
function isReadOnly(text: string): boolean {
  let known = readsOnly.get(text);
  if (known === undefined) {
    known = PLAIN_SELECT.test(text) && !WRITING_SELECT.test(text);
    if (readsOnly.size >= 2000) readsOnly.clear();
    readsOnly.set(text, known);
  }
  return known;
}
const rawTypesOf = new WeakMap<object, number[]>();

/** The types whose values stay raw text, from a query's parsers: only identities can be reproduced in the worker. */
function rawTypes(parsers: QueryOptions['parsers']): number[] | undefined {
  if (!parsers) return undefined;
  let raw = rawTypesOf.get(parsers);
  if (!raw) {
    raw = Object.entries(parsers).map(([type, fn]) => {
      if (!IDENTITY.test(String(fn))) throw new Error(`A result parser for type ${type} cannot run in the embedded database's thread: only parsers that keep the text as is are supported`);
      return Number(type);
    });
    rawTypesOf.set(parsers, raw);
  }
  return raw;
}

function queryOp(text: string, params: unknown[] | undefined, options: QueryOptions | undefined, tx?: number): Op {
  if (options?.serializers || options?.blob || options?.onNotice) throw new Error('Serializers, blobs and notice callbacks cannot cross to the embedded database\'s thread');
  return { op: 'query', tx, text, params: params ?? [], rowMode: options?.rowMode, raw: rawTypes(options?.parsers), paramTypes: options?.paramTypes };
}

/** The error the service sees: a plain Error with the Postgres fields (code, constraint, detail, query...) on it. */
function fromWire(wire: WireError): Error {
  const err = new Error(wire.message);
  err.name = wire.name;
  Object.assign(err, wire.fields);
  return err;
}

/** An idle worker must not keep the process alive (Bun's Worker has ref/unref; its type declarations lack them). */
function hold(worker: Worker, keepAlive: boolean): void {
  const w = worker as unknown as { ref(): void; unref(): void };
  if (keepAlive) w.ref(); else w.unref();
}

export class PGliteRemote {
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  private nextId = 1;
  private failure: Error | undefined;
  private closing = false;
  /** Per watched table, moves when a write that may change it starts and when it ends (db/read-cache.ts). */
  private readonly tableGenerations = new Map<string, number>();
  private allGenerations = 0;

  private constructor(readonly worker: Worker) {
    worker.onmessage = (event: MessageEvent<WorkerReply>) => {
      const reply = event.data;
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) hold(worker, false);
      if (reply.ok) waiter.resolve(reply.result);
      else waiter.reject(fromWire(reply.error));
    };
    worker.addEventListener('error', (event) => this.fail(`The embedded database's thread failed: ${(event as ErrorEvent).message}`));
    worker.addEventListener('close', () => this.fail('The embedded database\'s thread has stopped'));
  }

  /** Starts the worker and opens PGlite on `dataDir` in it. */
  static async open(dataDir: string): Promise<PGliteRemote> {
    const remote = new PGliteRemote(new Worker(new URL('./pglite-worker.ts', import.meta.url).href));
    try { await remote.call({ op: 'open', dataDir }); }
    catch (err) { remote.worker.terminate(); throw err; }
    return remote;
  }

  private fail(message: string): void {
    if (this.failure) return;
    this.failure = Object.assign(new Error(this.closing ? 'The embedded database is closed' : message), { code: '08006' });
    for (const waiter of this.pending.values()) waiter.reject(this.failure);
    this.pending.clear();
    hold(this.worker, false);
  }

  private call(op: Op): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) hold(this.worker, true);
      this.pending.set(id, { resolve, reject });
      try { this.worker.postMessage({ ...op, id }); }
      catch (err) { this.pending.delete(id); reject(err as Error); }
    });
  }

  /** The write generation of these tables (a cache's), or of all watched tables. */
  writeGeneration(tables?: readonly string[]): number {
    if (!tables) return this.allGenerations;
    let sum = 0;
    for (const t of tables) sum += this.tableGenerations.get(t) ?? 0;
    return sum;
  }

  private moveGenerations(tables: Iterable<string>) {
    for (const t of tables) { this.tableGenerations.set(t, (this.tableGenerations.get(t) ?? 0) + 1); this.allGenerations++; }
  }

  /**
   * Sends a statement: one that may change cached tables (db/read-cache.ts) moves their write generations before it
   * is sent and after it settles, and adds them to its transaction's (`touched`), whose end moves them again.
   */
  private send<T>(text: string, send: () => Promise<T>, touched?: Set<string>): Promise<T> {
    // A data-modifying `with`, a `select` of a writing function... anything but a plain select may write.
    if (isReadOnly(text) || inDeclaredWrite()) return send();
    const tables = cachedTablesIn(text);
    if (tables.length === 0) return send();
    if (touched) for (const t of tables) touched.add(t);
    this.moveGenerations(tables);
    return send().finally(() => { this.moveGenerations(tables); });
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    let op: Op;
    try { op = queryOp(text, params, options); }
    catch (err) { return Promise.reject(err); }
    return this.send(text, () => this.call(op) as Promise<Results<T>>);
  }

  exec(text: string): Promise<Results[]> {
    return this.send(text, () => this.call({ op: 'exec', text }) as Promise<Results[]>);
  }

  /** Runs `fn` in a transaction held open in the worker: committed when `fn` resolves, rolled back when it throws. */
  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = (await this.call({ op: 'begin' })) as number;
    let closed = false;
    const touched = new Set<string>();
    const end = async (commit: boolean) => {
      try { await this.call({ op: 'end', tx: id, commit }); }
      finally { this.moveGenerations(touched); }
    };
    const tx = {
      query: <R>(text: string, params?: unknown[], options?: QueryOptions) => {
        let op: Op;
        try { op = queryOp(text, params, options, id); }
        catch (err) { return Promise.reject(err); }
        return this.send(text, () => this.call(op) as Promise<Results<R>>, touched);
      },
      exec: (text: string) => this.send(text, () => this.call({ op: 'exec', tx: id, text }) as Promise<Results[]>, touched),
      rollback: async () => { closed = true; await end(false); },
      get closed() { return closed; },
    } as unknown as Transaction;
    let result: T;
    try {
      result = await fn(tx);
    } catch (err) {
      if (!closed) { closed = true; await end(false).catch(() => {}); }
      throw err;
    }
    if (!closed) { closed = true; await end(true); }
    return result;
  }

  /** Closes PGlite in the worker (its files flushed), then ends the worker. */
  async close(): Promise<void> {
    if (this.failure) return;
    try { await this.call({ op: 'close' }); }
    finally { this.closing = true; this.worker.terminate(); }
  }

  /** For drizzle's PGlite driver, which types its client as PGlite and calls only `query` and `transaction`. */
  asPGlite(): PGlite { return this as unknown as PGlite; }
}
