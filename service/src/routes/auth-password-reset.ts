// Password reset by emailed code (protocol-auth §3.1).
//
// No user enumeration: `send-reset-code` answers the same, in the same time, whether or not the email belongs
// to a user. Everything that depends on the answer (lookup, code, mail) runs after the response is decided and
// is not awaited, so the response time cannot tell; the callback URL is checked for every email (the reference
// checks it only for existing users, which told them apart), and the per-email limit counts every request.
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { getPasswordError } from '@gatehouse/shared/rules/password';
import { Success } from '@gatehouse/shared/schemas/common';
import { PasswordResetBody, PasswordResetSendBody, PasswordResetSent } from '@gatehouse/shared/schemas/auth';
import { CodeBody, IsCodeValid } from '@gatehouse/shared/schemas/contact-channels';
import { route } from '../http/route';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import * as users from '../repo/users';
import * as sessions from '../repo/sessions';
import { assertTrustedCallback, createCodeAndQueueEmail, limitCodeSending, redeemFlowCode } from '../auth/flow-emails';
import { queueNotice, sendQueuedNotices } from '../auth/security-notices';
import { assertNotCommonPassword } from '../auth/common-passwords';
import { invalidateResetCodes } from '../repo/verification-codes';
import { noteScopeUser } from '../observability/security-events';
import { serverUserView } from '../presenters/users';

function assertPasswordAuthEnabled(project: Project) {
  if (!project.config.credential_enabled) throw new KnownErrors.PasswordAuthenticationNotEnabled();
}

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

export const passwordResetRoutes = [
  route({
    method: 'POST', path: '/auth/password/send-reset-code', summary: 'Email a password reset link', tags: ['Password'],
    access: [...ACCESS_TYPES],
    body: PasswordResetSendBody,
    response: PasswordResetSent,
    async handler({ services, auth, body, ip }) {
      const project = auth.project;
      assertPasswordAuthEnabled(project);
      assertTrustedCallback(project, body.callback_url);
      await limitCodeSending(services, ip, project, body.email);
      void sendResetEmailIfUserExists(services, project, body.email, body.callback_url)
        .catch((err) => console.error('[password-reset] could not send the reset email:', err));
      return { success: 'maybe, only if user with e-mail exists' as const };
    },
  }),
  route({
    method: 'POST', path: '/auth/password/reset/check-code', summary: 'Check a password reset code', tags: ['Password'],
    access: [...ACCESS_TYPES], body: CodeBody, response: IsCodeValid,
    async handler({ services, auth, body, ip }) {
      await redeemFlowCode(services, ip, auth.project, { type: 'password_reset', code: body.code, consume: false });
      return { is_code_valid: true as const };
    },
  }),
  route({
    method: 'POST', path: '/auth/password/reset', summary: 'Set a new password with a reset code', tags: ['Password'],
    access: [...ACCESS_TYPES],
    body: PasswordResetBody,
    response: Success,
    async handler({ services, auth, body, ip }) {
      const project = auth.project;
      await redeemFlowCode(services, ip, project, {
        type: 'password_reset', code: body.code, consume: true,
        // Checked before the code is consumed (the reference burnt the code on a too-short password).
        validate: async () => {
          assertPasswordAuthEnabled(project);
          const error = getPasswordError(body.password);
          if (error) throw error;
          await assertNotCommonPassword(body.password);
        },
      }, async (row) => {
        const userId = (row.data as { user_id?: string }).user_id;
        if (!userId || !(await users.exists(services.db, project.id, userId))) throw new KnownErrors.UserNotFound();
        noteScopeUser(userId);
        const hash = await services.passwords.hash(body.password);
        // A reset means the old password may be known to someone else: every session ends. The reset is a user
        // update for webhooks (protocol-resources §12.6), emitted in the same transaction.
        await services.db.transaction(async (tx) => {
          await users.setPasswordHash(tx, project.id, userId, hash);
          await sessions.revokeAllForUser(tx, project.id, userId);
          // This code is used; every other outstanding reset link of the user ends with it.
          await invalidateResetCodes(tx, project.id, userId);
          const row = await users.load(tx, project.id, userId);
          await services.events.emit(tx, project.id, 'user.updated', row && serverUserView(row));
          await queueNotice(tx, services, project, { userId, type: 'password_changed', extra: {} });
        });
        sendQueuedNotices(services);
        await services.revokedSessions.sync();
      });
      return { success: true as const };
    },
  }),
];
