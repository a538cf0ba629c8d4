// A cached read's value once loaded, null before (or when it failed), fetched when `wanted` first holds (`fresh`:
// fetched again even when cached, for data that also changes outside the console). For what
// lives outside the screens' boundaries (the header, the command palette): it must neither suspend nor fail the frame;
// the screen that shows the same data reports its own loading and errors.
import { useEffect, useSyncExternalStore } from 'react';
import type { CachedRead } from '@gatehouse/shared/client';

export function useLoadedRead<T>(read: CachedRead<T>, o: { wanted?: boolean; fresh?: boolean } = {}): T | null {
  const { wanted = true, fresh = false } = o;
  const snapshot = useSyncExternalStore(read.subscribe, read.peek, read.peek);
  useEffect(() => {
    if (wanted) (fresh ? read.get() : read.read()).catch(() => { /* shown by the screen that reads it */ });
  }, [read, wanted, fresh]);
  return snapshot.status === 'ok' ? snapshot.value : null;
}
