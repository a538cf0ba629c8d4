// Request and response bodies of the sign-in flows: password (protocol-auth §3.1), OTP / magic link (§3.2) and
// anonymous sign-up (§3.9). Every token answer is one of the two shapes below.
import { Type, type Static } from '@sinclair/typebox';
import { Code45, Email, SignInEmail, Strict, Url } from './common.ts';

/** What a sign-in or sign-up answers. */
export const SignInTokens = Strict({ access_token: Type.String(), refresh_token: Type.String(), user_id: Type.String() });
export type SignInTokens = Static<typeof SignInTokens>;
// Sign-ins that may create the user (OTP, OAuth, passkey, MFA) answer `SignInTokensWithNewUser` (mfa.ts).

/** A body the route ignores (some clients send `{}`, others nothing). */
export const IgnoredBody = Type.Optional(Type.Unknown());

/** Passwords are bounded as in the reference (bcrypt reads 72 bytes). */
export const Password = () => Type.String({ maxLength: 70 });

export const PasswordSignUpBody = Strict({ email: SignInEmail(), password: Password(), verification_callback_url: Type.Optional(Url()) });
export const PasswordSignInBody = Strict({ email: Email(), password: Password() });
export const PasswordUpdateBody = Strict({ old_password: Password(), new_password: Password() });
export const PasswordSetBody = Strict({ password: Password() });

export const PasswordResetSendBody = Strict({ email: Email(), callback_url: Url() });
/** The same answer whether or not the address belongs to a user. */
export const PasswordResetSent = Strict({ success: Type.Literal('maybe, only if user with e-mail exists') });
export const PasswordResetBody = Strict({ code: Code45(), password: Password() });

export const OtpSendBody = Strict({ email: SignInEmail(), callback_url: Url() });
/** The 39 characters of the code the mail does not show. */
export const OtpNonce = Strict({ nonce: Type.String() });
