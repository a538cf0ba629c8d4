// Small TTL caches for hot, rarely-changing rows (projects, API keys). Changes made by this instance clear
// entries at once through `invalidate`; other instances learn of them through the database's change channel
// (Postgres LISTEN/NOTIFY, see services.ts) or, at worst, after the TTL.
export class TtlCache<V> {
  private entries = new Map<string, { value: V; until: number }>();
  // Refills in flight: when an entry expires under load, every concurrent request for it would otherwise run the
  // same query at once (a burst that queues behind the pool); they share one load instead.
  private loading = new Map<string, Promise<V>>();
  // Bumped by `invalidate`: a load that started before an invalidation must not store its (maybe stale) result.
  private generation = 0;
  constructor(private readonly ttlMs: number, private readonly limit = 10_000) {}

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.until <= Date.now()) { this.entries.delete(key); return undefined; }
    return e.value;
  }

  set(key: string, value: V, ttlMs = this.ttlMs) {
    if (this.entries.size >= this.limit) this.entries.clear();
    this.entries.set(key, { value, until: Date.now() + ttlMs });
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

  /** Removes entries whose key starts with `prefix` (all entries when omitted). */
  invalidate(prefix?: string) {
    this.generation++;
    if (prefix === undefined) { this.entries.clear(); this.loading.clear(); return; }
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
    for (const key of this.loading.keys()) if (key.startsWith(prefix)) this.loading.delete(key);
  }
}
