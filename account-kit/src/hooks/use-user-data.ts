// Hooks over the signed-in user's cached reads: teams, contact channels, permissions, team members.
import { useMemo } from 'react';
import { cachedReadsSymbol, type ContactChannel, type CurrentUser, type Permission, type Team, type TeamUser } from '@gatehouse/shared/client';
import { useCachedRead } from './use-cached-read';

export function useTeams(user: CurrentUser): Team[] {
  const read = useMemo(() => user[cachedReadsSymbol].teams(), [user]);
  return useCachedRead(read);
}

export function useContactChannels(user: CurrentUser): ContactChannel[] {
  const read = useMemo(() => user[cachedReadsSymbol].contactChannels(), [user]);
  return useCachedRead(read);
}

/** The user's permissions in a team (recursive by default, as the SDK). */
export function usePermissions(user: CurrentUser, team: Team, options: { recursive?: boolean } = {}): Permission[] {
  const recursive = options.recursive ?? true;
  const read = useMemo(() => user[cachedReadsSymbol].permissions(team, recursive), [user, team, recursive]);
  return useCachedRead(read);
}

export function useTeamMembers(team: Team): TeamUser[] {
  const read = useMemo(() => team[cachedReadsSymbol].users(), [team]);
  return useCachedRead(read);
}
