// OTP / magic-link sign-in (protocol-auth §3.2). One 45-character code serves both: the link carries it whole,
// the mail shows its first 6 characters upper-cased (the OTP), and the caller keeps the other 39 (the nonce).
import { ACCESS_TYPES, STACK_HEADERS } from '@gatehouse/shared/constants';
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import { splitOtp } from '@gatehouse/shared/rules/codes';
import { OtpNonce, OtpSendBody } from '@gatehouse/shared/schemas/auth';
import { SignInTokensWithNewUser } from '@gatehouse/shared/schemas/mfa';
import { CodeBody, IsCodeValid } from '@gatehouse/shared/schemas/contact-channels';
import { route } from '../http/route';
import * as users from '../repo/users';
import { updateUserColumns } from '../repo/user-writes';
import { createUser } from '../users/create';
import { completeSignIn } from '../auth/sign-in';
import type { IssuedTokens } from '../auth/session-tokens';
import { assertTrustedCallback, createCodeAndQueueEmail, limitCodeSending, redeemFlowCode } from '../auth/flow-emails';
import { magicLinkTemplateVersion } from '@gatehouse/shared/email-templates';

interface OtpData { user_id?: string; is_new_user: boolean }

export const otpRoutes = [
  route({
    method: 'POST', path: '/auth/otp/send-sign-in-code', summary: 'Send a magic link and sign-in code by email', tags: ['OTP'],
    access: [...ACCESS_TYPES],
    body: OtpSendBody,
    response: OtpNonce,
    async handler({ services, auth, body, headers, ip }) {
      const project = auth.project;
      if (!project.config.magic_link_enabled) throw new StatusError(403, 'Magic link is not enabled for this project');
      // Limits before the lookup (ASVS 11.1.2): its answers (an unverified address exists) are not a free oracle.
      assertTrustedCallback(project, body.callback_url);
      await limitCodeSending(services, ip, project, body.email);
      const found = await users.findByAuthEmail(services.db, project.id, body.email);
      if (found && !found.isVerified) throw new KnownErrors.UserEmailAlreadyExists(body.email);
      if (!found && !project.config.sign_up_enabled) throw new KnownErrors.SignUpNotEnabled();
      const data: OtpData = found ? { user_id: found.userId, is_new_user: false } : { is_new_user: true };
      const code = await createCodeAndQueueEmail(services, project, {
        template: 'magic_link', to: body.email, callbackUrl: body.callback_url,
        method: { email: body.email, type: 'email' }, data: { ...data },
        variables: (c) => ({ otp: splitOtp(c).otp }),
        magicLinkVersion: magicLinkTemplateVersion(headers.get(STACK_HEADERS.clientVersion)),
      });
      return { nonce: splitOtp(code).nonce };
    },
  }),
  route({
    method: 'POST', path: '/auth/otp/sign-in/check-code', summary: 'Check a sign-in code', tags: ['OTP'],
    access: [...ACCESS_TYPES], body: CodeBody, response: IsCodeValid,
    async handler({ services, auth, body, ip }) {
      await redeemFlowCode(services, ip, auth.project, { type: 'one_time_password', code: body.code, consume: false });
      return { is_code_valid: true as const };
    },
  }),
  route({
    method: 'POST', path: '/auth/otp/sign-in', summary: 'Sign in with a magic link code or OTP + nonce', tags: ['OTP'],
    access: [...ACCESS_TYPES], body: CodeBody,
    response: SignInTokensWithNewUser,
    async handler({ services, auth, body, origin, ip }) {
      const project = auth.project;
      let tokens: IssuedTokens | undefined;
      let isNewUser = false;
      await redeemFlowCode(services, ip, project, { type: 'one_time_password', code: body.code, consume: true }, async (row) => {
        const data = row.data as OtpData;
        const email = (row.method as { email: string }).email;
        isNewUser = data.is_new_user;
        let userId: string;
        if (data.is_new_user) {
          // Sign-up may have been switched off since the code was sent.
          if (!project.config.sign_up_enabled) throw new KnownErrors.SignUpNotEnabled();
          const { user } = await services.db.transaction((tx) =>
            createUser(services.events, tx, project, { primaryEmail: email, primaryEmailVerified: true, primaryEmailAuthEnabled: true, otpAuthEnabled: true }));
          userId = user.id;
        } else {
          const user = data.user_id ? await users.load(services.db, project.id, data.user_id) : null;
          if (!user) throw new KnownErrors.UserNotFound();
          userId = user.id;
          // Proving control of the sign-in email adds the OTP method (account merge), only now that it is proven.
          if (!user.otp_auth_enabled) await updateUserColumns(services.db, project.id, userId, { otpAuthEnabled: true });
        }
        // A new user has no second factor: no MFA step to look up.
        tokens = await completeSignIn(services, { projectId: project.id, userId, isNewUser, origin, ...(isNewUser ? { hasTotp: false } : {}) });
      });
      const t = tokens!;
      return { access_token: t.access_token, is_new_user: isNewUser, refresh_token: t.refresh_token, user_id: t.user_id };
    },
  }),
];
