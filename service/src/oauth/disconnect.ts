// Disconnecting a user's OAuth account (ASVS 3.5.1; issue 30): the user from account settings, or the project's
// server or admin. The account and every provider token stored for it are deleted. Never the last way to sign in
// (LAST_SIGN_IN_METHOD); for a client it needs a recent sign-in, like turning any other sign-in method off.
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as users from '../repo/users';
import * as accounts from '../repo/oauth-accounts';
import { lockUser } from '../repo/contact-channels';
import type { Caller } from '../auth/caller';
import { assertRecentSignIn } from '../auth/recent-sign-in';
import { serverUserView } from '../presenters/users';

export async function disconnectOAuthAccount(services: Services, input: { caller: Caller; userId: string; providerId: string }): Promise<void> {
  const { caller, userId, providerId } = input;
  const project = caller.project;
  if (caller.type === 'client' && userId !== caller.userId) throw new StatusError(403, 'Client can only disconnect its own connected accounts');
  await assertRecentSignIn(services, caller);
  await services.db.transaction(async (tx) => {
    if (!(await lockUser(tx, project.id, userId))) throw new KnownErrors.UserNotFound();
    const user = await users.load(tx, project.id, userId);
    if (!user) throw new KnownErrors.UserNotFound();
    const linked = await accounts.listAllForUser(tx, project.id, userId);
    if (!linked.some((a) => a.providerId === providerId)) throw new KnownErrors.OAuthConnectionNotConnectedToUser();
    const otherOAuth = linked.some((a) => a.providerId !== providerId && a.usedForAuth);
    if (!user.has_password && !user.otp_auth_enabled && !user.passkey_auth_enabled && !otherOAuth) throw new KnownErrors.LastSignInMethod();
    await accounts.removeForUser(tx, project.id, userId, providerId);
    await services.events.emit(tx, project.id, 'user.updated', serverUserView((await users.load(tx, project.id, userId))!));
  });
}
