// A CachedRead of the client library as React state: subscribe + synchronous snapshot, and suspend (React's
// `use`) on the first fetch, so the first render of a page waits for data instead of flashing an empty state.
// The account kit's hooks and the console's are built on it.
import { use, useSyncExternalStore } from 'react';
import type { CachedRead, CacheSnapshot } from '../client/index.ts';

// One promise per read object while it is pending: React's `use` wants the same thenable across retries.
const pending = new WeakMap<object, Promise<unknown>>();

function pendingRead<T>(read: CachedRead<T>): Promise<T> {
  let p = pending.get(read) as Promise<T> | undefined;
  if (!p) {
    p = read.read();
    pending.set(read, p);
    p.then(() => pending.delete(read), () => pending.delete(read));
  }
  return p;
}

/** A thenable React's `use` reads at once (it looks at `status` before waiting). */
function settled<T>(value: T): PromiseLike<T> & { status: 'fulfilled'; value: T } {
  return { status: 'fulfilled', value, then: (onFulfilled) => Promise.resolve(value).then(onFulfilled) };
}

export function useCachedRead<T>(read: CachedRead<T>): T {
  const snapshot: CacheSnapshot<T> = useSyncExternalStore(read.subscribe, read.peek, read.peek);
  if (snapshot.status === 'error') throw snapshot.error;
  // `use` on every render, also once the value is there. A component that suspended here on its first render is
  // replayed when the read resolves, with the hooks it ran so far; React's `use` is what switches that replay to
  // mounting the hooks after it. Skipping `use` on the replay (the snapshot is ready by then) left the next
  // `useState` of the component "updating" a hook it never had: React error #467, recovered by rendering the whole
  // root again and reported as #520 on every page that read the user before its own state (issue 25).
  return use(snapshot.status === 'ok' ? settled(snapshot.value) : pendingRead(read));
}
