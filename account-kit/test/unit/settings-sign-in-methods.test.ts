// The only-sign-in-method rules of the passkey and OTP sections (client-library §7.3).
import { describe, expect, test } from 'bun:test';
import { canDisconnectOAuth, exportFileName, hasSignInEmail, hasValidSignInEmail, isOtpOnlyMethod, isPasskeyOnlyMethod, otpState, passkeyState, type SignInMethodsUser } from '../../src/lib/only-sign-in-method';

const user = (o: Partial<SignInMethodsUser> = {}): SignInMethodsUser => ({ hasPassword: false, otpAuthEnabled: false, passkeyAuthEnabled: false, oauthProviders: [], ...o });
const good = [{ type: 'email', isVerified: true, usedForAuth: true }];
const unverified = [{ type: 'email', isVerified: false, usedForAuth: true }];
const notForAuth = [{ type: 'email', isVerified: true, usedForAuth: false }];

describe('sign-in emails', () => {
  test('passkey and OTP need a verified sign-in email; the password form any sign-in email', () => {
    expect(hasValidSignInEmail(good)).toBe(true);
    expect(hasValidSignInEmail(unverified)).toBe(false);
    expect(hasValidSignInEmail(notForAuth)).toBe(false);
    expect(hasSignInEmail(unverified)).toBe(true);
    expect(hasSignInEmail(notForAuth)).toBe(false);
    expect(hasSignInEmail([])).toBe(false);
  });
});

describe('passkey', () => {
  test('only method: passkey on, no password, no OAuth, OTP off', () => {
    expect(isPasskeyOnlyMethod(user({ passkeyAuthEnabled: true }))).toBe(true);
    expect(isPasskeyOnlyMethod(user({ passkeyAuthEnabled: true, hasPassword: true }))).toBe(false);
    expect(isPasskeyOnlyMethod(user({ passkeyAuthEnabled: true, otpAuthEnabled: true }))).toBe(false);
    expect(isPasskeyOnlyMethod(user({ passkeyAuthEnabled: true, oauthProviders: [{ id: 'github' }] }))).toBe(false);
    expect(isPasskeyOnlyMethod(user())).toBe(false);
  });
  test('states', () => {
    expect(passkeyState(user({ hasPassword: true }), unverified)).toBe('no-valid-email');
    expect(passkeyState(user({ hasPassword: true }), good)).toBe('can-register');
    expect(passkeyState(user({ passkeyAuthEnabled: true }), good)).toBe('only-method');
    expect(passkeyState(user({ passkeyAuthEnabled: true, hasPassword: true }), good)).toBe('can-disable');
  });
});

describe('OTP', () => {
  test('only method: OTP on, no password, no OAuth, passkey off', () => {
    expect(isOtpOnlyMethod(user({ otpAuthEnabled: true }))).toBe(true);
    expect(isOtpOnlyMethod(user({ otpAuthEnabled: true, passkeyAuthEnabled: true }))).toBe(false);
    expect(isOtpOnlyMethod(user({ otpAuthEnabled: true, hasPassword: true }))).toBe(false);
    expect(isOtpOnlyMethod(user({ otpAuthEnabled: true, oauthProviders: [{ id: 'google' }] }))).toBe(false);
  });
  test('states', () => {
    expect(otpState(user({ otpAuthEnabled: true }), notForAuth)).toBe('no-valid-email');
    expect(otpState(user({ hasPassword: true }), good)).toBe('disabled');
    expect(otpState(user({ otpAuthEnabled: true }), good)).toBe('only-method');
    expect(otpState(user({ otpAuthEnabled: true, hasPassword: true }), good)).toBe('can-disable');
  });
});

describe('connected accounts and the data export (issue 30)', () => {
  const base = { hasPassword: false, otpAuthEnabled: false, passkeyAuthEnabled: false };
  test('an OAuth account is never the last way to sign in that can be disconnected', () => {
    expect(canDisconnectOAuth({ ...base, oauthProviders: [{ id: 'github' }] }, 'github')).toBe(false);
    expect(canDisconnectOAuth({ ...base, oauthProviders: [{ id: 'github' }, { id: 'google' }] }, 'github')).toBe(true);
    expect(canDisconnectOAuth({ ...base, hasPassword: true, oauthProviders: [{ id: 'github' }] }, 'github')).toBe(true);
    expect(canDisconnectOAuth({ ...base, passkeyAuthEnabled: true, oauthProviders: [{ id: 'github' }] }, 'github')).toBe(true);
  });
  test('the export file is named by its date', () => {
    expect(exportFileName(new Date('2026-11-27T15:00:00Z'))).toBe('account-data-2026-11-27.json');
  });
});
