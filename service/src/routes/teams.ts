// /teams: list (a user's teams, or all for servers), create, get, update, delete (protocol-resources §2).
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
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
  type ServerTeamCreate as ServerTeamCreateT,
  ClientTeamList,
  ServerTeamList,
} from '@gatehouse/shared/schemas/teams';
import { perAccess, route, type AuthedContext } from '../http/route';
import type { Auth } from '../http/request-access';
import * as teams from '../repo/teams';
import * as users from '../repo/users';
import { assertClientProfileImage } from '../users/update';
import { assertTeamPermission } from '../teams/permission-check';
import { clientTeamView, serverTeamView } from '../presenters/teams';

const teamView = perAccess({ client: ClientTeam, server: ServerTeam });

export function teamViewFor(auth: Auth, row: teams.TeamRow) {
  return auth.type === 'client' ? clientTeamView(row) : serverTeamView(row);
}

/** The signed-in user of a client request (USER_AUTHENTICATION_REQUIRED without one). */
export async function clientUser(ctx: AuthedContext) {
  return ctx.requireUser(() => new KnownErrors.UserAuthenticationRequired());
}

/** Client: membership (+ permission); server: the team must exist. Returns the team for servers. */
async function checkTeamAccess(ctx: AuthedContext, teamId: string, permission?: '$update_team' | '$delete_team') {
  if (ctx.auth.type === 'client') {
    const user = await clientUser(ctx);
    await assertTeamPermission(ctx.services.db, ctx.auth.project.id, teamId, user.id, permission);
  }
  const team = await teams.findTeam(ctx.services.db, ctx.auth.project.id, teamId);
  if (!team) throw new KnownErrors.TeamNotFound(teamId);
  return team;
}

async function resolveCreator(ctx: AuthedContext, body: ServerTeamCreateT, addCurrentUser: 'true' | 'false' | undefined): Promise<string | undefined> {
  const { auth } = ctx;
  if (body.creator_user_id !== undefined && addCurrentUser !== undefined) {
    throw new StatusError(400, 'Cannot use both creator_user_id and add_current_user. add_current_user is deprecated, please only use creator_user_id in the body.');
  }
  let creator: string | undefined;
  if (addCurrentUser === 'true') {
    const user = await ctx.user();
    if (!user) throw new StatusError(401, 'You must be logged in to create a team with the current user as a member.');
    creator = user.id;
  }
  if (auth.type === 'client') {
    const user = await clientUser(ctx);
    if (!auth.project.config.client_team_creation_enabled) throw new StatusError(403, 'Client team creation is disabled for this project');
    assertClientProfileImage(body.profile_image_url);
    if (body.creator_user_id === undefined) return creator ?? user.id;
    if (ctx.resolveUserId(body.creator_user_id) !== user.id) {
      throw new StatusError(403, "You cannot create a team as a user that is not yourself. Make sure you set the creator_user_id to 'me'.");
    }
    return user.id;
  }
  if (body.creator_user_id === undefined) return creator;
  const id = ctx.resolveUserId(body.creator_user_id);
  if (!(await users.exists(ctx.services.db, auth.project.id, id))) throw new KnownErrors.UserNotFound();
  return id;
}

export const teamRoutes = [
  route({
    method: 'GET', path: '/teams', summary: "List teams (a user's teams; servers may list all)", tags: ['Teams'],
    access: [...ACCESS_TYPES], query: TeamListQuery, response: perAccess({ client: ClientTeamList, server: ServerTeamList }),
    async handler(ctx) {
      const { auth, query } = ctx;
      const userId = query.user_id === undefined ? undefined : ctx.resolveUserId(query.user_id);
      if (auth.type === 'client' && (userId === undefined || userId !== auth.userId)) {
        throw new StatusError(403, 'Client can only list teams for their own user. user_id must be either "me" or the ID of the current user');
      }
      if (auth.type !== 'client' && userId !== undefined && !(await users.exists(ctx.services.db, auth.project.id, userId))) throw new KnownErrors.UserNotFound();
      const rows = await teams.listTeams(ctx.services.db, auth.project.id, { userId });
      return { items: rows.map((r) => teamViewFor(auth, r)), is_paginated: false as const };
    },
  }),
  route({
    method: 'POST', path: '/teams', summary: 'Create a team', tags: ['Teams'],
    access: [...ACCESS_TYPES], query: TeamCreateQuery, body: perAccess({ client: ClientTeamCreate, server: ServerTeamCreate }), response: teamView, status: 201,
    async handler(ctx) {
      const body = ctx.body;
      const creatorUserId = await resolveCreator(ctx, body, ctx.query.add_current_user);
      const row = await ctx.services.db.transaction(async (tx) => {
        const created = await teams.createTeam(tx, ctx.auth.project, {
          displayName: body.display_name, profileImageUrl: body.profile_image_url, clientMetadata: body.client_metadata,
          clientReadOnlyMetadata: body.client_read_only_metadata, serverMetadata: body.server_metadata, creatorUserId,
        });
        await ctx.services.events.emit(tx, ctx.auth.project.id, 'team.created', serverTeamView(created));
        return created;
      });
      return teamViewFor(ctx.auth, row);
    },
  }),
  route({
    method: 'GET', path: '/teams/:team_id', summary: 'Get a team', tags: ['Teams'],
    access: [...ACCESS_TYPES], params: TeamParams, response: teamView,
    async handler(ctx) {
      return teamViewFor(ctx.auth, await checkTeamAccess(ctx, ctx.params.team_id));
    },
  }),
  route({
    method: 'PATCH', path: '/teams/:team_id', summary: 'Update a team', tags: ['Teams'],
    access: [...ACCESS_TYPES], params: TeamParams, body: perAccess({ client: ClientTeamUpdate, server: ServerTeamUpdate }), response: teamView,
    async handler(ctx) {
      const body = ctx.body;
      await checkTeamAccess(ctx, ctx.params.team_id, '$update_team');
      if (ctx.auth.type === 'client') assertClientProfileImage(body.profile_image_url);
      const row = await ctx.services.db.transaction(async (tx) => {
        const updated = await teams.updateTeam(tx, ctx.auth.project.id, ctx.params.team_id, {
          displayName: body.display_name, profileImageUrl: body.profile_image_url, clientMetadata: body.client_metadata,
          clientReadOnlyMetadata: body.client_read_only_metadata, serverMetadata: body.server_metadata,
        });
        if (updated) await ctx.services.events.emit(tx, ctx.auth.project.id, 'team.updated', serverTeamView(updated));
        return updated;
      });
      if (!row) throw new KnownErrors.TeamNotFound(ctx.params.team_id);
      return teamViewFor(ctx.auth, row);
    },
  }),
  route({
    method: 'DELETE', path: '/teams/:team_id', summary: 'Delete a team', tags: ['Teams'],
    access: [...ACCESS_TYPES], params: TeamParams, response: Success,
    async handler(ctx) {
      await checkTeamAccess(ctx, ctx.params.team_id, '$delete_team');
      const deleted = await ctx.services.db.transaction(async (tx) => {
        const gone = await teams.deleteTeam(tx, ctx.auth.project.id, ctx.params.team_id);
        if (gone) await ctx.services.events.emit(tx, ctx.auth.project.id, 'team.deleted', { id: ctx.params.team_id });
        return gone;
      });
      if (!deleted) throw new KnownErrors.TeamNotFound(ctx.params.team_id);
      return { success: true as const };
    },
  }),
];
