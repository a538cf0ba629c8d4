// Whose contact channels a caller may touch (protocol-resources §9.2): a client only its own user's; servers and
// admins any user of the project.
import { StatusError } from '@gatehouse/shared/known-errors';
import type { Caller } from '../auth/caller';

export const CHANNEL_NOT_FOUND = 'Contact channel not found';

/** 403 for a client naming no user or another user than its own (`me` is resolved by the route). */
export function assertOwnChannels(caller: Caller, userId: string | undefined, action: 'create' | 'list' | 'read' | 'update' | 'delete'): void {
  if (caller.type === 'client' && (userId === undefined || userId !== caller.userId)) {
    throw new StatusError(403, `Client can only ${action} contact channels for their own user.`);
  }
}
