// The projects the signed-in owner (a user of the service's `internal` project) owns, each with its admin app.
import { useCallback, useEffect, useMemo } from 'react';
import { cachedReadsSymbol, type AdminOwnedProject, type CurrentInternalUser, type CurrentUser } from '@gatehouse/shared/client';
import { useCachedRead } from '@gatehouse/shared/react';

/**
 * The owner's projects. `fresh`: fetched again whenever the calling screen shows (counts and names change on other
 * screens); otherwise the cached list, as the project area needs it only to find the open project's app.
 */
export function useOwnedProjects(user: CurrentUser, options: { fresh?: boolean } = {}): AdminOwnedProject[] {
  // The console signs owners in to the `internal` project, whose users own projects.
  const owner = user as CurrentInternalUser;
  const read = useMemo(() => owner[cachedReadsSymbol].ownedProjects(), [owner]);
  const fresh = options.fresh ?? false;
  useEffect(() => {
    if (fresh) void read.get().catch(() => {});
  }, [read, fresh]);
  return useCachedRead(read);
}

/** Fetches the owner's projects again (after a project is deleted). */
export function useRefetchOwnedProjects(user: CurrentUser): () => Promise<void> {
  const owner = user as CurrentInternalUser;
  return useCallback(() => owner[cachedReadsSymbol].ownedProjects().get().then(() => undefined, () => undefined), [owner]);
}
