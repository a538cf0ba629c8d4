// Passkey and OTP sign-in sections (client-library §7.3): which state each shows. A method that is the only
// way to sign in cannot be turned off. Pure.

export interface SignInMethodsUser {
  hasPassword: boolean;
  otpAuthEnabled: boolean;
  passkeyAuthEnabled: boolean;
  oauthProviders: readonly unknown[];
}
export interface SignInChannel { type: string; isVerified: boolean; usedForAuth: boolean }

/** An email that is verified and used for sign-in: needed to turn passkey or OTP sign-in on. */
export function hasValidSignInEmail(channels: readonly SignInChannel[]): boolean {
  return channels.some((c) => c.type === 'email' && c.isVerified && c.usedForAuth);
}

/** Password form: needs any sign-in email (verification not required). */
export function hasSignInEmail(channels: readonly SignInChannel[]): boolean {
  return channels.some((c) => c.type === 'email' && c.usedForAuth);
}

export function isPasskeyOnlyMethod(u: SignInMethodsUser): boolean {
  return u.passkeyAuthEnabled && !u.hasPassword && u.oauthProviders.length === 0 && !u.otpAuthEnabled;
}

export function isOtpOnlyMethod(u: SignInMethodsUser): boolean {
  return u.otpAuthEnabled && !u.hasPassword && u.oauthProviders.length === 0 && !u.passkeyAuthEnabled;
}

export type PasskeyState = 'no-valid-email' | 'can-register' | 'only-method' | 'can-disable';
export function passkeyState(u: SignInMethodsUser, channels: readonly SignInChannel[]): PasskeyState {
  if (!hasValidSignInEmail(channels)) return 'no-valid-email';
  if (!u.passkeyAuthEnabled) return 'can-register';
  return isPasskeyOnlyMethod(u) ? 'only-method' : 'can-disable';
}

export type OtpState = 'no-valid-email' | 'disabled' | 'only-method' | 'can-disable';
export function otpState(u: SignInMethodsUser, channels: readonly SignInChannel[]): OtpState {
  if (!hasValidSignInEmail(channels)) return 'no-valid-email';
  if (!u.otpAuthEnabled) return 'disabled';
  return isOtpOnlyMethod(u) ? 'only-method' : 'can-disable';
}

/**
 * Whether the account's OAuth account at this provider may be disconnected (ASVS 3.5.1): not when it is the last way
 * to sign in (no password, sign-in code or passkey, and no account at another provider). The service checks it too
 * (LAST_SIGN_IN_METHOD).
 */
export function canDisconnectOAuth(u: Omit<SignInMethodsUser, 'oauthProviders'> & { oauthProviders: readonly { id: string }[] }, providerId: string): boolean {
  return u.hasPassword || u.otpAuthEnabled || u.passkeyAuthEnabled || u.oauthProviders.some((p) => p.id !== providerId);
}

/** The name of the file a data export is saved as: the project's name is not in it, the date is. */
export function exportFileName(now: Date): string {
  return `account-data-${now.toISOString().slice(0, 10)}.json`;
}
