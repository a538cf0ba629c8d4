// Creating, changing and deleting permission definitions of either scope (protocol-resources §7.4, §8), with
// the checks that keep the containment graph sound: contained ids must exist in the same scope (team
// definitions may also contain the system permissions), and no change may close a containment cycle.
// Each change runs in one transaction holding the project's definition lock, so two concurrent changes
// cannot together form a cycle that neither would form alone.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { TEAM_SYSTEM_PERMISSIONS, findCycle, isSystemPermission } from '@gatehouse/shared/rules/permissions';
import type { Services } from '../services';
import { InputProblems } from '../input-problems';
import * as defs from '../repo/permission-definitions';
import type { Scope } from '../repo/permission-definitions';

export type { Scope };

/** A definition as the use cases return it (presenters/permissions.ts shows it). */
export interface Definition { id: string; description: string | null; containedPermissionIds: readonly string[] }

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Custom definitions of the scope, plus the six system permissions for teams, sorted by id (`$…` first). */
export async function listPermissionDefinitions(services: Services, input: { projectId: string; scope: Scope }): Promise<Definition[]> {
  const custom: Definition[] = await defs.listDefinitions(services.db, input.projectId, input.scope);
  const system = input.scope === 'team'
    ? TEAM_SYSTEM_PERMISSIONS.map((p) => ({ id: p.id, description: p.description, containedPermissionIds: [] }))
    : [];
  return [...system, ...custom].sort(byId);
}

/** Raised when a change would make a definition contain itself: a SCHEMA_ERROR line of the request. */
export class PermissionCycleError extends InputProblems {
  constructor(readonly cycle: string[]) {
    super([`body.contained_permission_ids would create a permission containment cycle: ${cycle.join(' -> ')}`]);
  }
}

/**
 * Checks `contained` (already deduplicated) for definition `id` against `graph` (the scope's definitions,
 * with `id`'s own entry being replaced): each must exist, and none may lead back to `id`.
 */
function checkContained(scope: Scope, graph: Map<string, readonly string[]>, id: string, contained: string[]) {
  for (const c of contained) {
    if (c === id) throw new PermissionCycleError([id, id]);
    if (!(scope === 'team' && isSystemPermission(c)) && !graph.has(c)) throw new KnownErrors.ContainedPermissionNotFound(c);
  }
  const cycle = findCycle(graph, id, contained);
  if (cycle) throw new PermissionCycleError(cycle);
}

const dedupe = (ids: readonly string[]) => [...new Set(ids)].sort();
const emptyToNull = (s: string | undefined) => (s ? s : null);

export interface DefinitionInput { projectId: string; scope: Scope }

export async function createPermissionDefinition(services: Services, input: DefinitionInput & { body: { id: string; description?: string; contained_permission_ids?: string[] } }): Promise<Definition> {
  const { projectId, scope, body } = input;
  return services.db.transaction(async (tx) => {
    await defs.lockDefinitions(tx, projectId);
    if (await defs.findDefinition(tx, projectId, body.id)) throw new KnownErrors.PermissionIdAlreadyExists(body.id);
    const contained = dedupe(body.contained_permission_ids ?? []);
    checkContained(scope, await defs.definitionGraph(tx, projectId, scope), body.id, contained);
    const row = { id: body.id, description: emptyToNull(body.description), contained };
    await defs.insertDefinition(tx, projectId, scope, row);
    return { id: row.id, description: row.description, containedPermissionIds: contained };
  });
}

/** Updates (or renames) a definition; a rename rewrites the project's default-permission lists too. */
export async function updatePermissionDefinition(services: Services, input: DefinitionInput & { id: string; body: { id?: string; description?: string; contained_permission_ids?: string[] } }): Promise<Definition> {
  const { projectId, scope, id, body } = input;
  const updated = await services.db.transaction(async (tx) => {
    await defs.lockDefinitions(tx, projectId);
    const existing = await defs.findDefinition(tx, projectId, id);
    if (!existing || existing.scope !== scope) throw new KnownErrors.PermissionNotFound(id);
    const newId = body.id ?? id;
    if (newId !== id && (await defs.findDefinition(tx, projectId, newId))) throw new KnownErrors.PermissionIdAlreadyExists(newId);

    // The graph as it will be after the rename, with this definition's own entry left out (it is replaced).
    const rename = (x: string) => (x === id ? newId : x);
    const graph = new Map<string, readonly string[]>();
    for (const [k, v] of await defs.definitionGraph(tx, projectId, scope)) if (k !== id) graph.set(k, v.map(rename));
    const contained = dedupe((body.contained_permission_ids ?? existing.containedPermissionIds).map(rename));
    if (body.contained_permission_ids !== undefined || newId !== id) checkContained(scope, graph, newId, contained);

    await defs.updateDefinition(tx, projectId, scope, id, {
      newId: newId !== id ? newId : undefined,
      description: body.description === undefined ? undefined : emptyToNull(body.description),
      contained: body.contained_permission_ids === undefined ? undefined : contained,
    });
    const description = body.description === undefined ? existing.description : emptyToNull(body.description);
    return { id: newId, description, containedPermissionIds: contained };
  });
  services.projects.invalidate(projectId);
  return updated;
}

export async function deletePermissionDefinition(services: Services, input: DefinitionInput & { id: string }): Promise<void> {
  const { projectId, scope, id } = input;
  await services.db.transaction(async (tx) => {
    await defs.lockDefinitions(tx, projectId);
    if (!(await defs.deleteDefinition(tx, projectId, scope, id))) throw new KnownErrors.PermissionNotFound(id);
  });
  // The deleted id leaves the project's default-permission lists.
  services.projects.invalidate(projectId);
}
