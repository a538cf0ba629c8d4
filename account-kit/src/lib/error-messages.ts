// Which catalogue text a person sees for an error of the auth flows, and next to which field it goes.
// Pure, so the mapping is unit-tested rather than decided in JSX.
import { KnownError } from '@gatehouse/shared/known-errors/base';
import { NetworkError } from '@gatehouse/shared/client';
import { UntrustedRedirectError } from '@gatehouse/shared/rules/urls';
import type { MessageKey } from '../messages';

export type ErrorField = 'email' | 'password' | 'code' | 'form';

const BY_CODE: Record<string, { key: MessageKey; field: ErrorField }> = {
  EMAIL_PASSWORD_MISMATCH: { key: 'error.emailPasswordMismatch', field: 'password' },
  USER_EMAIL_ALREADY_EXISTS: { key: 'error.userEmailAlreadyExists', field: 'email' },
  PASSWORD_REQUIREMENTS_NOT_MET: { key: 'error.passwordRequirementsNotMet', field: 'password' },
  PASSWORD_TOO_SHORT: { key: 'error.passwordRequirementsNotMet', field: 'password' },
  PASSWORD_TOO_LONG: { key: 'error.passwordRequirementsNotMet', field: 'password' },
  SIGN_UP_NOT_ENABLED: { key: 'error.signUpNotEnabled', field: 'form' },
  PASSWORD_AUTHENTICATION_NOT_ENABLED: { key: 'error.passwordAuthNotEnabled', field: 'form' },
  PASSKEY_AUTHENTICATION_NOT_ENABLED: { key: 'error.passkeyAuthNotEnabled', field: 'form' },
  REDIRECT_URL_NOT_WHITELISTED: { key: 'error.redirectUrlNotWhitelisted', field: 'form' },
  VERIFICATION_CODE_NOT_FOUND: { key: 'error.incorrectCode', field: 'code' },
  VERIFICATION_CODE_EXPIRED: { key: 'error.codeExpired', field: 'code' },
  VERIFICATION_CODE_ALREADY_USED: { key: 'error.codeAlreadyUsed', field: 'code' },
  VERIFICATION_CODE_MAX_ATTEMPTS_REACHED: { key: 'error.codeMaxAttempts', field: 'code' },
  INVALID_TOTP_CODE: { key: 'error.invalidTotpCode', field: 'form' },
  PASSKEY_AUTHENTICATION_FAILED: { key: 'error.passkeyFailed', field: 'form' },
  PASSKEY_WEBAUTHN_ERROR: { key: 'error.passkeyCancelled', field: 'form' },
  USER_NOT_FOUND: { key: 'error.userNotFound', field: 'email' },
  RATE_LIMITED: { key: 'error.rateLimited', field: 'form' },
  LAST_SIGN_IN_METHOD: { key: 'settings.connected.lastMethod', field: 'form' },
  SSO_NOT_CONFIGURED: { key: 'error.ssoNotConfigured', field: 'email' },
  SSO_REQUIRED: { key: 'error.ssoRequired', field: 'form' },
};

export type AuthErrorText = { key: MessageKey; field: ErrorField; values?: Record<string, string> };

/**
 * The URL of the client library's refusal of a non-relative redirect target (e.g. a hostile after_auth_return_to),
 * which the catalogue words in every language; null for any other error.
 */
export function untrustedRedirectUrl(err: unknown): string | null {
  return err instanceof UntrustedRedirectError ? err.url : null;
}

/** The catalogue key of a known error's code, when the kit words that code itself. */
export function knownErrorKey(code: string): MessageKey | undefined {
  return BY_CODE[code]?.key;
}

/** The text key (and its values) and field for an error thrown or returned by the client library. */
export function describeAuthError(err: unknown): AuthErrorText {
  const untrusted = untrustedRedirectUrl(err);
  if (untrusted !== null) return { key: 'error.untrustedRedirect', field: 'form', values: { url: untrusted } };
  if (err instanceof KnownError) {
    // A project may ask for more than 8 characters (its security settings): say how many, as the service does.
    const min = (err.details as { min_length?: unknown } | undefined)?.min_length;
    if (err.errorCode === 'PASSWORD_TOO_SHORT' && typeof min === 'number') return { key: 'validation.passwordTooShort', field: 'password', values: { min: String(min) } };
    return BY_CODE[err.errorCode] ?? { key: 'error.unknown', field: 'form' };
  }
  if (err instanceof NetworkError) return { key: 'error.network', field: 'form' };
  return { key: 'error.unknown', field: 'form' };
}

/**
 * The address an SSO_REQUIRED refusal names: the form sends the person on to their organization's sign-in instead
 * of showing an error. Null for any other error.
 */
export function ssoRequiredEmail(err: unknown): string | null {
  if (!(err instanceof KnownError) || err.errorCode !== 'SSO_REQUIRED') return null;
  const email = (err.details as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email : null;
}
