// Which text and which field a person sees for each error of the auth flows.
import { describe, expect, test } from 'bun:test';
import { KnownError, KnownErrors } from '@gatehouse/shared/known-errors';
import { NetworkError } from '@gatehouse/shared/client';
import { UntrustedRedirectError } from '@gatehouse/shared/rules/urls';
import { describeAuthError, untrustedRedirectUrl } from '../../src/lib/error-messages';
import { en } from '../../src/messages/en';

const known = (code: string) => KnownError.fromJSON({ code, error: 'server text' });

describe('describeAuthError', () => {
  test('each known error of the flows goes next to the field it concerns', () => {
    const table: [string, string, string][] = [
      ['EMAIL_PASSWORD_MISMATCH', 'password', 'Wrong e-mail or password.'],
      ['USER_EMAIL_ALREADY_EXISTS', 'email', en['error.userEmailAlreadyExists']],
      ['PASSWORD_TOO_SHORT', 'password', en['error.passwordRequirementsNotMet']],
      ['PASSWORD_TOO_LONG', 'password', en['error.passwordRequirementsNotMet']],
      ['SIGN_UP_NOT_ENABLED', 'form', 'Sign up for new users is not enabled at the moment.'],
      ['PASSWORD_AUTHENTICATION_NOT_ENABLED', 'form', en['error.passwordAuthNotEnabled']],
      ['PASSKEY_AUTHENTICATION_NOT_ENABLED', 'form', en['error.passkeyAuthNotEnabled']],
      ['REDIRECT_URL_NOT_WHITELISTED', 'form', en['error.redirectUrlNotWhitelisted']],
      ['VERIFICATION_CODE_NOT_FOUND', 'code', 'Incorrect code. Please try again.'],
      ['VERIFICATION_CODE_EXPIRED', 'code', en['error.codeExpired']],
      ['VERIFICATION_CODE_ALREADY_USED', 'code', en['error.codeAlreadyUsed']],
      ['VERIFICATION_CODE_MAX_ATTEMPTS_REACHED', 'code', en['error.codeMaxAttempts']],
      ['INVALID_TOTP_CODE', 'form', 'Invalid TOTP code. Please try signing in again.'],
      ['PASSKEY_AUTHENTICATION_FAILED', 'form', 'Failed to sign in with passkey'],
      ['PASSKEY_WEBAUTHN_ERROR', 'form', en['error.passkeyCancelled']],
      ['USER_NOT_FOUND', 'email', en['error.userNotFound']],
      ['RATE_LIMITED', 'form', en['error.rateLimited']],
    ];
    for (const [code, field, text] of table) {
      const d = describeAuthError(known(code));
      expect({ code, field: d.field as string, text: en[d.key] as string }).toEqual({ code, field, text });
    }
  });

  test("a password too short for the project's minimum says the minimum (issue 30)", () => {
    expect(describeAuthError(new KnownErrors.PasswordTooShort(12))).toEqual({ key: 'validation.passwordTooShort', field: 'password', values: { min: '12' } });
  });

  test('the decoded class instance works the same as one thrown by the service code', () => {
    expect(describeAuthError(new KnownErrors.EmailPasswordMismatch())).toEqual({ key: 'error.emailPasswordMismatch', field: 'password' });
  });

  test('another known error, a plain error or a non-error: the general message above the form', () => {
    expect(describeAuthError(known('TEAM_NOT_FOUND'))).toEqual({ key: 'error.unknown', field: 'form' });
    expect(describeAuthError(new Error('boom'))).toEqual({ key: 'error.unknown', field: 'form' });
    expect(describeAuthError('string')).toEqual({ key: 'error.unknown', field: 'form' });
  });

  test('a network failure says the server could not be reached', () => {
    const err = Object.create(NetworkError.prototype);
    expect(describeAuthError(err)).toEqual({ key: 'error.network', field: 'form' });
  });

  test('an untrusted redirect: its own text with the URL', () => {
    const err = new UntrustedRedirectError('https://evil.example/x');
    expect(describeAuthError(err)).toEqual({ key: 'error.untrustedRedirect', field: 'form', values: { url: 'https://evil.example/x' } });
    expect(en['error.untrustedRedirect'].replace('{url}', 'https://evil.example/x')).toBe(err.message);
  });
});

describe('untrustedRedirectUrl', () => {
  test("takes the URL of the client library's refusal only (never reading an error's text)", () => {
    expect(untrustedRedirectUrl(new UntrustedRedirectError('//evil.example'))).toBe('//evil.example');
    expect(untrustedRedirectUrl(new Error('Redirect URL //evil.example is not trusted; should be relative.'))).toBeNull();
    expect(untrustedRedirectUrl('Redirect URL x is not trusted; should be relative.')).toBeNull();
  });
});
