// Reads reused until the database next changes (issue 16 §2). On the embedded database one process owns the data
// directory, so it sees every write: db/pglite-remote.ts counts a write generation that moves when any statement
// other than a plain `select` (or a transaction) starts and again when it ends. A value read at generation g is
// reused only while the generation is still g, so a read that overlapped a write is never reused, and no read can
// return a value older than the last write that completed before it was asked for.
// PostgreSQL registers no generation (other service instances write to it too): every read goes to the database.
import type { DB } from './index';

const generations = new WeakMap<object, () => number>();

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

  constructor(private readonly maxEntries: number) {}

  async read(db: DB, key: string, load: () => Promise<V>): Promise<V> {
    const generation = generations.get(db);
    if (!generation) return load();
    let entries = this.byDb.get(db);
    if (!entries) this.byDb.set(db, (entries = new Map()));
    const asked = generation();
    const hit = entries.get(key);
    if (hit && hit.generation === asked) return hit.value;
    const value = await load();
    if (generation() === asked) {
      entries.delete(key);
      // Oldest first out: Map keeps insertion order.
      if (entries.size >= this.maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, { generation: asked, value: deepFreeze(value) });
    }
    return value;
  }
}
