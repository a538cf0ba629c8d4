// DELETE /contact-channels/{user_id}/{id} (protocol-resources §9.2); a removed sign-in address is announced to the
// addresses verified before the removal (itself included).
import { StatusError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as channels from '../repo/contact-channels';
import type { Caller } from '../auth/caller';
import { queueNotice, sendQueuedNotices } from '../auth/security-notices';
import { assertOwnChannels, CHANNEL_NOT_FOUND } from './access';

export async function deleteContactChannel(services: Services, input: { caller: Caller; userId: string; channelId: string }): Promise<void> {
  const { caller, userId } = input;
  const projectId = caller.project.id;
  assertOwnChannels(caller, userId, 'delete');
  await services.db.transaction(async (tx) => {
    await channels.lockUser(tx, projectId, userId);
    const recipients = await channels.verifiedAddresses(tx, projectId, userId);
    const removed = await channels.remove(tx, projectId, userId, input.channelId);
    if (!removed) throw new StatusError(400, CHANNEL_NOT_FOUND);
    if (removed.usedForAuth) {
      await queueNotice(tx, services, caller.project, { userId, type: 'sign_in_email_removed', extra: { email: removed.value }, to: recipients });
    }
  });
  sendQueuedNotices(services);
}
