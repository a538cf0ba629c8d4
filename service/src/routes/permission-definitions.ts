// /team-permission-definitions and /project-permission-definitions (admin only; protocol-resources §7.4, §8).
import { customPermissionIdProblem, permissionIdProblems } from '@gatehouse/shared/rules/permissions';
import { Success } from '@gatehouse/shared/schemas/common';
import {
  PermissionDefinition,
  PermissionDefinitionCreate,
  PermissionDefinitionParams,
  PermissionDefinitionUpdate,
  PermissionDefinitionList,
} from '@gatehouse/shared/schemas/permissions';
import { route, type AuthedContext } from '../http/route';
import {
  createPermissionDefinition, deletePermissionDefinition, listPermissionDefinitions, updatePermissionDefinition, type Scope,
} from '../permissions/definitions';
import { definitionView } from '../presenters/permissions';

/**
 * Permission-id syntax problems, as SCHEMA_ERROR lines worded like the reference (the bare rule message).
 * `custom`: ids of definitions being created or renamed (no `$`).
 */
export function checkPermissionIds(ctx: AuthedContext, ids: { custom?: (string | undefined)[]; any?: (string | undefined)[] }) {
  const problems = [
    ...(ids.custom ?? []).flatMap((id) => (id === undefined ? [] : [customPermissionIdProblem(id)].filter((p): p is string => !!p))),
    ...(ids.any ?? []).flatMap((id) => (id === undefined ? [] : permissionIdProblems(id))),
  ];
  if (problems.length) throw ctx.schemaError(...new Set(problems));
}

function definitionRoutes(scope: Scope, base: string, tag: string) {
  const ADMIN = ['admin'] as const;
  return [
    route({
      method: 'GET', path: base, summary: `List ${scope} permission definitions`, tags: [tag],
      access: [...ADMIN], response: PermissionDefinitionList,
      async handler({ services, auth }) {
        return { items: (await listPermissionDefinitions(services, { projectId: auth.project.id, scope })).map(definitionView), is_paginated: false as const };
      },
    }),
    route({
      method: 'POST', path: base, summary: `Create a ${scope} permission definition`, tags: [tag],
      access: [...ADMIN], body: PermissionDefinitionCreate, response: PermissionDefinition, status: 201,
      async handler(ctx) {
        checkPermissionIds(ctx, { custom: [ctx.body.id], any: ctx.body.contained_permission_ids });
        return definitionView(await createPermissionDefinition(ctx.services, { projectId: ctx.auth.project.id, scope, body: ctx.body }));
      },
    }),
    route({
      method: 'PATCH', path: `${base}/:permission_id`, summary: `Update (or rename) a ${scope} permission definition`, tags: [tag],
      access: [...ADMIN], params: PermissionDefinitionParams, body: PermissionDefinitionUpdate, response: PermissionDefinition,
      async handler(ctx) {
        checkPermissionIds(ctx, { any: [ctx.params.permission_id, ...(ctx.body.contained_permission_ids ?? [])], custom: [ctx.body.id] });
        return definitionView(await updatePermissionDefinition(ctx.services, { projectId: ctx.auth.project.id, scope, id: ctx.params.permission_id, body: ctx.body }));
      },
    }),
    route({
      method: 'DELETE', path: `${base}/:permission_id`, summary: `Delete a ${scope} permission definition`, tags: [tag],
      access: [...ADMIN], params: PermissionDefinitionParams, response: Success,
      async handler(ctx) {
        checkPermissionIds(ctx, { any: [ctx.params.permission_id] });
        await deletePermissionDefinition(ctx.services, { projectId: ctx.auth.project.id, scope, id: ctx.params.permission_id });
        return { success: true as const };
      },
    }),
  ];
}

export const permissionDefinitionRoutes = [
  ...definitionRoutes('team', '/team-permission-definitions', 'Team permissions'),
  ...definitionRoutes('project', '/project-permission-definitions', 'Project permissions'),
];
