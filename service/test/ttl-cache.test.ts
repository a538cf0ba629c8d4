// The project and API-key caches' storage (repo/cache.ts, on lru-cache since issue 15 §5): at the size limit only
// the least recently used entry goes; entries expire after their own lifetime; a cached null is a hit; a lifetime
// already over stores nothing; invalidation by prefix; one load per key at a time.
import { expect, test } from 'bun:test';
import { TtlCache } from '../src/repo/cache';

test('at the limit the least recently used entry is evicted, not the whole cache', () => {
  const cache = new TtlCache<number>(60_000, 3);
  cache.set('a', 1); cache.set('b', 2); cache.set('c', 3);
  expect(cache.get('a')).toBe(1); // a is now the most recently used
  cache.set('d', 4);
  expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([1, undefined, 3, 4]);
});

test('long keys count for more: keys made up by requests cannot fill the memory (issue 30 §2)', () => {
  const cache = new TtlCache<boolean>(60_000, 100);
  for (let i = 0; i < 100; i++) cache.set(`${i}:${'k'.repeat(5_000)}`, false);
  const kept = [...Array(100).keys()].filter((i) => cache.get(`${i}:${'k'.repeat(5_000)}`) !== undefined);
  // 100 entries' share is 25,600 characters: four keys of 5,000 fit, and they are the most recent ones.
  expect(kept).toEqual([96, 97, 98, 99]);
  for (let i = 0; i < 100; i++) cache.set(`id-${i}`, true);
  expect(cache.get('id-0')).toBe(true);
});

test('entries expire after their own lifetime; null is cached; an expired lifetime stores nothing', async () => {
  const cache = new TtlCache<string | null>(60_000);
  cache.set('short', 'x', 30);
  cache.set('missing', null);
  cache.set('over', 'y', 0);
  cache.set('negative', 'z', -5);
  expect(cache.get('short')).toBe('x');
  expect(cache.get('missing')).toBeNull();
  expect([cache.get('over'), cache.get('negative')]).toEqual([undefined, undefined]);
  await Bun.sleep(60);
  expect(cache.get('short')).toBeUndefined();
  expect(cache.get('missing')).toBeNull();
});

test('invalidation by prefix, and a load begun before an invalidation is not stored', async () => {
  const cache = new TtlCache<number>(60_000);
  cache.set('p1\u0000a', 1); cache.set('p1\u0000b', 2); cache.set('p2\u0000a', 3);
  cache.invalidate('p1\u0000');
  expect([cache.get('p1\u0000a'), cache.get('p1\u0000b'), cache.get('p2\u0000a')]).toEqual([undefined, undefined, 3]);

  let loads = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const load = async () => { loads++; await gate; return 42; };
  const both = Promise.all([cache.getOrLoad('k', load, () => 60_000), cache.getOrLoad('k', load, () => 60_000)]);
  cache.invalidate();
  release();
  expect(await both).toEqual([42, 42]);
  expect(loads).toBe(1);
  expect(cache.get('k')).toBeUndefined();
});

test('forget removes one key exactly (not the keys it is a prefix of), and a load in flight is not stored', async () => {
  const cache = new TtlCache<string>(60_000);
  cache.set('p\nclient', 'kept'); cache.set('p\nclient-2', 'other');
  cache.forget('p\nclient');
  expect([cache.get('p\nclient'), cache.get('p\nclient-2')]).toEqual([undefined, 'other']);
  let finish!: (v: string) => void;
  const loading = cache.getOrLoad('p\nclient', () => new Promise<string>((resolve) => { finish = resolve; }), () => 60_000);
  cache.forget('p\nclient');
  finish('read before the change');
  expect(await loading).toBe('read before the change');
  expect(cache.get('p\nclient')).toBeUndefined();
  expect(await cache.getOrLoad('p\nclient', async () => 'read after', () => 60_000)).toBe('read after');
});
