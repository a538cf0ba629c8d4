// Second step of a sign-in for users with TOTP MFA (protocol-auth §3.5; the limits: auth/mfa-sign-in.ts).
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { MfaSignInRequest, SignInTokensWithNewUser } from '@gatehouse/shared/schemas/mfa';
import { route } from '../http/route';
import { signInWithTotp } from '../auth/mfa-sign-in';
import { signInTokensWithNewUserView } from '../presenters/sign-in';

export const mfaRoutes = [
  route({
    method: 'POST', path: '/auth/mfa/sign-in', summary: 'Finish a sign-in with a TOTP code', tags: ['MFA'],
    access: [...ACCESS_TYPES],
    body: MfaSignInRequest,
    response: SignInTokensWithNewUser,
    async handler({ services, auth, body, origin }) {
      const { tokens, isNewUser } = await signInWithTotp(services, { project: auth.project, code: body.code, totp: body.totp, origin });
      return signInTokensWithNewUserView(tokens, isNewUser);
    },
  }),
];
