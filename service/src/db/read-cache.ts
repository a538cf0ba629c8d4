// Reads reused until the database next changes what they read (issue 16 §2). On the embedded database one process
// owns the data directory, so it sees every write: db/pglite-remote.ts counts writes per table. A statement that may
// change a cached table (any statement but a plain `select`) moves the count of every watched table it names when it
// starts and again when it ends (a transaction's end moves those its statements named). A cache's generation is the
// sum of its own tables' counts: a value read at generation g is reused only while it is still g, so a read that
// overlapped such a write is never reused, and no read can return a value older than the last such write that
// completed before it was asked for. Writes to other tables (the email outbox, webhook deliveries, housekeeping), and
// to another cache's tables only, leave a cache alone.
// PostgreSQL registers no generation (other service instances write to it too): a cache that says how (`onPostgres`)
// keeps values there by the database's change notices instead (db/change-notices.ts); every other read goes to the
// database.
// One write is declared instead (`declaredWrite`): the activity flush, every second under load, changes
// `users.last_active_at` of the users it names (the user-row cache patches their rows itself) and sessions' last use
// (no cache reads it), so it does not empty the caches.
// Each cache declares only the tables its values are read from; the tables whose writes reach those through a trigger
// or a foreign key action are derived from the migrated schema (db/write-reach.ts) when the database is opened.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DB } from './handle';
import type { WriteReach } from './write-reach';
import type { ChangeNotices, NoticeIds } from './change-notices';

/** A handle's write generation: of the given tables (a cache's), or of every watched table without them. */
export type WriteGeneration = (tables?: readonly string[]) => number;
const generations = new WeakMap<object, WriteGeneration>();
/** Every ReadCache made: their watched tables together are the ones whose writes move generations. */
const caches: ReadCache<unknown>[] = [];
/**
 * The schema's write reach, from the first database registered with it: every database is migrated by the same
 * migrations. Until then (and for handles registered without one) a cache watches only the tables it reads.
 */
let schemaReach: WriteReach = (reads) => reads;
let reachVersion = 0;
/** Every table some ReadCache's values are read from, or that a trigger or a foreign key action changes them through. */
let watched = new Set<string>();
let watchedPattern: RegExp | undefined;
const namedBy = new Map<string, readonly string[]>();

function rewatch(): void {
  watched = new Set(caches.flatMap((c) => [...c.tables]));
  watchedPattern = undefined;
  namedBy.clear();
}

/**
 * May this write change what a ReadCache keeps? Conservative: true when the statement names any watched table
 * anywhere (a column, a comment...). With no cache declared, every write counts.
 */
export function touchesCachedTables(text: string): boolean {
  if (watched.size === 0) return true;
  watchedPattern ??= new RegExp(`\\b(?:${[...watched].join('|')})\\b`, 'i');
  return watchedPattern.test(text);
}

