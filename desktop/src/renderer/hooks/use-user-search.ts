// Users of the open project matching a query (`GET /users?query=`), waited for briefly while the owner types.
import { useEffect, useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import type { ServerUser } from '@gatehouse/shared/client';
import { useProjectContext } from './use-project-context';

export type UserSearch =
  | { status: 'idle' | 'loading'; users: ServerUser[] }
  /** `query`: the query these users answer (the one typed may have moved on). */
  | { status: 'ok'; users: ServerUser[]; query: string }
  | { status: 'error'; users: ServerUser[]; error: Error };

/** `query` null means "nothing to search yet". */
export function useUserSearch(query: string | null, limit = 8): UserSearch {
  const { app } = useProjectContext();
  const [debounced] = useDebouncedValue(query, 200);
  const [state, setState] = useState<UserSearch>({ status: 'idle', users: [] });
  useEffect(() => {
    if (debounced === null) {
      setState({ status: 'idle', users: [] });
      return;
    }
    let current = true;
    setState((s) => ({ status: 'loading', users: s.users }));
    app.listUsers({ query: debounced, limit }).then(
      (users) => current && setState({ status: 'ok', users: [...users], query: debounced }),
      (error: Error) => current && setState({ status: 'error', users: [], error }),
    );
    return () => {
      current = false;
    };
  }, [app, debounced, limit]);
  return state;
}
