// Small TTL caches for hot, rarely-changing rows (projects, API keys). Changes made by this instance clear
// entries at once through `invalidate`; other instances learn of them through the database's change channel
// (Postgres LISTEN/NOTIFY, see services.ts) or, at worst, after the TTL. Storage is lru-cache: at the size limit the
// least recently used entry goes (not the whole cache, which made every hot key miss at once). Keys come from requests
// (a project id, an API key as sent), so the limit counts their length as well as their number: long made-up keys
// evict sooner instead of growing the memory (issue 30 §2).
import { LRUCache } from 'lru-cache';

/** Characters of key an entry may have before it counts for more than one (ids and keys are well below it). */
const ENTRY_SHARE = 256;

export class TtlCache<V> {
  // Boxed: lru-cache keeps no null values, and a cached "not found" (null) is a hit.
  private readonly entries: LRUCache<string, { value: V }>;
  // Refills in flight: when an entry expires under load, every concurrent request for it would otherwise run the
  // same query at once (a burst that queues behind the pool); they share one load instead.
  private loading = new Map<string, Promise<V>>();
  // Bumped by `invalidate`: a load that started before an invalidation must not store its (maybe stale) result.
  private generation = 0;
  constructor(private readonly ttlMs: number, limit = 10_000) {
    // An entry counts its key's length plus a fixed share for the value: `limit` entries of keys up to ENTRY_SHARE long.
    this.entries = new LRUCache<string, { value: V }>({
      max: limit, ttl: ttlMs, maxSize: limit * ENTRY_SHARE, sizeCalculation: (_value, key) => key.length + ENTRY_SHARE / 2,
    });
  }

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: string, value: V, ttlMs = this.ttlMs) {
    // A lifetime already over (a key expiring now) is not stored; lru-cache would read ttl 0 as "forever".
    if (ttlMs <= 0) { this.entries.delete(key); return; }
    this.entries.set(key, { value }, { ttl: ttlMs });
  }

  /** The cached value, or the result of `load` (one load per key at a time), stored for `ttlOf(value)` ms. */
  async getOrLoad(key: string, load: () => Promise<V>, ttlOf: (value: V) => number): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    let pending = this.loading.get(key);
    if (!pending) {
      const generation = this.generation;
      pending = load().then((value) => {
        if (generation === this.generation) this.set(key, value, ttlOf(value));
        return value;
      }).finally(() => {
        if (this.loading.get(key) === pending) this.loading.delete(key);
      });
      this.loading.set(key, pending);
    }
    return pending;
  }

  /** Removes one entry; a load in flight then stores nothing (of any key: a change is rare, the next read refills). */
  forget(key: string) {
    this.generation++;
    this.entries.delete(key);
    this.loading.delete(key);
  }

  /** Removes entries whose key starts with `prefix` (all entries when omitted). */
  invalidate(prefix?: string) {
    this.generation++;
    if (prefix === undefined) { this.entries.clear(); this.loading.clear(); return; }
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
    for (const key of this.loading.keys()) if (key.startsWith(prefix)) this.loading.delete(key);
  }
}
