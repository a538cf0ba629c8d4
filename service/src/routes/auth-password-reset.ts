// Password reset by emailed code (protocol-auth §3.1; no user enumeration: auth/password-reset.ts).
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { Success } from '@gatehouse/shared/schemas/common';
import { PasswordResetBody, PasswordResetSendBody, PasswordResetSent } from '@gatehouse/shared/schemas/auth';
import { CodeBody, IsCodeValid } from '@gatehouse/shared/schemas/contact-channels';
import { route } from '../http/route';
import { checkPasswordResetCode, resetPassword, sendPasswordResetCode } from '../auth/password-reset';

export const passwordResetRoutes = [
  route({
    method: 'POST', path: '/auth/password/send-reset-code', summary: 'Email a password reset link', tags: ['Password'],
    access: [...ACCESS_TYPES],
    body: PasswordResetSendBody,
    response: PasswordResetSent,
    async handler({ services, auth, body, ip }) {
      await sendPasswordResetCode(services, { project: auth.project, email: body.email, callbackUrl: body.callback_url, ip });
      return { success: 'maybe, only if user with e-mail exists' as const };
    },
  }),
  route({
    method: 'POST', path: '/auth/password/reset/check-code', summary: 'Check a password reset code', tags: ['Password'],
    access: [...ACCESS_TYPES], body: CodeBody, response: IsCodeValid,
    async handler({ services, auth, body, ip }) {
      await checkPasswordResetCode(services, { project: auth.project, code: body.code, ip });
      return { is_code_valid: true as const };
    },
  }),
  route({
    method: 'POST', path: '/auth/password/reset', summary: 'Set a new password with a reset code', tags: ['Password'],
    access: [...ACCESS_TYPES],
    body: PasswordResetBody,
    response: Success,
    async handler({ services, auth, body, ip }) {
      await resetPassword(services, { project: auth.project, code: body.code, password: body.password, ip });
      return { success: true as const };
    },
  }),
];
