// TOTP multi-factor sign-in (protocol-auth §3.5).
import { Type } from '@sinclair/typebox';
import { Code45, Strict } from './common.ts';

export const MfaSignInRequest = Strict({ code: Code45(), type: Type.Literal('totp'), totp: Type.String() });

/** Sign-in responses that say whether the user was just created (OTP, passkey, MFA). */
export const SignInTokensWithNewUser = Strict({
  access_token: Type.String(), is_new_user: Type.Boolean(), refresh_token: Type.String(), user_id: Type.String(),
});
