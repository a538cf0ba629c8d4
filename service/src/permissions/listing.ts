// What GET /project-permissions and GET /team-permissions share (protocol-resources §6, §8): who may list whose
// permissions, and the recursive expansion of each holder's direct grants.
import { StatusError } from '@gatehouse/shared/known-errors';
import { expandPermissions } from '@gatehouse/shared/rules/permissions';
import type { Caller } from '../auth/caller';

export const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A client may only list its own user's permissions (`userId`: the resolved `user_id` filter). */
export function assertListable(caller: Caller, userId: string | undefined): void {
  if (caller.type === 'client' && (userId === undefined || userId !== caller.userId)) {
    throw new StatusError(403, 'Client can only list permissions for their own user. user_id must be either "me" or the ID of the current user');
  }
}

/**
 * Every permission each holder (`holderKey`) has through its direct grants, directly or contained; `item` builds
 * the listed row from one of the holder's grants and a permission id.
 */
export function expandByHolder<G extends { permissionId: string }, T>(
  direct: readonly G[], graph: ReadonlyMap<string, readonly string[]>, holderKey: (g: G) => string, item: (g: G, id: string) => T,
): T[] {
  const byHolder = new Map<string, { grant: G; ids: string[] }>();
  for (const g of direct) {
    const entry = byHolder.get(holderKey(g)) ?? { grant: g, ids: [] };
    entry.ids.push(g.permissionId);
    byHolder.set(holderKey(g), entry);
  }
  return [...byHolder.values()].flatMap((h) => [...expandPermissions(h.ids, graph)].map((id) => item(h.grant, id)));
}
