// The tokens of a sign-in as the auth routes answer them (protocol-auth §3): without `is_new_user` for password and
// anonymous sign-up/sign-in, with it where the protocol's answer has it (OTP, passkey, MFA).
/** A new session's tokens (auth/session-tokens.ts `IssuedTokens`). */
interface IssuedTokens { access_token: string; refresh_token: string; user_id: string }

export function signInTokensView(t: IssuedTokens) {
  return { access_token: t.access_token, refresh_token: t.refresh_token, user_id: t.user_id };
}

export function signInTokensWithNewUserView(t: IssuedTokens, isNewUser: boolean) {
  return { access_token: t.access_token, is_new_user: isNewUser, refresh_token: t.refresh_token, user_id: t.user_id };
}
