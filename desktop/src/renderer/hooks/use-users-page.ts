// One page of the project's users (`GET /users`: search, order, keyset cursor). The page on screen stays while
// the next one loads, so paging does not flash a skeleton; `loading` is true until the page asked for is shown.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ServerUserList, UserFilterOptions } from '@gatehouse/shared/client';
import { useProjectContext } from './use-project-context';

export interface UsersPageQuery {
  cursor: string | undefined;
  limit: number;
  newestFirst: boolean;
  search: string;
  filter?: UserFilterOptions;
}

export interface UsersPage {
  users: ServerUserList | null;
  error: Error | null;
  loading: boolean;
  reload(): void;
}

interface State {
  users: ServerUserList | null;
  error: Error | null;
  /** The query the shown result answers, and the generation of the request that brought it. */
  key: string;
  generation: number;
}

export function useUsersPage(q: UsersPageQuery): UsersPage {
  const { app } = useProjectContext();
  const key = JSON.stringify([q.cursor, q.limit, q.newestFirst, q.search, q.filter ?? {}]);
  const [state, setState] = useState<State>({ users: null, error: null, key: '', generation: 0 });
  const generation = useRef(0);
  const load = useCallback(() => {
    const mine = ++generation.current;
    app.listUsers({ cursor: q.cursor, limit: q.limit, desc: q.newestFirst, query: q.search || undefined, ...q.filter }).then(
      (users) => mine === generation.current && setState({ users, error: null, key, generation: mine }),
      (error: Error) => mine === generation.current && setState({ users: null, error, key, generation: mine }),
    );
  }, [app, key]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => load(), [load]);
  const [reloads, setReloads] = useState(0);
  // A reload (after a create, or "try again") is under way until a later request has answered.
  const loading = state.key !== key || state.generation < reloads;
  const reload = useCallback(() => {
    setReloads(generation.current + 1);
    load();
  }, [load]);
  return { users: state.users, error: state.error, loading, reload };
}
