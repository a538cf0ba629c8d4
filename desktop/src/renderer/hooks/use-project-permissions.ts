// Project permissions (user-level, not in a team): the project's definitions, and a user's permissions, granted
// directly (recursive false) or all held (recursive true), through the client library's cached reads.
import { useMemo } from 'react';
import { cachedReadsSymbol, type PermissionDefinition, type ServerUser } from '@gatehouse/shared/client';
import { useCachedRead } from '@gatehouse/shared/react';
import { useProjectContext } from './use-project-context';

export function useProjectPermissionDefinitions(): PermissionDefinition[] {
  const { app } = useProjectContext();
  const read = useMemo(() => app.adminReads.projectPermissionDefinitions(), [app]);
  return useCachedRead(read);
}

export function useUserProjectPermissions(user: ServerUser, recursive: boolean): string[] {
  // The user object is new after each refresh of the user; the permissions depend only on its id.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const read = useMemo(() => user[cachedReadsSymbol].permissions(null, recursive), [user.id, recursive]);
  return useCachedRead(read).map((p) => p.id);
}