/** The watched tables a statement names anywhere (conservative, as `touchesCachedTables`); remembered per text. */
export function cachedTablesIn(text: string): readonly string[] {
  let tables = namedBy.get(text);
  if (tables === undefined) {
    tables = touchesCachedTables(text) ? [...watched].filter((t) => new RegExp(`\\b${t}\\b`, 'i').test(text)) : [];
    if (namedBy.size >= 2000) namedBy.clear();
    namedBy.set(text, tables);
  }
  return tables;
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
 * Every ReadCache must be covered by that. The only declared write is the activity flush (auth/activity.ts): it
 * changes `last_active_at` of the users it names (patched in the user-row cache) and the sessions' last use and IP
 * (the session lookup, repo/sessions.ts, reads neither).
 */
export async function declaredWrite<T>(write: () => Promise<T>): Promise<T> {
  declaredEpoch++;
  try { return await declared.run(true, write); } finally { declaredEpoch++; }
}

/**
 * Declares that every write to `db` moves `generation` (only for a database this process alone writes to); `reach`:
 * the schema's write reach (db/write-reach.ts), read from the database's catalog.
 */
export function registerWriteGeneration(db: DB, generation: WriteGeneration, reach?: WriteReach): void {
  generations.set(db, generation);
  if (reach) {
    schemaReach = reach;
    reachVersion++;
    rewatch();
  }
}

const noticesOf = new WeakMap<object, ChangeNotices>();

/** Declares that `db` (a PostgreSQL pool's handle, not a transaction's) hears the change notices of `notices`. */
export function registerChangeNotices(db: DB, notices: ChangeNotices): void {
  noticesOf.set(db, notices);
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

interface Entry<V> {
  generation: number;
  value: V;
  /** PostgreSQL: when its load began, and the notice ids it depends on. */
  at?: number;
  dependsOn?: NoticeIds;
}

/**
 * A bounded cache of one kind of read, per database handle. Handles without a registered generation (PostgreSQL, and
 * every transaction, whose reads may see its own uncommitted writes) always load, except a PostgreSQL pool's handle
 * with change notices for a cache that says how to keep its values by them (`onPostgres`).
 */
export class ReadCache<V> {
  private readonly byDb = new WeakMap<object, Map<string, Entry<V>>>();
  /** PostgreSQL: the kept keys by the notice ids their values depend on. */
  private readonly dependents = new WeakMap<object, Map<string, Set<string>>>();
  private derived: { version: number; tables: readonly string[] } | undefined;

  /**
   * `reads`: the tables the values are read from (the one declaration: the tables whose writes reach them are derived
   * from the schema).
   */
  constructor(private readonly maxEntries: number, readonly reads: readonly string[], private readonly options: {
    /** Whether a loaded value is kept (default: all are). A lookup by a secret keeps no miss: guesses would fill it. */
    keep?: (value: V) => boolean;
    /**
     * Kept on PostgreSQL too, by change notices (db/change-notices.ts): `dependsOn`, the rows a value was read from
     * as notice ids (a notice for one drops it); `keep`, which values are kept there (notices come for updates and
     * deletes only: a miss must not be kept); `maxAgeMs`, how long a value is served at most (for what changes
     * without a notice, such as the users' last activity).
     */
    onPostgres?: { dependsOn: (key: string, value: V) => NoticeIds; keep: (value: V) => boolean; maxAgeMs: number };
  } = {}) {
    for (const table of reads) if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`Not a table name: ${table}`);
    caches.push(this as ReadCache<unknown>);
    rewatch();
  }

  /** The tables whose writes end the reuse: `reads`, and every table whose writes reach them. */
  get tables(): readonly string[] {
    if (this.derived?.version !== reachVersion) this.derived = { version: reachVersion, tables: schemaReach(this.reads) };
    return this.derived.tables;
  }

  private entriesOf(db: DB) {
    let entries = this.byDb.get(db);
    if (!entries) {
      this.byDb.set(db, (entries = new Map()));
      const kept = entries;
      const notices = noticesOf.get(db);
      if (notices && this.options.onPostgres) {
        const dependents = new Map<string, Set<string>>();
        this.dependents.set(db, dependents);
        notices.register({
          forget: (id) => {
            if (id === undefined) { kept.clear(); dependents.clear(); return; }
            for (const key of dependents.get(id) ?? []) this.drop(db, key);
          },
        });
      }
    }
    return entries;
  }

  private drop(db: DB, key: string) {
    const entries = this.byDb.get(db);
    const entry = entries?.get(key);
    if (!entry) return;
    entries!.delete(key);
    const dependents = this.dependents.get(db);
    for (const id of entry.dependsOn ?? []) {
      const keys = dependents?.get(id);
      keys?.delete(key);
      if (keys?.size === 0) dependents!.delete(id);
    }
  }

  private store(db: DB, key: string, entry: Entry<V>) {
    const entries = this.entriesOf(db);
    this.drop(db, key);
    // Oldest first out: Map keeps insertion order.
    if (entries.size >= this.maxEntries) this.drop(db, entries.keys().next().value!);
    entry.value = deepFreeze(entry.value);
    entries.set(key, entry);
    const dependents = this.dependents.get(db);
    if (dependents) for (const id of entry.dependsOn ?? []) {
      let keys = dependents.get(id);
      if (!keys) dependents.set(id, (keys = new Set()));
      keys.add(key);
    }
  }

  /** How many values are kept for `db` now (tests and the memory figure of bench/RESULTS.md). */
  size(db: DB): number {
    return this.byDb.get(db)?.size ?? 0;
  }

  async read(db: DB, key: string, load: () => Promise<V>): Promise<V> {
    const generation = generations.get(db);
    if (!generation) {
      const notices = this.options.onPostgres && noticesOf.get(db);
      return notices ? this.readByNotices(db, notices, key, load) : load();
    }
    const entries = this.entriesOf(db);
    const asked = generation(this.tables);
    const epoch = declaredEpoch;
    const hit = entries.get(key);
    if (hit && hit.generation === asked) return hit.value;
    const value = await load();
    if (generation(this.tables) === asked && declaredEpoch === epoch && (this.options.keep?.(value) ?? true)) {
      this.store(db, key, { generation: asked, value });
    }
    return value;
  }

  private async readByNotices(db: DB, notices: ChangeNotices, key: string, load: () => Promise<V>): Promise<V> {
    const { dependsOn, keep, maxAgeMs } = this.options.onPostgres!;
    const hit = this.entriesOf(db).get(key);
    if (hit && Date.now() - hit.at! < maxAgeMs && notices.mayServe(hit.dependsOn!)) return hit.value;
    const begun = notices.beginLoad();
    const startedAt = Date.now();
    const epoch = declaredEpoch;
    const value = await load();
    if (begun !== undefined && declaredEpoch === epoch && keep(value)) {
      const ids = dependsOn(key, value);
      if (notices.mayKeep(begun, ids)) this.store(db, key, { generation: 0, value, at: startedAt, dependsOn: ids });
    }
    return value;
  }

  /** Applies a declared write's effect to a kept value (nothing when the key is not kept). */
  patch(db: DB, key: string, change: (value: V) => V): void {
    const hit = this.byDb.get(db)?.get(key);
    if (hit) hit.value = deepFreeze(change(hit.value));
  }
}
