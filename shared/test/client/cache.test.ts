import { describe, expect, test } from 'bun:test';
import { AsyncCache } from '../../src/client/cache.ts';
import { fakeTimers } from './support.ts';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((a, b) => ((resolve = a), (reject = b)));
  return { promise, resolve, reject };
}

describe('AsyncCache', () => {
  test('concurrent reads of one key share fetches: one running + one batched follow-up', async () => {
    const ft = fakeTimers();
    const calls: string[] = [];
    const gates: ReturnType<typeof deferred<number>>[] = [];
    const cache = new AsyncCache<[string], number>(async ([k]) => {
      calls.push(k);
      const d = deferred<number>();
      gates.push(d);
      return d.promise;
    }, { timers: ft.timers });
    const reads = Array.from({ length: 20 }, () => cache.refresh(['a']));
    await Bun.sleep(0);
    expect(calls).toEqual(['a']);
    gates[0]!.resolve(1);
    await Bun.sleep(0);
    await Bun.sleep(0);
    expect(calls).toEqual(['a', 'a']);
    gates[1]!.resolve(2);
    const values = await Promise.all(reads);
    expect(values[0]).toBe(1);
    expect(values.slice(1).every((v) => v === 2)).toBe(true);
    // different key: separate entry
    const other = cache.refresh(['b']);
    await Bun.sleep(0);
    gates[2]!.resolve(3);
    expect(await other).toBe(3);
    expect(calls).toEqual(['a', 'a', 'b']);
  });

  test('fetches of one entry start at least 300 ms apart', async () => {
    const ft = fakeTimers();
    let n = 0;
    const cache = new AsyncCache<[], number>(async () => ++n, { timers: ft.timers });
    await cache.refresh([]);
    await cache.refresh([]);
    expect(ft.sleeps).toEqual([300]);
    ft.advance(1000);
    await cache.refresh([]);
    expect(ft.sleeps).toEqual([300]);
  });

  test('promise reads always fetch; hook reads use the cached value; errors are cached and rethrown', async () => {
    const ft = fakeTimers();
    let n = 0;
    let fail = false;
    const cache = new AsyncCache<[], number>(async () => {
      if (fail) throw new Error('boom');
      return ++n;
    }, { timers: ft.timers, throttleMs: 0 });
    expect(await cache.getOrWait([])).toBe(1);
    expect(await cache.getOrWait([])).toBe(1);
    expect(await cache.refresh([])).toBe(2);
    expect(cache.peek([])).toEqual({ status: 'ok', value: 2 });
    fail = true;
    await expect(cache.refresh([])).rejects.toThrow('boom');
    await expect(cache.getOrWait([])).rejects.toThrow('boom');
    expect(cache.peek([]).status).toBe('error');
  });

  test('subscribers are notified on change; the first subscriber registers the dependency hook', async () => {
    const ft = fakeTimers();
    let n = 0;
    const hooks: string[] = [];
    const refreshers: (() => void)[] = [];
    const cache = new AsyncCache<[object], number>(async () => ++n, {
      timers: ft.timers,
      throttleMs: 0,
      onFirstSubscribe: (_key, refresh) => {
        hooks.push('subscribe');
        refreshers.push(refresh);
        return () => hooks.push('unsubscribe');
      },
    });
    const session = {};
    let notified = 0;
    const un1 = cache.subscribe([session], () => notified++);
    const un2 = cache.subscribe([session], () => notified++);
    expect(hooks).toEqual(['subscribe']);
    await cache.refresh([session]);
    expect(notified).toBe(2);
    refreshers[0]!();
    await Bun.sleep(0);
    await Bun.sleep(0);
    expect(cache.peek([session])).toEqual({ status: 'ok', value: 2 });
    un1();
    un2();
    expect(hooks).toEqual(['subscribe', 'unsubscribe']);
  });

  test('an entry whose last subscriber left is dropped after 5 s unless someone resubscribes', async () => {
    const ft = fakeTimers();
    let n = 0;
    const cache = new AsyncCache<[string], number>(async () => ++n, { timers: ft.timers, throttleMs: 0 });
    let un = cache.subscribe(['k'], () => {});
    await cache.refresh(['k']);
    un();
    ft.advance(4999);
    expect(cache.has(['k'])).toBe(true);
    un = cache.subscribe(['k'], () => {}); // resubscribe cancels the drop
    ft.advance(10_000);
    expect(cache.has(['k'])).toBe(true);
    un();
    ft.advance(5000);
    expect(cache.has(['k'])).toBe(false);
    // the next hook read fetches again
    expect(await cache.getOrWait(['k'])).toBe(2);
  });

  test('a slower older response never overwrites a newer one', async () => {
    const ft = fakeTimers();
    const cache = new AsyncCache<[], string>(async () => 'fetched', { timers: ft.timers, throttleMs: 0 });
    const pending = cache.refresh([]);
    cache.set([], 'seeded-later');
    await pending;
    // the fetch started before the seed but finished after it; the seed wins only if it is newer — here the fetch
    // had already started (seq 1) and `set` marks that sequence as applied, so the stale fetch is ignored
    expect(cache.peek([])).toEqual({ status: 'ok', value: 'seeded-later' });
  });

  test('handles map values and keep a stable snapshot until the entry changes', async () => {
    const ft = fakeTimers();
    const cache = new AsyncCache<[], { n: number }>(async () => ({ n: 1 }), { timers: ft.timers, throttleMs: 0 });
    const h = cache.handle([], 'double', (v) => ({ doubled: v.n * 2 }));
    expect(h.peek()).toEqual({ status: 'empty' });
    expect(await h.read()).toEqual({ doubled: 2 });
    const snap = h.peek();
    expect(cache.handle([], 'double', (v) => ({ doubled: v.n * 2 })).peek()).toBe(snap);
    await h.get();
    expect(h.peek()).not.toBe(snap);
  });

  test('entries keyed by an object are held weakly: unreachable sessions take their entries with them', async () => {
    const ft = fakeTimers();
    const cache = new AsyncCache<[object, string], number>(async () => 1, { timers: ft.timers, throttleMs: 0 });
    const kept = {};
    await cache.refresh([kept, 'a']);
    await cache.refresh(['x' as never, 'primitive-only' as never]);
    const fill = async () => {
      for (let i = 0; i < 200; i++) await cache.refresh([{}, 'a']);
    };
    await fill();
    expect(cache.size).toBe(202);
    for (let i = 0; i < 50 && cache.size > 20; i++) {
      Bun.gc(true);
      await Bun.sleep(5);
    }
    // a few may survive conservative stack scanning, but not the bulk of them
    expect(cache.size).toBeLessThan(20);
    expect(cache.has([kept, 'a'])).toBe(true);
    let refreshed = 0;
    await cache.refreshWhere(([k]) => (k === kept ? (refreshed++, true) : false));
    expect(refreshed).toBe(1);
    expect(cache.peek([kept, 'a'])).toEqual({ status: 'ok', value: 1 });
  });

  test('the last unsubscribe of an object-keyed entry still drops it after the grace period', async () => {
    const ft = fakeTimers();
    const cache = new AsyncCache<[object], number>(async () => 1, { timers: ft.timers, throttleMs: 0 });
    const session = {};
    const un = cache.subscribe([session], () => {});
    await cache.refresh([session]);
    un();
    ft.advance(5000);
    expect(cache.has([session])).toBe(false);
    expect(cache.size).toBe(0);
  });

  test('setAsync: hook reads wait for the seeded promise instead of fetching; a refresh queues behind it', async () => {
    const ft = fakeTimers();
    let fetches = 0;
    const cache = new AsyncCache<[], string>(async () => `fetched-${++fetches}`, { timers: ft.timers, throttleMs: 0 });
    const seed = deferred<string>();
    const applied = cache.setAsync([], seed.promise);
    const read = cache.getOrWait([]);
    const refreshed = cache.refresh([]);
    await Bun.sleep(0);
    expect(fetches).toBe(0);
    seed.resolve('seeded');
    expect(await read).toBe('seeded');
    await applied;
    expect(await refreshed).toBe('fetched-1');
    expect(cache.peek([])).toEqual({ status: 'ok', value: 'fetched-1' });

    const failing = new AsyncCache<[], string>(async () => 'x', { timers: ft.timers, throttleMs: 0 });
    await failing.setAsync([], Promise.reject(new Error('render failed')));
    expect(failing.peek([]).status).toBe('error');
    await expect(failing.getOrWait([])).rejects.toThrow('render failed');
  });
});
