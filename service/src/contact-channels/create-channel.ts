// POST /contact-channels (protocol-resources §9.2). Writes for one user are serialised by locking the user's row
// (repo/contact-channels.ts `lockUser`); a new sign-in address is announced to the user's verified addresses.
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as channels from '../repo/contact-channels';
import type { Caller } from '../auth/caller';
import { assertRecentSignIn } from '../auth/recent-sign-in';
import { queueNotice, sendQueuedNotices } from '../auth/security-notices';
import { assertOwnChannels } from './access';

export interface NewContactChannel {
  caller: Caller;
  userId: string;
  value: string;
  usedForAuth: boolean;
  isPrimary?: boolean;
  /** A client cannot say so (its body has no `is_verified`). */
  isVerified?: boolean;
}

export async function createContactChannel(services: Services, input: NewContactChannel): Promise<channels.ChannelRow> {
  const { caller, userId, value, usedForAuth } = input;
  const projectId = caller.project.id;
  assertOwnChannels(caller, userId, 'create');
  // A new sign-in address with client access needs a recent sign-in (a stolen token must not add one).
  if (usedForAuth) await assertRecentSignIn(services, caller);
  const isVerified = input.isVerified ?? false;
  const row = await services.db.transaction(async (tx) => {
    if (!(await channels.lockUser(tx, projectId, userId))) {
      throw caller.type === 'client' ? new KnownErrors.CannotGetOwnUserWithoutUser() : new KnownErrors.UserIdDoesNotExist(userId);
    }
    if (await channels.findByValue(tx, projectId, userId, value)) throw new StatusError(400, 'Contact channel already exists');
    if (usedForAuth) await channels.assertFreeForAuth(tx, projectId, userId, value, value);
    if (input.isPrimary) await channels.demotePrimary(tx, projectId, userId);
    const recipients = usedForAuth ? await channels.verifiedAddresses(tx, projectId, userId) : [];
    const inserted = await channels.insert(tx, {
      projectId, userId, value, usedForAuth, isPrimary: input.isPrimary ?? false, isVerified,
      // A client's address signs in and receives sign-in and reset codes only once verified.
      authRequiresVerification: caller.type === 'client' && !isVerified,
    });
    if (usedForAuth) await queueNotice(tx, services, caller.project, { userId, type: 'sign_in_email_added', extra: { email: value }, to: recipients });
    return inserted;
  });
  sendQueuedNotices(services);
  return row;
}
