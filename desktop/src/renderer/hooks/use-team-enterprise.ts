// A team's enterprise settings (issue 28) through the client library's server team: its domains, SSO connections,
// SCIM tokens and SCIM groups, each fetched afresh when shown (the identity provider changes groups and tokens are
// used outside the console).
import { useEffect, useMemo } from 'react';
import type { CachedRead, ScimGroup, ScimToken, ServerTeam, SsoConnection, TeamDomain } from '@gatehouse/shared/client';
import { useCachedRead } from '@gatehouse/shared/react';

function useFresh<T>(read: CachedRead<T>): T {
  useEffect(() => void read.get().catch(() => {}), [read]);
  return useCachedRead(read);
}

// The reads depend on the team's id only: team objects are new after each list refresh.
export function useTeamDomains(team: ServerTeam): TeamDomain[] {
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useFresh(useMemo(() => team.enterprise.reads.domains(), [team.id]));
}

export function useSsoConnections(team: ServerTeam): SsoConnection[] {
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useFresh(useMemo(() => team.enterprise.reads.ssoConnections(), [team.id]));
}

export function useScimTokens(team: ServerTeam): ScimToken[] {
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useFresh(useMemo(() => team.enterprise.reads.scimTokens(), [team.id]));
}

export function useScimGroups(team: ServerTeam): ScimGroup[] {
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useFresh(useMemo(() => team.enterprise.reads.scimGroups(), [team.id]));
}
