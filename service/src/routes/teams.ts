// /teams: list (a user's teams, or all for servers), create, get, update, delete (protocol-resources §2); the
// operations are teams/team-changes.ts, who may act on a team teams/team-access.ts.
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { Success } from '@gatehouse/shared/schemas/common';
import {
  ClientTeam,
  ClientTeamCreate,
  ClientTeamUpdate,
  ServerTeam,
  ServerTeamCreate,
  ServerTeamUpdate,
  TeamCreateQuery,
  TeamListQuery,
  TeamParams,
  ClientTeamList,
  ServerTeamList,
} from '@gatehouse/shared/schemas/teams';
import { perAccess, route } from '../http/route';
import { createTeam, deleteTeam, listTeams, updateTeam, type TeamFields } from '../teams/team-changes';
import { accessibleTeam } from '../teams/team-access';
import { teamViewFor } from '../presenters/teams';

const teamView = perAccess({ client: ClientTeam, server: ServerTeam });

/** A create or update body's team fields (a client's has no server metadata). */
const teamFields = (b: { display_name?: string; profile_image_url?: string | null; client_metadata?: unknown; client_read_only_metadata?: unknown; server_metadata?: unknown }): TeamFields => ({
  displayName: b.display_name, profileImageUrl: b.profile_image_url, clientMetadata: b.client_metadata,
  clientReadOnlyMetadata: b.client_read_only_metadata, serverMetadata: b.server_metadata,
});

export const teamRoutes = [
  route({
    method: 'GET', path: '/teams', summary: "List teams (a user's teams; servers may list all)", tags: ['Teams'],
    access: [...ACCESS_TYPES], query: TeamListQuery, response: perAccess({ client: ClientTeamList, server: ServerTeamList }),
    async handler({ services, auth, query, resolveUserId }) {
      const userId = query.user_id === undefined ? undefined : resolveUserId(query.user_id);
      const rows = await listTeams(services, { caller: auth, userId });
      return { items: rows.map((r) => teamViewFor(auth.type, r)), is_paginated: false as const };
    },
  }),
  route({
    method: 'POST', path: '/teams', summary: 'Create a team', tags: ['Teams'],
    access: [...ACCESS_TYPES], query: TeamCreateQuery, body: perAccess({ client: ClientTeamCreate, server: ServerTeamCreate }), response: teamView, status: 201,
    async handler({ services, auth, query, body }) {
      const row = await createTeam(services, {
        caller: auth, fields: { ...teamFields(body), displayName: body.display_name }, creatorUserId: body.creator_user_id, addCurrentUser: query.add_current_user,
      });
      return teamViewFor(auth.type, row);
    },
  }),
  route({
    method: 'GET', path: '/teams/:team_id', summary: 'Get a team', tags: ['Teams'],
    access: [...ACCESS_TYPES], params: TeamParams, response: teamView,
    async handler({ services, auth, params }) {
      return teamViewFor(auth.type, await accessibleTeam(services, auth, params.team_id));
    },
  }),
  route({
    method: 'PATCH', path: '/teams/:team_id', summary: 'Update a team', tags: ['Teams'],
    access: [...ACCESS_TYPES], params: TeamParams, body: perAccess({ client: ClientTeamUpdate, server: ServerTeamUpdate }), response: teamView,
    async handler({ services, auth, params, body }) {
      return teamViewFor(auth.type, await updateTeam(services, { caller: auth, teamId: params.team_id, fields: teamFields(body) }));
    },
  }),
  route({
    method: 'DELETE', path: '/teams/:team_id', summary: 'Delete a team', tags: ['Teams'],
    access: [...ACCESS_TYPES], params: TeamParams, response: Success,
    async handler({ services, auth, params }) {
      await deleteTeam(services, { caller: auth, teamId: params.team_id });
      return { success: true as const };
    },
  }),
];
