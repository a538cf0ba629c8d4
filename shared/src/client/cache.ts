// Client-side cache (client-library §4.6): one entry per dependency tuple; fetches per entry run one at a time
// (calls arriving meanwhile share one follow-up fetch), start at most every 300 ms, and apply in request order.
// Promise reads always fetch; hook reads (`read`) use the cached value. Subscribers are notified on every change;
// an entry whose last subscriber left is dropped after 5 s so the next read fetches again.
//
// Keys are compared by identity for objects (sessions) and held weakly (§4.6), like the reference SDK's
// dependency map: an entry whose key contains an object lives in a WeakMap bucket of that object, so per-request
// sessions on a server (`getUser({tokenStore: request})`) are collected with their entries once the request is
// gone. Dropping never-subscribed entries on a timer instead would break the spec's rule that only unsubscribing
// starts the 5 s grace, and would still pin every session for 5 s; the weak bucket frees exactly what can no longer
// be asked for (nobody can build that key again once the session object is unreachable).
import { CACHE_THROTTLE_MS, CACHE_UNSUBSCRIBE_GRACE_MS } from './constants.ts';
import type { ClientTimers } from './timers.ts';

export type CacheSnapshot<V> =
  | { status: 'empty' }
  | { status: 'ok'; value: V }
  | { status: 'error'; error: unknown };

/** A cached read bound to one key: what `listX()`/`getX()` use, and what the React hooks (`useX()`) will use. */
export interface CachedRead<V> {
  /** Always fetches (subject to batching/throttle) and stores the result. */
  get(): Promise<V>;
  /** Cached value if present, else joins the pending fetch, else fetches (for suspense-style hooks). */
  read(): Promise<V>;
  /** Synchronous view of the entry; stable (same object) until the entry changes. */
  peek(): CacheSnapshot<V>;
  /** `cb` runs after every change of the entry; returns the unsubscribe function. */
  subscribe(cb: () => void): () => void;
}

let nextObjectId = 1;
const objectIds = new WeakMap<object, number>();
function objectId(obj: object): number {
  let id = objectIds.get(obj);
  if (id === undefined) objectIds.set(obj, (id = nextObjectId++));
  return id;
}

/** Objects (sessions) compare by identity, everything else by value. */
export function cacheKeyString(key: readonly unknown[]): string {
  return JSON.stringify(
    key.map((k) =>
      typeof k === 'object' && k !== null ? { o: objectId(k) } : k === undefined ? { u: 1 } : typeof k === 'function' ? { f: objectId(k) } : k,
    ),
  );
}

class Entry<K, V> {
  snapshot: CacheSnapshot<V> = { status: 'empty' };
  running: Promise<V> | null = null;
  queued: Promise<V> | null = null;
  lastStart = -Infinity;
  startedSeq = 0;
  appliedSeq = 0;
  subscribers = new Set<() => void>();
  graceTimer: unknown = undefined;
  dependencyUnsubscribe: (() => void) | undefined;
  memo = new Map<string, { from: CacheSnapshot<unknown>; to: CacheSnapshot<unknown> }>();
  constructor(readonly key: K) {}
}

export interface AsyncCacheOptions<K> {
  timers: ClientTimers;
  /** Runs when an entry gets its first subscriber; e.g. "refresh when the session is invalidated". */
  onFirstSubscribe?: (key: K, refresh: () => void) => (() => void) | undefined;
  throttleMs?: number;
  unsubscribeGraceMs?: number;
}

type Bucket<K, V> = { ref: WeakRef<object>; entries: Map<string, Entry<K, V>> };

/** The first object (or function) of a key: the entry is held only as long as it is reachable. */
function weakAnchor(key: readonly unknown[]): object | undefined {
  return key.find((k): k is object => (typeof k === 'object' && k !== null) || typeof k === 'function');
}

export class AsyncCache<K extends readonly unknown[], V> {
  /** Entries whose key holds only primitives. */
  readonly #strong = new Map<string, Entry<K, V>>();
  /** Entries whose key holds an object, bucketed by that object (current keys hold at most one: the session). */
  readonly #weak = new WeakMap<object, Bucket<K, V>>();
  /** The live buckets, for iteration (`refreshWhere`, `size`); pruned when their anchor is collected. */
  readonly #buckets = new Set<WeakRef<object>>();
  readonly #finalizer = new FinalizationRegistry<WeakRef<object>>((ref) => this.#buckets.delete(ref));
  readonly #fetcher: (key: K) => Promise<V>;
  readonly #opts: AsyncCacheOptions<K>;

