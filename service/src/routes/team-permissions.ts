// /team-permissions: list (direct or recursive), grant and revoke (protocol-resources §6; permissions/team-grants.ts).
import { Success } from '@gatehouse/shared/schemas/common';
import { EmptyBody, TeamPermission, TeamPermissionListQuery, TeamPermissionParams, TeamPermissionList } from '@gatehouse/shared/schemas/permissions';
import { route } from '../http/route';
import { grantTeamPermission, listTeamPermissions, revokeTeamPermission } from '../permissions/team-grants';
import { teamPermissionView } from '../presenters/permissions';
import { checkPermissionIds } from './permission-definitions';

export const teamPermissionRoutes = [
  route({
    method: 'GET', path: '/team-permissions', summary: 'List team permissions (direct, or with recursive=true all contained)', tags: ['Team permissions'],
    access: ['client', 'server', 'admin'], query: TeamPermissionListQuery, response: TeamPermissionList,
    async handler(ctx) {
      const { services, auth, query } = ctx;
      checkPermissionIds(ctx, { any: [query.permission_id] });
      const userId = query.user_id === undefined ? undefined : ctx.resolveUserId(query.user_id);
      const items = await listTeamPermissions(services, {
        caller: auth, teamId: query.team_id, userId, permissionId: query.permission_id, recursive: query.recursive === 'true',
      });
      return { items: items.map(teamPermissionView), is_paginated: false as const };
    },
  }),
  route({
    method: 'POST', path: '/team-permissions/:team_id/:user_id/:permission_id', summary: 'Grant a team permission', tags: ['Team permissions'],
    access: ['server', 'admin'], params: TeamPermissionParams, body: EmptyBody, response: TeamPermission, status: 201,
    async handler(ctx) {
      const { services, auth, params } = ctx;
      checkPermissionIds(ctx, { any: [params.permission_id] });
      const grant = { id: params.permission_id, teamId: params.team_id, userId: ctx.resolveUserId(params.user_id) };
      await grantTeamPermission(services, { projectId: auth.project.id, ...grant });
      return teamPermissionView(grant);
    },
  }),
  route({
    method: 'DELETE', path: '/team-permissions/:team_id/:user_id/:permission_id', summary: 'Revoke a directly granted team permission', tags: ['Team permissions'],
    access: ['server', 'admin'], params: TeamPermissionParams, response: Success,
    async handler(ctx) {
      const { services, auth, params } = ctx;
      checkPermissionIds(ctx, { any: [params.permission_id] });
      await revokeTeamPermission(services, { projectId: auth.project.id, id: params.permission_id, teamId: params.team_id, userId: ctx.resolveUserId(params.user_id) });
      return { success: true as const };
    },
  }),
];
