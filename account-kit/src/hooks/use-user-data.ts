// Hooks over the signed-in user's cached reads: teams, contact channels, permissions, a team's members, invitations
// and API keys, the user's profile in a team and API keys.
import { useEffect, useMemo, useState } from 'react';
import {
  cachedReadsSymbol,
  type ConnectedApp,
  type ContactChannel,
  type CurrentUser,
  type EditableTeamMemberProfile,
  type ManagingOrganization,
  type Permission,
  type Team,
  type TeamApiKey,
  type TeamInvitation,
  type TeamUser,
  type UserApiKey,
} from '@gatehouse/shared/client';
import { useCachedRead } from '@gatehouse/shared/react';

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

/** The user's own profile in a team (its display name there). */
export function useTeamProfile(user: CurrentUser, team: Team): EditableTeamMemberProfile {
  const read = useMemo(() => user[cachedReadsSymbol].teamProfile(team), [user, team]);
  return useCachedRead(read);
}

/** The team's pending invitations (needs $read_members as well as $invite_members). */
export function useTeamInvitations(team: Team): TeamInvitation[] {
  const read = useMemo(() => team[cachedReadsSymbol].invitations(), [team]);
  return useCachedRead(read);
}

export function useUserApiKeys(user: CurrentUser): UserApiKey[] {
  const read = useMemo(() => user[cachedReadsSymbol].apiKeys(), [user]);
  return useCachedRead(read);
}

export function useTeamApiKeys(team: Team): TeamApiKey[] {
  const read = useMemo(() => team[cachedReadsSymbol].apiKeys(), [team]);
  return useCachedRead(read);
}

/** The applications the user let sign them in through the project ("Connected apps"). */
export function useConnectedApps(user: CurrentUser): ConnectedApp[] {
  const read = useMemo(() => user[cachedReadsSymbol].connectedApps(), [user]);
  return useCachedRead(read);
}

/**
 * The organizations whose identity provider manages the account (`user.listManagingOrganizations`): [] until read,
 * and when the read fails (the profile shows without the notice).
 */
export function useManagingOrganizations(user: CurrentUser): ManagingOrganization[] {
  const [list, setList] = useState<ManagingOrganization[]>([]);
  useEffect(() => {
    let live = true;
    user.listManagingOrganizations().then((l) => { if (live) setList(l); }, () => {});
    return () => { live = false; };
  }, [user.id]); // eslint-disable-line react-hooks/exhaustive-deps
  return list;
}
