// Password reset by emailed code (protocol-auth §3.1).
//
// No user enumeration: `sendPasswordResetCode` answers the same, in the same time, whether or not the email belongs
// to a user. Everything that depends on the answer (lookup, code, mail) runs after the answer is decided and is not
// awaited, so the response time cannot tell; the callback URL is checked for every email (the reference checks it
// only for existing users, which told them apart), and the per-email limit counts every request.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import * as users from '../repo/users';
import * as sessions from '../repo/sessions';
import { invalidateResetCodes } from '../repo/verification-codes';
import { noteScopeUser } from '../observability/security-events';
import { serverUserView } from '../presenters/users';
import { assertTrustedCallback, createCodeAndQueueEmail, limitCodeSending, redeemFlowCode } from './flow-emails';
import { noteOwnerAddress } from './rate-limits';
import { assertPasswordAcceptable, assertPasswordAuthEnabled } from './password-policy';
import { queueNotice, sendQueuedNotices } from './security-notices';
import { assertSsoNotRequired } from '../sso/required-domains';

async function sendResetEmailIfUserExists(services: Services, project: Project, email: string, callbackUrl: string) {
  const found = await users.findByAuthEmail(services.db, project.id, email);
  // An address a client added is not a recovery address until verified (a stolen token must not add one).
  if (!found || !found.usableForAuth) return;
  const user = await users.load(services.db, project.id, found.userId);
  if (!user) return;
  // Users without a password get the mail too: the reset then creates their password.
  await createCodeAndQueueEmail(services, project, {
    template: 'password_reset', to: email, callbackUrl,
    method: { email }, data: { user_id: user.id },
    variables: () => ({ userDisplayName: user.display_name }),
  });
}

/** POST /auth/password/send-reset-code: queues the reset mail if the address may recover an account. */
export async function sendPasswordResetCode(services: Services, input: { project: Project; email: string; callbackUrl: string; ip: string }): Promise<void> {
  const { project, email, callbackUrl } = input;
  assertPasswordAuthEnabled(project);
  assertSsoNotRequired(project.id, email);
  assertTrustedCallback(project, callbackUrl);
  await limitCodeSending(services, input.ip, project, email);
  void sendResetEmailIfUserExists(services, project, email, callbackUrl)
    .catch((err) => console.error('[password-reset] could not send the reset email:', err));
}

/** POST /auth/password/reset/check-code: is the code valid (counted like a redemption, not used up)? */
export async function checkPasswordResetCode(services: Services, input: { project: Project; code: string; ip: string }): Promise<void> {
  await redeemFlowCode(services, input.ip, input.project, { type: 'password_reset', code: input.code, consume: false });
}

/**
 * POST /auth/password/reset: a new password with a reset code. A reset means the old password may be known to
 * someone else: every session ends. The reset is a user update for webhooks (protocol-resources §12.6).
 */
export async function resetPassword(services: Services, input: { project: Project; code: string; password: string; ip: string }): Promise<void> {
  const { project, password } = input;
  await redeemFlowCode(services, input.ip, project, {
    type: 'password_reset', code: input.code, consume: true,
    // Checked before the code is consumed (the reference burnt the code on a too-short password).
    validate: async () => {
      assertPasswordAuthEnabled(project);
      await assertPasswordAcceptable(project, password);
    },
  }, async (row) => {
    const userId = (row.data as { user_id?: string }).user_id;
    if (!userId || !(await users.exists(services.db, project.id, userId))) throw new KnownErrors.UserNotFound();
    noteScopeUser(userId);
    const hash = await services.passwords.hash(password);
    await services.db.transaction(async (tx) => {
      await users.setPasswordHash(tx, project.id, userId, hash);
      await sessions.revokeAllForUser(tx, project.id, userId);
      // This code is used; every other outstanding reset link of the user ends with it.
      await invalidateResetCodes(tx, project.id, userId);
      const user = await users.load(tx, project.id, userId);
      await services.events.emit(tx, project.id, 'user.updated', user && serverUserView(user));
      await queueNotice(tx, services, project, { userId, type: 'password_changed', extra: {} });
    });
    sendQueuedNotices(services);
    await services.revokedSessions.sync();
    // The mailbox's owner, from here: their new password is checked from this address though guessers elsewhere
    // have spent the account's sign-in budget (auth/rate-limits.ts, sign_in_account_all).
    const email = (row.method as { email?: string }).email;
    if (email) await noteOwnerAddress(services, project.id, email, input.ip);
  });
}
