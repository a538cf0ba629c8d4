// /project-permissions: user-level permissions — list (direct or recursive), grant, revoke (protocol-resources §8).
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { Success } from '@gatehouse/shared/schemas/common';
import { EmptyBody, ProjectPermission, ProjectPermissionListQuery, ProjectPermissionParams, ProjectPermissionList } from '@gatehouse/shared/schemas/permissions';
import { route } from '../http/route';
import { definitionGraph, findDefinition } from '../repo/permission-definitions';
import * as grants from '../repo/permissions';
import * as users from '../repo/users';
import { isForeignKeyViolation } from '../db/errors';
import { checkPermissionIds } from './permission-definitions';
import { cmp, expandByHolder, listedUserId } from './permission-lists';

export const projectPermissionRoutes = [
  route({
    method: 'GET', path: '/project-permissions', summary: 'List project permissions (direct, or with recursive=true all contained)', tags: ['Project permissions'],
    access: ['client', 'server', 'admin'], query: ProjectPermissionListQuery, response: ProjectPermissionList,
    async handler(ctx) {
      const { auth, query } = ctx;
      checkPermissionIds(ctx, { any: [query.permission_id] });
      const userId = listedUserId(ctx, query.user_id);
      const direct = await grants.listProjectGrants(ctx.services.db, auth.project.id, { userId });
      let items = direct.map((g) => ({ id: g.permissionId, user_id: g.userId }));
      if (query.recursive === 'true' && direct.length) {
        const graph = await definitionGraph(ctx.services.db, auth.project.id, 'project');
        items = expandByHolder(direct, graph, (g) => g.userId, (g, id) => ({ id, user_id: g.userId }));
      }
      if (query.permission_id !== undefined) items = items.filter((i) => i.id === query.permission_id);
      items.sort((a, b) => cmp(a.user_id, b.user_id) || cmp(a.id, b.id));
      return { items, is_paginated: false as const };
    },
  }),
  route({
    method: 'POST', path: '/project-permissions/:user_id/:permission_id', summary: 'Grant a project permission', tags: ['Project permissions'],
    access: ['server', 'admin'], params: ProjectPermissionParams, body: EmptyBody, response: ProjectPermission, status: 201,
    async handler(ctx) {
      const { auth, params } = ctx;
      checkPermissionIds(ctx, { any: [params.permission_id] });
      const projectId = auth.project.id;
      const userId = ctx.resolveUserId(params.user_id);
      return ctx.services.db.transaction(async (tx) => {
        if (!(await users.exists(tx, projectId, userId))) throw new KnownErrors.UserNotFound();
        const def = await findDefinition(tx, projectId, params.permission_id, 'share');
        if (!def || def.scope !== 'project') throw new KnownErrors.PermissionNotFound(params.permission_id);
        try {
          if (await grants.grantProjectPermission(tx, projectId, userId, params.permission_id)) {
            await ctx.services.events.emit(tx, projectId, 'project_permission.created', { id: params.permission_id, user_id: userId });
          }
        } catch (err) {
          // The user was deleted meanwhile (foreign key).
          if (isForeignKeyViolation(err)) throw new KnownErrors.UserNotFound();
          throw err;
        }
        return { id: params.permission_id, user_id: userId };
      });
    },
  }),
  route({
    method: 'DELETE', path: '/project-permissions/:user_id/:permission_id', summary: 'Revoke a directly granted project permission', tags: ['Project permissions'],
    access: ['server', 'admin'], params: ProjectPermissionParams, response: Success,
    async handler(ctx) {
      const { auth, params } = ctx;
      checkPermissionIds(ctx, { any: [params.permission_id] });
      const projectId = auth.project.id;
      const userId = ctx.resolveUserId(params.user_id);
      await ctx.services.db.transaction(async (tx) => {
        if (!(await users.exists(tx, projectId, userId))) throw new KnownErrors.UserNotFound();
        if (!(await grants.revokeProjectPermission(tx, projectId, userId, params.permission_id))) throw new KnownErrors.PermissionNotFound(params.permission_id);
        await ctx.services.events.emit(tx, projectId, 'project_permission.deleted', { id: params.permission_id, user_id: userId });
      });
      return { success: true as const };
    },
  }),
];
