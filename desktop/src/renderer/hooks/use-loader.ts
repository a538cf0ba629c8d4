// A one-off read the client library does not cache (e.g. listSentEmails): state of the last load, and reload.
import { useCallback, useEffect, useRef, useState } from 'react';

export type Loaded<T> = { status: 'loading' } | { status: 'ok'; value: T } | { status: 'error'; error: Error };

export function useLoader<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> & { reload(): void } {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const generation = useRef(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const run = useCallback(load, deps);
  const reload = useCallback(() => {
    const mine = ++generation.current;
    run().then(
      (value) => mine === generation.current && setState({ status: 'ok', value }),
      (error) => mine === generation.current && setState({ status: 'error', error }),
    );
  }, [run]);
  useEffect(() => reload(), [reload]);
  return { ...state, reload };
}
