// The project's audit log a page at a time (`GET /internal/audit-log`, not cached by the library: it grows as the
// project is used), with "load more" appending the next, older page; and the names of the users its entries concern.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AuditLogEntry, AuditLogFilter } from '@gatehouse/shared/client';
import { useProjectContext } from './use-project-context';
import { useLoader } from './use-loader';

export interface AuditLogView {
  /** null until the first page of this filter has answered. */
  entries: readonly AuditLogEntry[] | null;
  error: Error | null;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): void;
  reload(): void;
}

interface State {
  key: string;
  entries: readonly AuditLogEntry[] | null;
  nextCursor: string | null;
  error: Error | null;
  loadingMore: boolean;
}

/** `filter` is fixed per key: a new kind, range or user starts again at the newest entries. */
export function useAuditLog(filter: AuditLogFilter): AuditLogView {
  const { app } = useProjectContext();
  const key = JSON.stringify(filter);
  const [state, setState] = useState<State>({ key: '', entries: null, nextCursor: null, error: null, loadingMore: false });
  const generation = useRef(0);
  const load = useCallback(() => {
    const mine = ++generation.current;
    setState({ key, entries: null, nextCursor: null, error: null, loadingMore: false });
    app.listAuditLog(filter).then(
      (page) => mine === generation.current && setState({ key, entries: page.entries, nextCursor: page.nextCursor, error: null, loadingMore: false }),
      (error: Error) => mine === generation.current && setState({ key, entries: null, nextCursor: null, error, loadingMore: false }),
    );
  }, [app, key]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => load(), [load]);
  const loadMore = useCallback(() => {
    const cursor = state.nextCursor;
    if (!cursor || state.loadingMore || state.key !== key) return;
    const mine = generation.current;
    setState((s) => ({ ...s, loadingMore: true }));
    app.listAuditLog({ ...filter, cursor }).then(
      (page) => mine === generation.current && setState((s) => ({ ...s, entries: [...(s.entries ?? []), ...page.entries], nextCursor: page.nextCursor, loadingMore: false })),
      (error: Error) => mine === generation.current && setState((s) => ({ ...s, error, loadingMore: false })),
    );
  }, [app, key, state.nextCursor, state.loadingMore, state.key]); // eslint-disable-line react-hooks/exhaustive-deps
  const current = state.key === key;
  return {
    entries: current ? state.entries : null, error: current ? state.error : null, hasMore: current && state.nextCursor !== null,
    loadingMore: current && state.loadingMore, loadMore, reload: load,
  };
}

/** What to call each user: their email, else their name; null for an id no user has (deleted). */
export function useUserLabels(ids: readonly string[]): ReadonlyMap<string, string | null> {
  const { app } = useProjectContext();
  const unique = [...new Set(ids)].sort();
  const loaded = useLoader(() => Promise.all(unique.map((id) => app.serverReads.user(id).get().then(
    (u) => [id, u ? (u.primaryEmail ?? u.displayName ?? id) : null] as const,
    () => [id, id] as const,
  ))), [app, unique.join(',')]);
  return new Map(loaded.status === 'ok' ? loaded.value : []);
}
