// A project's OAuth client rows as the provider reads them at every token, userinfo and introspection request
// (oidc-provider looks its client up each time, adapter.ts): kept a moment per instance, so a burst of requests by
// one client reads its row once (issue 27's figures: one statement of the six of a token request).
// A change made through this instance (the admin API's update or delete, clients.ts) drops the kept row at once; one
// made through another instance sharing the database is seen after at most CLIENT_KEPT_MS. A client deleted there can
// use its credentials that long at most; the tokens it held are deleted with it, so none of them is honoured.
import type { DB } from '../db';
import { TtlCache } from '../repo/cache';
import * as store from '../repo/oauth-provider';

export const CLIENT_KEPT_MS = 2_000;
const kept = new WeakMap<DB, TtlCache<store.ProviderClientRow | null>>();
const keyOf = (projectId: string, clientId: string) => `${projectId}\n${clientId}`;

/** The client's row, or null: a found row is reused up to CLIENT_KEPT_MS; a miss is never kept (ids are guessed). */
export function keptClient(db: DB, projectId: string, clientId: string): Promise<store.ProviderClientRow | null> {
  let rows = kept.get(db);
  if (!rows) kept.set(db, (rows = new TtlCache(CLIENT_KEPT_MS, 2000)));
  return rows.getOrLoad(keyOf(projectId, clientId), () => store.findClient(db, projectId, clientId), (row) => (row ? CLIENT_KEPT_MS : 0));
}

/** After this instance changed or deleted the client: its next request reads the row again. */
export function forgetClient(db: DB, projectId: string, clientId: string): void {
  kept.get(db)?.forget(keyOf(projectId, clientId));
}
