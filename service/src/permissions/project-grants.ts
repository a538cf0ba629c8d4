// User-level (project) permissions (protocol-resources §8): listed directly or with everything contained, granted
// and revoked with their project_permission.* events in the same transaction.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import { definitionGraph, findDefinition } from '../repo/permission-definitions';
import * as grants from '../repo/permissions';
import * as users from '../repo/users';
import { isForeignKeyViolation } from '../db/errors';
import type { Caller } from '../auth/caller';
import { assertListable, cmp, expandByHolder } from './listing';

export interface ProjectGrant { id: string; userId: string }

export async function listProjectPermissions(services: Services, input: { caller: Caller; userId?: string; permissionId?: string; recursive: boolean }): Promise<ProjectGrant[]> {
  const { caller, userId } = input;
  assertListable(caller, userId);
  const direct = await grants.listProjectGrants(services.db, caller.project.id, { userId });
  let items = direct.map((g) => ({ id: g.permissionId, userId: g.userId }));
  if (input.recursive && direct.length) {
    const graph = await definitionGraph(services.db, caller.project.id, 'project');
    items = expandByHolder(direct, graph, (g) => g.userId, (g, id) => ({ id, userId: g.userId }));
  }
  if (input.permissionId !== undefined) items = items.filter((i) => i.id === input.permissionId);
  return items.sort((a, b) => cmp(a.userId, b.userId) || cmp(a.id, b.id));
}

export async function grantProjectPermission(services: Services, input: { projectId: string; userId: string; permissionId: string }): Promise<void> {
  const { projectId, userId, permissionId } = input;
  await services.db.transaction(async (tx) => {
    if (!(await users.exists(tx, projectId, userId))) throw new KnownErrors.UserNotFound();
    const def = await findDefinition(tx, projectId, permissionId, 'share');
    if (!def || def.scope !== 'project') throw new KnownErrors.PermissionNotFound(permissionId);
    try {
      if (await grants.grantProjectPermission(tx, projectId, userId, permissionId)) {
        await services.events.emit(tx, projectId, 'project_permission.created', { id: permissionId, user_id: userId });
      }
    } catch (err) {
      // The user was deleted meanwhile (foreign key).
      if (isForeignKeyViolation(err)) throw new KnownErrors.UserNotFound();
      throw err;
    }
  });
}

export async function revokeProjectPermission(services: Services, input: { projectId: string; userId: string; permissionId: string }): Promise<void> {
  const { projectId, userId, permissionId } = input;
  await services.db.transaction(async (tx) => {
    if (!(await users.exists(tx, projectId, userId))) throw new KnownErrors.UserNotFound();
    if (!(await grants.revokeProjectPermission(tx, projectId, userId, permissionId))) throw new KnownErrors.PermissionNotFound(permissionId);
    await services.events.emit(tx, projectId, 'project_permission.deleted', { id: permissionId, user_id: userId });
  });
}
