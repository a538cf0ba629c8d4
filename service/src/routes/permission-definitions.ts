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
  PermissionCycleError, createDefinition, deleteDefinition, listDefinitionViews, updateDefinition, type Scope,
} from '../teams/definition-changes';

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

async function withCycleAsSchemaError<T>(ctx: AuthedContext, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof PermissionCycleError) throw ctx.schemaError(err.message);
    throw err;
  }
}

function definitionRoutes(scope: Scope, base: string, tag: string) {
  const ADMIN = ['admin'] as const;
  return [
    route({
      method: 'GET', path: base, summary: `List ${scope} permission definitions`, tags: [tag],
      access: [...ADMIN], response: PermissionDefinitionList,
      async handler(ctx) {
        return { items: await listDefinitionViews(ctx.services.db, ctx.auth.project.id, scope), is_paginated: false as const };
      },
    }),
    route({
      method: 'POST', path: base, summary: `Create a ${scope} permission definition`, tags: [tag],
      access: [...ADMIN], body: PermissionDefinitionCreate, response: PermissionDefinition, status: 201,
      async handler(ctx) {
        checkPermissionIds(ctx, { custom: [ctx.body.id], any: ctx.body.contained_permission_ids });
        return withCycleAsSchemaError(ctx, () => createDefinition(ctx.services.db, ctx.auth.project.id, scope, ctx.body));
      },
    }),
    route({
      method: 'PATCH', path: `${base}/:permission_id`, summary: `Update (or rename) a ${scope} permission definition`, tags: [tag],
      access: [...ADMIN], params: PermissionDefinitionParams, body: PermissionDefinitionUpdate, response: PermissionDefinition,
      async handler(ctx) {
        checkPermissionIds(ctx, { any: [ctx.params.permission_id, ...(ctx.body.contained_permission_ids ?? [])], custom: [ctx.body.id] });
        const view = await withCycleAsSchemaError(ctx, () => updateDefinition(ctx.services.db, ctx.auth.project.id, scope, ctx.params.permission_id, ctx.body));
        // A rename may have rewritten the project's default-permission lists.
        ctx.services.projects.invalidate(ctx.auth.project.id);
        return view;
      },
    }),
    route({
      method: 'DELETE', path: `${base}/:permission_id`, summary: `Delete a ${scope} permission definition`, tags: [tag],
      access: [...ADMIN], params: PermissionDefinitionParams, response: Success,
      async handler(ctx) {
        checkPermissionIds(ctx, { any: [ctx.params.permission_id] });
        await deleteDefinition(ctx.services.db, ctx.auth.project.id, scope, ctx.params.permission_id);
        ctx.services.projects.invalidate(ctx.auth.project.id);
        return { success: true as const };
      },
    }),
  ];
}

export const permissionDefinitionRoutes = [
  ...definitionRoutes('team', '/team-permission-definitions', 'Team permissions'),
  ...definitionRoutes('project', '/project-permission-definitions', 'Project permissions'),
];
