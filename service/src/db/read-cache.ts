// Reads reused until the database next changes what they read (issue 16 §2). On the embedded database one process
// owns the data directory, so it sees every write: db/pglite-remote.ts counts a write generation that moves when a
// statement that may change a cached table starts and again when it ends (any statement but a plain `select` that
// names one of the tables the caches declare; a transaction's end after such a statement). A value read at
// generation g is reused only while the generation is still g, so a read that overlapped such a write is never
// reused, and no read can return a value older than the last such write that completed before it was asked for.
// Writes to other tables (the email outbox, webhook deliveries, housekeeping) leave the caches alone.
// PostgreSQL registers no generation (other service instances write to it too): every read goes to the database.
// One write is declared instead (`declaredWrite`): the activity flush, every second under load, changes one cached
// column of the users it names and patches their cached rows itself, so it does not empty the whole cache.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DB } from './index';

const generations = new WeakMap<object, () => number>();
/** Every table some ReadCache's values are read from, or that a trigger or a foreign key action changes them through. */
const watched = new Set<string>();
let watchedPattern: RegExp | undefined;

/**
 * May this write change what a ReadCache keeps? Conservative: true when the statement names any watched table
 * anywhere (a column, a comment...). With no cache declared, every write counts.
 */
export function touchesCachedTables(text: string): boolean {
  if (watched.size === 0) return true;
  watchedPattern ??= new RegExp(`\\b(?:${[...watched].join('|')})\\b`, 'i');
  return watchedPattern.test(text);
}
const declared = new AsyncLocalStorage<true>();
/** Moves when a declared write starts and ends: a read that overlapped one is not kept. */
let declaredEpoch = 0;

/** True inside `declaredWrite`: the write generation is not moved for the statements run there. */
export function inDeclaredWrite(): boolean {
  return declared.getStore() === true;
}

/**
 * Runs `write`, whose every effect on cached reads the caller applies itself (`ReadCache.patch`) before it resolves.
 * Every ReadCache must be covered by that: today the only cache is the user row, and the only declared write the
 * activity flush (auth/activity.ts), which changes `last_active_at` of the users it names and nothing else cached.
 */
export async function declaredWrite<T>(write: () => Promise<T>): Promise<T> {
  declaredEpoch++;
  try { return await declared.run(true, write); } finally { declaredEpoch++; }
}

/** Declares that every write to `db` moves `generation` (only for a database this process alone writes to). */
export function registerWriteGeneration(db: DB, generation: () => number): void {
  generations.set(db, generation);
}

/** The handle's write generation now (undefined: none registered). */
export function writeGeneration(db: DB): number | undefined {
  return generations.get(db)?.();
}

/** Cached values are frozen: a caller that changed one would change what the next request reads. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * A bounded cache of one kind of read, per database handle. Handles without a registered generation (PostgreSQL, and
 * every transaction, whose reads may see its own uncommitted writes) always load.
 */
export class ReadCache<V> {
  private readonly byDb = new WeakMap<object, Map<string, { generation: number; value: V }>>();

  /**
   * `tables`: what the values are read from, plus every table whose writes reach those through a trigger or a
   * foreign key's cascade (checked against the schema by service/test/read-cache.test.ts).
   */
  constructor(private readonly maxEntries: number, readonly tables: readonly string[]) {
    for (const table of tables) {
      if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`Not a table name: ${table}`);
      watched.add(table);
    }
    watchedPattern = undefined;
  }

  async read(db: DB, key: string, load: () => Promise<V>): Promise<V> {
    const generation = generations.get(db);
    if (!generation) return load();
    let entries = this.byDb.get(db);
    if (!entries) this.byDb.set(db, (entries = new Map()));
    const asked = generation();
    const epoch = declaredEpoch;
    const hit = entries.get(key);
    if (hit && hit.generation === asked) return hit.value;
    const value = await load();
    if (generation() === asked && declaredEpoch === epoch) {
      entries.delete(key);
      // Oldest first out: Map keeps insertion order.
      if (entries.size >= this.maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, { generation: asked, value: deepFreeze(value) });
    }
    return value;
  }

  /** Applies a declared write's effect to a kept value (nothing when the key is not kept). */
  patch(db: DB, key: string, change: (value: V) => V): void {
    const hit = this.byDb.get(db)?.get(key);
    if (hit) hit.value = deepFreeze(change(hit.value));
  }
}
