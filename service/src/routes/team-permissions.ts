// /team-permissions: list (direct or recursive), grant and revoke (protocol-resources §6).
import type { DB } from '../db';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { isSystemPermission } from '@gatehouse/shared/rules/permissions';
import { Success } from '@gatehouse/shared/schemas/common';
import { EmptyBody, TeamPermission, TeamPermissionListQuery, TeamPermissionParams, TeamPermissionList } from '@gatehouse/shared/schemas/permissions';
import { route, type AuthedContext } from '../http/route';
import { definitionGraph, findDefinition } from '../repo/permission-definitions';
import * as grants from '../repo/permissions';
import * as members from '../repo/team-members';
import * as users from '../repo/users';
import { checkPermissionIds } from './permission-definitions';
import { cmp, expandByHolder, listedUserId } from './permission-lists';

/** USER_NOT_FOUND, then TEAM_MEMBERSHIP_NOT_FOUND; returns the resolved user id. */
async function checkMember(ctx: AuthedContext, db: DB, teamId: string, userIdOrMe: string) {
  const userId = ctx.resolveUserId(userIdOrMe);
  if (!(await users.exists(db, ctx.auth.project.id, userId))) throw new KnownErrors.UserNotFound();
  if (!(await members.isMember(db, ctx.auth.project.id, teamId, userId, 'share'))) throw new KnownErrors.TeamMembershipNotFound(teamId, userId);
  return userId;
}

export const teamPermissionRoutes = [
  route({
    method: 'GET', path: '/team-permissions', summary: 'List team permissions (direct, or with recursive=true all contained)', tags: ['Team permissions'],
    access: ['client', 'server', 'admin'], query: TeamPermissionListQuery, response: TeamPermissionList,
    async handler(ctx) {
      const { auth, query } = ctx;
      checkPermissionIds(ctx, { any: [query.permission_id] });
      const userId = listedUserId(ctx, query.user_id);
      const direct = await grants.listTeamGrants(ctx.services.db, auth.project.id, { teamId: query.team_id, userId });
      let items = direct.map((g) => ({ id: g.permissionId, team_id: g.teamId, user_id: g.userId }));
      if (query.recursive === 'true' && direct.length) {
        const graph = await definitionGraph(ctx.services.db, auth.project.id, 'team');
        items = expandByHolder(direct, graph, (g) => `${g.teamId}/${g.userId}`, (g, id) => ({ id, team_id: g.teamId, user_id: g.userId }));
      }
      if (query.permission_id !== undefined) items = items.filter((i) => i.id === query.permission_id);
      items.sort((a, b) => cmp(a.team_id, b.team_id) || cmp(a.user_id, b.user_id) || cmp(a.id, b.id));
      return { items, is_paginated: false as const };
    },
  }),
  route({
    method: 'POST', path: '/team-permissions/:team_id/:user_id/:permission_id', summary: 'Grant a team permission', tags: ['Team permissions'],
    access: ['server', 'admin'], params: TeamPermissionParams, body: EmptyBody, response: TeamPermission, status: 201,
    async handler(ctx) {
      const { auth, params } = ctx;
      checkPermissionIds(ctx, { any: [params.permission_id] });
      const projectId = auth.project.id;
      return ctx.services.db.transaction(async (tx) => {
        const userId = await checkMember(ctx, tx, params.team_id, params.user_id);
        if (!isSystemPermission(params.permission_id)) {
          const def = await findDefinition(tx, projectId, params.permission_id, 'share');
          if (!def || def.scope !== 'team') throw new KnownErrors.PermissionNotFound(params.permission_id);
        }
        if (await grants.grantTeamPermission(tx, projectId, params.team_id, userId, params.permission_id)) {
          await ctx.services.events.emit(tx, projectId, 'team_permission.created', { id: params.permission_id, team_id: params.team_id, user_id: userId });
        }
        return { id: params.permission_id, team_id: params.team_id, user_id: userId };
      });
    },
  }),
  route({
    method: 'DELETE', path: '/team-permissions/:team_id/:user_id/:permission_id', summary: 'Revoke a directly granted team permission', tags: ['Team permissions'],
    access: ['server', 'admin'], params: TeamPermissionParams, response: Success,
    async handler(ctx) {
      const { auth, params } = ctx;
      checkPermissionIds(ctx, { any: [params.permission_id] });
      const projectId = auth.project.id;
      await ctx.services.db.transaction(async (tx) => {
        const userId = await checkMember(ctx, tx, params.team_id, params.user_id);
        if (!(await grants.revokeTeamPermission(tx, projectId, params.team_id, userId, params.permission_id))) {
          throw new KnownErrors.TeamPermissionNotFound(params.team_id, userId, params.permission_id);
        }
        await ctx.services.events.emit(tx, projectId, 'team_permission.deleted', { id: params.permission_id, team_id: params.team_id, user_id: userId });
      });
      return { success: true as const };
    },
  }),
];