  constructor(fetcher: (key: K) => Promise<V>, opts: AsyncCacheOptions<K>) {
    this.#fetcher = fetcher;
    this.#opts = opts;
  }

  #map(key: K, create: boolean): Map<string, Entry<K, V>> | undefined {
    const anchor = weakAnchor(key);
    if (anchor === undefined) return this.#strong;
    let bucket = this.#weak.get(anchor);
    if (!bucket && create) {
      bucket = { ref: new WeakRef(anchor), entries: new Map() };
      this.#weak.set(anchor, bucket);
      this.#buckets.add(bucket.ref);
      this.#finalizer.register(anchor, bucket.ref, bucket.ref);
    }
    return bucket?.entries;
  }

  #find(key: K): Entry<K, V> | undefined {
    return this.#map(key, false)?.get(cacheKeyString(key));
  }

  #entry(key: K): Entry<K, V> {
    const map = this.#map(key, true)!;
    const s = cacheKeyString(key);
    let entry = map.get(s);
    if (!entry) map.set(s, (entry = new Entry<K, V>(key)));
    return entry;
  }

  #delete(entry: Entry<K, V>): void {
    const map = this.#map(entry.key, false);
    const s = cacheKeyString(entry.key);
    if (!map || map.get(s) !== entry) return;
    map.delete(s);
    const anchor = weakAnchor(entry.key);
    if (anchor !== undefined && map.size === 0) {
      const bucket = this.#weak.get(anchor)!;
      this.#weak.delete(anchor);
      this.#buckets.delete(bucket.ref);
      this.#finalizer.unregister(bucket.ref);
    }
  }

  *#all(): IterableIterator<Entry<K, V>> {
    yield* this.#strong.values();
    for (const ref of [...this.#buckets]) {
      const anchor = ref.deref();
      if (anchor === undefined) {
        this.#buckets.delete(ref);
        continue;
      }
      const bucket = this.#weak.get(anchor);
      if (bucket) yield* bucket.entries.values();
    }
  }

  /** Number of live entries (for tests and debugging). */
  get size(): number {
    let n = 0;
    for (const _ of this.#all()) n++;
    return n;
  }

  has(key: K): boolean {
    return this.#find(key) !== undefined;
  }

  /** Write-only read: fetch and store. */
  refresh(key: K): Promise<V> {
    const entry = this.#entry(key);
    if (entry.queued) return entry.queued;
    if (!entry.running) return this.#start(entry);
    const after = entry.running.then(
      () => undefined,
      () => undefined,
    );
    entry.queued = after.then(() => {
      entry.queued = null;
      return this.#start(entry);
    });
    return entry.queued;
  }

  /** Read-write read: the cached result if there is one, else the pending fetch, else a new fetch. */
  getOrWait(key: K): Promise<V> {
    const entry = this.#entry(key);
    const snap = entry.snapshot;
    if (snap.status === 'ok') return Promise.resolve(snap.value);
    if (snap.status === 'error') return Promise.reject(snap.error);
    return entry.queued ?? entry.running ?? this.refresh(key);
  }

  peek(key: K): CacheSnapshot<V> {
    return this.#find(key)?.snapshot ?? EMPTY;
  }

  /** Stores a value without fetching (e.g. seeding the current user from server-side rendering). */
  set(key: K, value: V): void {
    const entry = this.#entry(key);
    entry.appliedSeq = entry.startedSeq;
    this.#apply(entry, { status: 'ok', value });
  }

  /**
   * Seeds an entry from a value that is still on its way (e.g. a user fetched during server rendering): hook reads
   * wait for it instead of fetching, later fetches queue behind it, and a failure is stored like a failed fetch.
   * Resolves once the value is applied (never rejects).
   */
  setAsync(key: K, value: Promise<V>): Promise<void> {
    const entry = this.#entry(key);
    const seq = ++entry.startedSeq;
    const settle = (snapshot: CacheSnapshot<V>) => {
      if (seq > entry.appliedSeq) {
        entry.appliedSeq = seq;
        this.#apply(entry, snapshot);
      }
    };
    const promise: Promise<V> = value
      .then(
        (v) => (settle({ status: 'ok', value: v }), v),
        (error) => {
          settle({ status: 'error', error });
          throw error;
        },
      )
      .finally(() => {
        if (entry.running === promise) entry.running = null;
      });
    entry.running = promise;
    return promise.then(
      () => undefined,
      () => undefined,
    );
  }

  /** Refreshes every entry whose key matches (cache invalidation after a mutation). */
  async refreshWhere(predicate: (key: K) => boolean): Promise<void> {
    const matching = [...this.#all()].filter((e) => predicate(e.key));
    await Promise.all(matching.map((e) => this.refresh(e.key).catch(() => undefined)));
  }

  subscribe(key: K, cb: () => void): () => void {
    const entry = this.#entry(key);
    const { timers } = this.#opts;
    if (entry.graceTimer !== undefined) {
      timers.clearTimeout(entry.graceTimer);
      entry.graceTimer = undefined;
    }
    entry.subscribers.add(cb);
    if (entry.subscribers.size === 1) {
      entry.dependencyUnsubscribe = this.#opts.onFirstSubscribe?.(key, () => void this.refresh(key).catch(() => undefined));
    }
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      entry.subscribers.delete(cb);
      if (entry.subscribers.size > 0) return;
      entry.dependencyUnsubscribe?.();
      entry.dependencyUnsubscribe = undefined;
      if (entry.graceTimer !== undefined) timers.clearTimeout(entry.graceTimer);
      entry.graceTimer = timers.setTimeout(() => {
        entry.graceTimer = undefined;
        if (entry.subscribers.size === 0) this.#delete(entry);
      }, this.#opts.unsubscribeGraceMs ?? CACHE_UNSUBSCRIBE_GRACE_MS);
    };
  }

  /** A handle on one key, optionally mapping the raw value (memoised per `tag` so snapshots stay stable). */
  handle<W = V>(key: K, tag = 'raw', map?: (value: V) => W): CachedRead<W> {
    const mapValue = map ?? ((v: V) => v as unknown as W);
    const peek = (): CacheSnapshot<W> => {
      const entry = this.#find(key);
      if (!entry || entry.snapshot.status !== 'ok') return (entry?.snapshot ?? EMPTY) as CacheSnapshot<W>;
      const memo = entry.memo.get(tag);
      if (memo && memo.from === entry.snapshot) return memo.to as CacheSnapshot<W>;
      const to: CacheSnapshot<W> = { status: 'ok', value: mapValue(entry.snapshot.value) };
      entry.memo.set(tag, { from: entry.snapshot, to });
      return to;
    };
    return {
      get: () => this.refresh(key).then(mapValue),
      read: () => this.getOrWait(key).then(() => {
        const snap = peek();
        if (snap.status === 'ok') return snap.value;
        if (snap.status === 'error') throw snap.error;
        return this.refresh(key).then(mapValue);
      }),
      peek,
      subscribe: (cb) => this.subscribe(key, cb),
    };
  }

  #start(entry: Entry<K, V>): Promise<V> {
    const { timers } = this.#opts;
    const throttle = this.#opts.throttleMs ?? CACHE_THROTTLE_MS;
    const wait = entry.lastStart + throttle - timers.now();
    // Sequence numbers follow call order, so a result never replaces one of a later fetch or a later `set`.
    const seq = ++entry.startedSeq;
    const promise = (wait > 0 ? timers.sleep(wait) : Promise.resolve())
      .then(() => {
        entry.lastStart = timers.now();
        return this.#fetcher(entry.key).then(
          (value) => {
            if (seq > entry.appliedSeq) {
              entry.appliedSeq = seq;
              this.#apply(entry, { status: 'ok', value });
            }
            return value;
          },
          (error) => {
            if (seq > entry.appliedSeq) {
              entry.appliedSeq = seq;
              this.#apply(entry, { status: 'error', error });
            }
            throw error;
          },
        );
      })
      .finally(() => {
        if (entry.running === promise) entry.running = null;
      });
    entry.running = promise;
    // Unobserved failures are delivered to readers; don't report them as unhandled here.
    promise.catch(() => undefined);
    return promise;
  }

  #apply(entry: Entry<K, V>, snapshot: CacheSnapshot<V>): void {
    entry.snapshot = snapshot;
    for (const cb of [...entry.subscribers]) cb();
  }
}

const EMPTY: CacheSnapshot<never> = Object.freeze({ status: 'empty' });
