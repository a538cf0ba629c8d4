// Small TTL caches for hot, rarely-changing rows (projects, API keys). Changes made by this instance clear
// entries at once through `invalidate`; other instances learn of them through the database's change channel
// (Postgres LISTEN/NOTIFY, see services.ts) or, at worst, after the TTL.
export class TtlCache<V> {
  private entries = new Map<string, { value: V; until: number }>();
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

  /** Removes entries whose key starts with `prefix` (all entries when omitted). */
  invalidate(prefix?: string) {
    if (prefix === undefined) { this.entries.clear(); return; }
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}
