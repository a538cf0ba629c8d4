// OTP / magic-link sign-in (protocol-auth §3.2; the flow: auth/otp-sign-in.ts).
import { ACCESS_TYPES, STACK_HEADERS } from '@gatehouse/shared/constants';
import { OtpNonce, OtpSendBody } from '@gatehouse/shared/schemas/auth';
import { SignInTokensWithNewUser } from '@gatehouse/shared/schemas/mfa';
import { CodeBody, IsCodeValid } from '@gatehouse/shared/schemas/contact-channels';
import { route } from '../http/route';
import { checkOtpCode, sendOtpSignInCode, signInWithOtp } from '../auth/otp-sign-in';
import { signInTokensWithNewUserView } from '../presenters/sign-in';
import { magicLinkTemplateVersion } from '@gatehouse/shared/email-templates';

export const otpRoutes = [
  route({
    method: 'POST', path: '/auth/otp/send-sign-in-code', summary: 'Send a magic link and sign-in code by email', tags: ['OTP'],
    access: [...ACCESS_TYPES],
    body: OtpSendBody,
    response: OtpNonce,
    async handler({ services, auth, body, headers, ip }) {
      const nonce = await sendOtpSignInCode(services, {
        project: auth.project, email: body.email, callbackUrl: body.callback_url, ip,
        magicLinkVersion: magicLinkTemplateVersion(headers.get(STACK_HEADERS.clientVersion)),
      });
      return { nonce };
    },
  }),
  route({
    method: 'POST', path: '/auth/otp/sign-in/check-code', summary: 'Check a sign-in code', tags: ['OTP'],
    access: [...ACCESS_TYPES], body: CodeBody, response: IsCodeValid,
    async handler({ services, auth, body, ip }) {
      await checkOtpCode(services, { project: auth.project, code: body.code, ip });
      return { is_code_valid: true as const };
    },
  }),
  route({
    method: 'POST', path: '/auth/otp/sign-in', summary: 'Sign in with a magic link code or OTP + nonce', tags: ['OTP'],
    access: [...ACCESS_TYPES], body: CodeBody,
    response: SignInTokensWithNewUser,
    async handler({ services, auth, body, origin }) {
      const { tokens, isNewUser } = await signInWithOtp(services, { project: auth.project, code: body.code, origin });
      return signInTokensWithNewUserView(tokens, isNewUser);
    },
  }),
];
