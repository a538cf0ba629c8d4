// PATCH /contact-channels/{user_id}/{id} (protocol-resources §9.2): value, verification, sign-in use and primary
// flag, in one transaction under the user's row lock; sign-in addresses added or removed are announced.
import type { ServerContactChannelUpdate } from '@gatehouse/shared/schemas/contact-channels';
import { StatusError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as channels from '../repo/contact-channels';
import type { Caller } from '../auth/caller';
import { assertRecentSignIn } from '../auth/recent-sign-in';
import { queueNotice, sendQueuedNotices } from '../auth/security-notices';
import { assertOwnChannels, CHANNEL_NOT_FOUND } from './access';

export interface ContactChannelUpdate {
  caller: Caller;
  userId: string;
  channelId: string;
  /** The decoded body; a client's has no `is_verified`. */
  changes: ServerContactChannelUpdate;
}

export async function updateContactChannel(services: Services, input: ContactChannelUpdate): Promise<channels.ChannelRow> {
  const { caller, userId, changes: b } = input;
  const projectId = caller.project.id;
  assertOwnChannels(caller, userId, 'update');
  const updated = await services.db.transaction(async (tx) => {
    if (!(await channels.lockUser(tx, projectId, userId))) throw new StatusError(400, CHANNEL_NOT_FOUND);
    const row = await channels.find(tx, projectId, userId, input.channelId);
    if (!row) throw new StatusError(400, CHANNEL_NOT_FOUND);
    const set: Parameters<typeof channels.update>[2] = {};
    const changed = b.value !== undefined && b.value !== row.value;
    const value = changed ? b.value! : row.value;
    if (changed) {
      if (await channels.findByValue(tx, projectId, userId, value)) throw new StatusError(400, 'Contact channel already exists');
      set.value = value;
      // A new address is unverified unless a server says otherwise.
      set.isVerified = false;
    }
    if (b.is_verified !== undefined) set.isVerified = b.is_verified;
    const usedForAuth = b.used_for_auth ?? row.usedForAuth;
    if (b.used_for_auth !== undefined) set.usedForAuth = b.used_for_auth;
    const becomesAuth = usedForAuth && (changed || !row.usedForAuth);
    if (becomesAuth) {
      // A new sign-in address (ASVS 3.7.1): a client needs a recent sign-in, and the address signs in and
      // receives codes only once verified; a server's change is trusted as it is.
      if (caller.type === 'client') {
        await assertRecentSignIn(services, caller, tx);
        if (!(set.isVerified ?? row.isVerified)) set.authRequiresVerification = true;
      } else {
        set.authRequiresVerification = false;
      }
      await channels.assertFreeForAuth(tx, projectId, userId, value, null);
    }
    if (b.is_primary === true) await channels.demotePrimary(tx, projectId, userId, row.id);
    if (b.is_primary !== undefined) set.isPrimary = b.is_primary;
    const recipients = await channels.verifiedAddresses(tx, projectId, userId);
    const saved = await channels.update(tx, row.id, set);
    if (row.usedForAuth && (changed || !usedForAuth)) {
      await queueNotice(tx, services, caller.project, { userId, type: 'sign_in_email_removed', extra: { email: row.value }, to: recipients });
    }
    if (becomesAuth) await queueNotice(tx, services, caller.project, { userId, type: 'sign_in_email_added', extra: { email: value }, to: recipients });
    return saved;
  });
  sendQueuedNotices(services);
  return updated;
}
