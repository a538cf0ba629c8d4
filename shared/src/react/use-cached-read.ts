// A CachedRead of the client library as React state: subscribe + synchronous snapshot, and suspend (React's
// `use`) on the first fetch, so the first render of a page waits for data instead of flashing an empty state.
// The account kit's hooks and the console's are built on it.
import { use, useSyncExternalStore } from 'react';
import type { CachedRead, CacheSnapshot } from '../client/index.ts';

/** A promise that says how it settled, as React's `use` reads it (it then needs no listener of its own). */
type Tracked<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

// One promise per read object while it is pending: React's `use` wants the same thenable across retries.
const pending = new WeakMap<object, Tracked<unknown>>();
// The promise a render suspended on, kept after it resolved: the replay of that render passes it to `use` again.
const suspendedOn = new WeakMap<object, Tracked<unknown>>();
/** For a read whose value was there without waiting. One object, so every render passes `use` the same thenable. */
const READY: Tracked<undefined> = Object.assign(Promise.resolve(undefined), { status: 'fulfilled' as const, value: undefined });

function pendingRead<T>(read: CachedRead<T>): Tracked<T> {
  let p = pending.get(read) as Tracked<T> | undefined;
  if (!p) {
    const started: Tracked<T> = Object.assign(read.read(), { status: 'pending' as const });
    started.then(
      (value) => { Object.assign(started, { status: 'fulfilled', value }); pending.delete(read); },
      (reason: unknown) => { Object.assign(started, { status: 'rejected', reason }); pending.delete(read); suspendedOn.delete(read); },
    );
    pending.set(read, started);
    suspendedOn.set(read, started);
    p = started;
  }
  return p;
}

export function useCachedRead<T>(read: CachedRead<T>): T {
  const snapshot: CacheSnapshot<T> = useSyncExternalStore(read.subscribe, read.peek, read.peek);
  if (snapshot.status === 'error') throw snapshot.error;
  if (snapshot.status === 'ok') {
    // `use` on every render, also once the value is there. A component that suspended here on its first render is
    // replayed when the read resolves, with the hooks it ran so far; React's `use` is what switches that replay to
    // mounting the hooks after it. Skipping it on the replay (the snapshot is ready by then) left the component's
    // next `useState` "updating" a hook it never had: React error #467, recovered by rendering the whole root again
    // and reported as #520 (issue 25). The replay gets the very promise it suspended on (a new one would be an
    // "uncached promise" to React); its value is the snapshot's.
    const settled = suspendedOn.get(read);
    use<unknown>(settled?.status === 'fulfilled' ? (settled as Promise<unknown>) : (READY as Promise<unknown>));
    return snapshot.value;
  }
  return use(pendingRead(read) as Promise<T>);
}
