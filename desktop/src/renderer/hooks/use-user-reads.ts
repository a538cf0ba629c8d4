// One user of the open project as the server reads it, and what hangs off it (teams, permissions in a team, contact
// channels): named hooks over the client library's cached reads, suspending on their first load.
import { useMemo } from 'react';
import { cachedReadsSymbol, type Permission, type ServerContactChannel, type ServerTeam, type ServerUser } from '@gatehouse/shared/client';
import { useCachedRead } from '@gatehouse/shared/react';
import { useProjectContext } from './use-project-context';

/** The user, or null when there is none with this id (deleted, or a mistyped address). */
export function useServerUser(userId: string): ServerUser | null {
  const { app } = useProjectContext();
  const read = useMemo(() => app.serverReads.user(userId), [app, userId]);
  return useCachedRead(read);
}

export function useUserTeams(user: ServerUser): ServerTeam[] {
  const read = useMemo(() => user[cachedReadsSymbol].teams(), [user]);
  return useCachedRead(read);
}

/** Every permission the user holds in the team (granted or contained). */
export function useUserTeamPermissions(user: ServerUser, team: ServerTeam): Permission[] {
  const read = useMemo(() => user[cachedReadsSymbol].permissions(team, true), [user, team]);
  return useCachedRead(read);
}

export function useUserContactChannels(user: ServerUser): ServerContactChannel[] {
  const read = useMemo(() => user[cachedReadsSymbol].contactChannels(), [user]);
  return useCachedRead(read);
}
