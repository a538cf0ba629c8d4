// /project-permissions: user-level permissions — list (direct or recursive), grant, revoke (protocol-resources §8;
// permissions/project-grants.ts).
import { Success } from '@gatehouse/shared/schemas/common';
import { EmptyBody, ProjectPermission, ProjectPermissionListQuery, ProjectPermissionParams, ProjectPermissionList } from '@gatehouse/shared/schemas/permissions';
import { route } from '../http/route';
import { grantProjectPermission, listProjectPermissions, revokeProjectPermission } from '../permissions/project-grants';
import { projectPermissionView } from '../presenters/permissions';
import { checkPermissionIds } from './permission-definitions';

export const projectPermissionRoutes = [
  route({
    method: 'GET', path: '/project-permissions', summary: 'List project permissions (direct, or with recursive=true all contained)', tags: ['Project permissions'],
    access: ['client', 'server', 'admin'], query: ProjectPermissionListQuery, response: ProjectPermissionList,
    async handler(ctx) {
      const { services, auth, query } = ctx;
      checkPermissionIds(ctx, { any: [query.permission_id] });
      const userId = query.user_id === undefined ? undefined : ctx.resolveUserId(query.user_id);
      const items = await listProjectPermissions(services, { caller: auth, userId, permissionId: query.permission_id, recursive: query.recursive === 'true' });
      return { items: items.map(projectPermissionView), is_paginated: false as const };
    },
  }),
  route({
    method: 'POST', path: '/project-permissions/:user_id/:permission_id', summary: 'Grant a project permission', tags: ['Project permissions'],
    access: ['server', 'admin'], params: ProjectPermissionParams, body: EmptyBody, response: ProjectPermission, status: 201,
    async handler(ctx) {
      const { services, auth, params } = ctx;
      checkPermissionIds(ctx, { any: [params.permission_id] });
      const grant = { projectId: auth.project.id, userId: ctx.resolveUserId(params.user_id), permissionId: params.permission_id };
      await grantProjectPermission(services, grant);
      return projectPermissionView({ id: grant.permissionId, userId: grant.userId });
    },
  }),
  route({
    method: 'DELETE', path: '/project-permissions/:user_id/:permission_id', summary: 'Revoke a directly granted project permission', tags: ['Project permissions'],
    access: ['server', 'admin'], params: ProjectPermissionParams, response: Success,
    async handler(ctx) {
      const { services, auth, params } = ctx;
      checkPermissionIds(ctx, { any: [params.permission_id] });
      await revokeProjectPermission(services, { projectId: auth.project.id, userId: ctx.resolveUserId(params.user_id), permissionId: params.permission_id });
      return { success: true as const };
    },
  }),
];
