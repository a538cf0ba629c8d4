// Runs an async action once per key for the page's lifetime (memoised, like the SDK's pages do for code checks),
// and exposes its state to React.
import { useEffect, useState } from 'react';

const results = new Map<string, Promise<unknown>>();

export type OnceState<T> = { status: 'pending' } | { status: 'done'; value: T } | { status: 'failed'; error: unknown };

export function useOnce<T>(key: string | null, action: () => Promise<T>): OnceState<T> {
  const [state, setState] = useState<OnceState<T>>({ status: 'pending' });
  useEffect(() => {
    if (key === null) return;
    let live = true;
    let p = results.get(key) as Promise<T> | undefined;
    if (!p) results.set(key, (p = action()));
    p.then((value) => live && setState({ status: 'done', value }), (error) => live && setState({ status: 'failed', error }));
    return () => { live = false; };
  }, [key]);
  return state;
}
