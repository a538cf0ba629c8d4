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

export function useCachedRead<T>(read: CachedRead<T>): T {
  const snapshot: CacheSnapshot<T> = useSyncExternalStore(read.subscribe, read.peek, read.peek);
  if (snapshot.status === 'ok') return snapshot.value;
  if (snapshot.status === 'error') throw snapshot.error;
  return use(pendingRead(read));
}
