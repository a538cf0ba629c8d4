import { describe, expect, test } from 'bun:test';
import * as shared from '@gatehouse/shared';
import { isTrustedRedirect } from '@gatehouse/shared/rules/urls';
import * as constants from '../../src/constants';

describe('package entry points', () => {
  test('deep imports by path resolve', () => {
    expect(isTrustedRedirect('http://localhost/x', { allowLocalhost: true, domains: [] })).toBe(true);
  });

  test('the root re-exports rules and constants', () => {
    for (const name of [
      'generateSecureCode',
      'getPasswordError',
      'isValidEmail',
      'isTrustedRedirect',
      'expandPermissions',
      'getProductionModeErrors',
      'apiKeyStatus',
      'isBase64',
      'formatRelativeTime',
      'isBase64ImageDataUrl',
      'OAUTH_PROVIDER_IDS',
      'RELYING_PARTY_ID_PLACEHOLDER',
    ]) {
      expect(shared).toHaveProperty(name);
    }
  });
});

describe('constants', () => {
  test('spec values', () => {
    expect(constants.DEFAULT_SERVER_SESSION_LIFETIME_MS).toBe(365 * 24 * 3600 * 1000);
    expect(constants.MAX_SERVER_SESSION_LIFETIME_MS).toBe(367 * 24 * 3600 * 1000);
    expect(constants.REFRESH_COOKIE_MAX_AGE_SECONDS * 1000).toBe(constants.REFRESH_TOKEN_LIFETIME_MS);
    expect(constants.ACCESS_TOKEN_DEFAULT_LIFETIME_MS).toBe(600_000);
    expect(constants.OTP_SIGN_IN_CODE_LIFETIME_MS).toBe(600_000);
    expect(constants.MFA_ATTEMPT_CODE_LIFETIME_MS).toBe(300_000);
    expect(constants.PASSKEY_AUTHENTICATION_CHALLENGE_LIFETIME_MS).toBe(65_000);
    expect(constants.CLI_LOGIN_DEFAULT_LIFETIME_MS).toBe(7_200_000);
    expect(constants.CLI_LOGIN_MAX_LIFETIME_MS).toBe(86_400_000);
    expect(constants.RELYING_PARTY_ID_PLACEHOLDER).toBe('THIS_VALUE_WILL_BE_REPLACED.example.com');
    expect(constants.OAUTH_PROVIDER_IDS).toHaveLength(11);
    for (const id of constants.SHARED_OAUTH_PROVIDER_IDS) expect(constants.isOAuthProviderId(id)).toBe(true);
    expect(constants.isSharedOAuthProviderId('x')).toBe(false);
    expect(constants.isOAuthProviderId('twitter')).toBe(false);
    expect(constants.TIME_UNIT_MS.w).toBe(604_800_000);
  });
});
