// Team permission definitions: the custom ones apart from the system ones, the containment tree shown for each,
// and the edit form's validation (id rule, "Invalid system permission" for contained ids, no cycles).
import type { PermissionDefinition } from '@gatehouse/shared/client';
import { findCycle, isSystemPermission } from '@gatehouse/shared/rules/permissions';
import { customPermissionIdText, permissionIdText } from './field-rules';
import { PermissionDefinitionCreate } from '@gatehouse/shared/schemas/permissions';
import { schemaProblems } from './schema-check';

export interface TreeNode {
  id: string;
  children: TreeNode[];
}

export function customDefinitions(defs: readonly PermissionDefinition[]): PermissionDefinition[] {
  return defs.filter((d) => !isSystemPermission(d.id));
}

/** What `id` contains, as a tree; a permission already on the path is shown once without children. */
export function containmentTree(id: string, defs: readonly PermissionDefinition[], path: readonly string[] = []): TreeNode[] {
  const def = defs.find((d) => d.id === id);
  return (def?.containedPermissionIds ?? []).map((child) => ({
    id: child,
    children: path.includes(child) || child === id ? [] : containmentTree(child, defs, [...path, id]),
  }));
}

export interface PermissionFormValues {
  id: string;
  description: string;
  contains: string[];
}

export function validatePermission(v: PermissionFormValues, defs: readonly PermissionDefinition[], editingId: string | null, cycleMessage: string): Record<string, string> {
  const errors: Record<string, string> = {};
  const id = v.id.trim();
  const idProblem = customPermissionIdText(id);
  if (idProblem) errors.id = idProblem;
  for (const p of schemaProblems(PermissionDefinitionCreate, { id, description: v.description, contained_permission_ids: v.contains })) {
    if (p.path === '/description') errors.description ??= p.text;
  }
  const containedProblem = v.contains.map((c) => permissionIdText(c)).find(Boolean);
  if (containedProblem) errors.contains = containedProblem;
  const map = new Map(defs.filter((d) => d.id !== editingId).map((d) => [d.id, d.containedPermissionIds]));
  if (!errors.contains && findCycle(map, id, v.contains)) errors.contains = cycleMessage;
  return errors;
}
