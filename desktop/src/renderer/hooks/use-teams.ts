// Teams of the open project through the client library's server reads (the admin app is a server app too): the
// list, one team, its members, its invitations, a member's permissions, and the permission definitions.
import { useEffect, useMemo } from 'react';
import { cachedReadsSymbol, type CachedRead, type PermissionDefinition, type ServerTeam, type ServerTeamUser, type TeamInvitation } from '@gatehouse/shared/client';
import { useCachedRead } from '@gatehouse/shared/react';
import type { Route } from '../lib/routes';
import { useProjectContext } from './use-project-context';
import { useLoadedRead } from './use-loaded-read';

/**
 * A cached read, fetched afresh when the screen shows it: teams and members also change outside the console (the
 * project's own server, its users), and the cache would otherwise keep what an earlier screen saw.
 */
function useFreshRead<T>(read: CachedRead<T>): T {
  useEffect(() => void read.get().catch(() => {}), [read]);
  return useCachedRead(read);
}

export function useTeams(): ServerTeam[] {
  const { app } = useProjectContext();
  const read = useMemo(() => app.serverReads.teams(), [app]);
  return useFreshRead(read);
}

/** The teams once loaded, [] before, fetched when `wanted` first holds (the command palette: use-loaded-read.ts). */
export function useTeamsIfLoaded(wanted: boolean): readonly ServerTeam[] {
  const { app } = useProjectContext();
  const read = useMemo(() => app.serverReads.teams(), [app]);
  return useLoadedRead(read, { wanted, fresh: true }) ?? [];
}

/** The team, or null when there is no such team (deleted, or a mistyped address). */
export function useTeam(teamId: string): ServerTeam | null {
  return useTeams().find((t) => t.id === teamId) ?? null;
}

// The reads below depend only on the team's and user's ids: team objects are new after each list refresh.
export function useTeamMembers(team: ServerTeam): ServerTeamUser[] {
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const read = useMemo(() => team[cachedReadsSymbol].users(), [team.id]);
  return useFreshRead(read);
}

export function useTeamInvitations(team: ServerTeam): TeamInvitation[] {
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const read = useMemo(() => team[cachedReadsSymbol].invitations(), [team.id]);
  return useFreshRead(read);
}

/** A member's permissions in a team: directly granted (recursive false) or all held (recursive true), by id. */
export function useMemberPermissions(member: ServerTeamUser, teamId: string, recursive: boolean): string[] {
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const read = useMemo(() => member[cachedReadsSymbol].permissions({ id: teamId }, recursive), [member.id, teamId, recursive]);
  return useFreshRead(read).map((p) => p.id);
}

export function useTeamPermissionDefinitions(): PermissionDefinition[] {
  const { app } = useProjectContext();
  const read = useMemo(() => app.adminReads.teamPermissionDefinitions(), [app]);
  return useCachedRead(read);
}

/** The Teams screen's routes in the open project: the list, or one team's page. */
export function useTeamRoute(): (teamId?: string) => Route {
  const { connection, projectId } = useProjectContext();
  return (teamId) => ({ name: 'project', connectionId: connection.id, projectId, screen: 'teams', ...(teamId ? { itemId: teamId } : {}) });
}
