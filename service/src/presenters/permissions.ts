// Permission definitions and grants as the API shows them (protocol-resources §6-§8).
import type { PermissionDefinition, ProjectPermission, TeamPermission } from '@gatehouse/shared/schemas/permissions';

/** A definition (permissions/definitions.ts `Definition`): no `description` key when it has none. */
export function definitionView(r: { id: string; description: string | null; containedPermissionIds: readonly string[] }): PermissionDefinition {
  return {
    id: r.id,
    ...(r.description ? { description: r.description } : {}),
    contained_permission_ids: [...r.containedPermissionIds].sort(),
  };
}

export function projectPermissionView(g: { id: string; userId: string }): ProjectPermission {
  return { id: g.id, user_id: g.userId };
}

export function teamPermissionView(g: { id: string; teamId: string; userId: string }): TeamPermission {
  return { id: g.id, team_id: g.teamId, user_id: g.userId };
}
