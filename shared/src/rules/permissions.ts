// Team permission ids and containment (protocol-resources §6, §7; seed §5, §6).

/** Any permission id, including system ones. */
export const PERMISSION_ID_PATTERN = /^\$?[a-z0-9_:]+$/;
export const PERMISSION_ID_MESSAGE =
  'Only lowercase letters, numbers, ":", "_" and optional "$" at the beginning are allowed';
/** Ids of custom definitions created through the admin API. */
export const CUSTOM_PERMISSION_ID_PATTERN = /^[a-z0-9_:]+$/;
export const CUSTOM_PERMISSION_ID_MESSAGE = 'Only lowercase letters, numbers, ":", "_" are allowed';
export const INVALID_SYSTEM_PERMISSION_MESSAGE = 'Invalid system permission';

/** protocol-resources §7.2 (six, including `$manage_api_keys`, which the seed omits). Sorted by id. */
export const TEAM_SYSTEM_PERMISSIONS = [
  { id: '$delete_team', description: 'Delete the team' },
  { id: '$invite_members', description: 'Invite other users to the team' },
  { id: '$manage_api_keys', description: 'Create and manage API keys for the team' },
  { id: '$read_members', description: 'Read and list the other members of the team' },
  { id: '$remove_members', description: 'Remove other members from the team' },
  { id: '$update_team', description: 'Update the team information' },
] as const;

export type TeamSystemPermissionId = (typeof TEAM_SYSTEM_PERMISSIONS)[number]['id'];

export const TEAM_SYSTEM_PERMISSION_IDS: readonly TeamSystemPermissionId[] = TEAM_SYSTEM_PERMISSIONS.map((p) => p.id);

const systemIds: ReadonlySet<string> = new Set(TEAM_SYSTEM_PERMISSION_IDS);

export function isSystemPermission(id: string): id is TeamSystemPermissionId {
  return systemIds.has(id);
}

/** Every problem the reference schema reports for a permission id, in order. */
export function permissionIdProblems(id: string): string[] {
  const problems: string[] = [];
  if (!PERMISSION_ID_PATTERN.test(id)) problems.push(PERMISSION_ID_MESSAGE);
  if (id.startsWith('$') && !isSystemPermission(id)) problems.push(INVALID_SYSTEM_PERMISSION_MESSAGE);
  return problems;
}

/** First problem with a (possibly system) permission id, or undefined when it is acceptable. */
export function permissionIdProblem(id: string): string | undefined {
  return permissionIdProblems(id)[0];
}

/** Problem with the id of a custom definition (no `$`), or undefined. */
export function customPermissionIdProblem(id: string): string | undefined {
  return CUSTOM_PERMISSION_ID_PATTERN.test(id) ? undefined : CUSTOM_PERMISSION_ID_MESSAGE;
}

/**
 * Transitive closure of `directIds` over `definitions` (id → contained ids). The direct ids are included; ids
 * without a definition (e.g. system permissions) are leaves. Iterative, so deep chains and cycles are fine.
 */
export function expandPermissions(
  directIds: Iterable<string>,
  definitions: ReadonlyMap<string, readonly string[]>,
): Set<string> {
  const result = new Set<string>();
  const stack: string[] = [];
  for (const id of directIds) {
    if (!result.has(id)) {
      result.add(id);
      stack.push(id);
    }
  }
  while (stack.length > 0) {
    const contained = definitions.get(stack.pop()!);
    if (!contained) continue;
    for (const child of contained) {
      if (!result.has(child)) {
        result.add(child);
        stack.push(child);
      }
    }
  }
  return result;
}

/**
 * If giving `id` the contained list `newContained` would create a cycle, returns one shortest cycle as a path
 * starting and ending with `id` (e.g. `['a', 'b', 'a']`; self-containment gives `['a', 'a']`); else undefined.
 * Only `id`'s own entry is replaced; the rest of `definitions` is taken as it is.
 */
export function findCycle(
  definitions: ReadonlyMap<string, readonly string[]>,
  id: string,
  newContained: Iterable<string>,
): string[] | undefined {
  // Breadth-first search from id's new children back to id; parent links rebuild the path.
  const parent = new Map<string, string>();
  const queue: string[] = [];
  for (const child of newContained) {
    if (child === id) return [id, id];
    if (!parent.has(child)) {
      parent.set(child, id);
      queue.push(child);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    const current = queue[head]!;
    for (const child of definitions.get(current) ?? []) {
      if (child === id) {
        const chain: string[] = [];
        for (let node = current; node !== id; node = parent.get(node)!) chain.push(node);
        return [id, ...chain.reverse(), id];
      }
      if (!parent.has(child)) {
        parent.set(child, current);
        queue.push(child);
      }
    }
  }
  return undefined;
}
