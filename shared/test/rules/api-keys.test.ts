import { describe, expect, test } from 'bun:test';
import { apiKeyLastFour, apiKeyStatus, isApiKeyValid } from '../../src/rules/api-keys';

describe('apiKeyStatus (seed §4)', () => {
  const now = 1_700_000_000_000;

  test('valid', () => {
    expect(apiKeyStatus({ expires_at_millis: now + 1 }, now)).toBe('valid');
    expect(apiKeyStatus({}, now)).toBe('valid');
    expect(apiKeyStatus({ expires_at_millis: null, manually_revoked_at_millis: null }, now)).toBe('valid');
    expect(isApiKeyValid({ expires_at_millis: now + 1 }, now)).toBe(true);
  });

  test('expired when expiry is not in the future', () => {
    expect(apiKeyStatus({ expires_at_millis: now - 1 }, now)).toBe('expired');
    expect(apiKeyStatus({ expires_at_millis: now }, now)).toBe('expired');
    expect(isApiKeyValid({ expires_at_millis: now }, now)).toBe(false);
  });

  test('revoked', () => {
    expect(apiKeyStatus({ expires_at_millis: now + 1000, manually_revoked_at_millis: now - 5 }, now)).toBe(
      'manually-revoked',
    );
    expect(apiKeyStatus({ manually_revoked_at_millis: 0 }, now)).toBe('manually-revoked');
  });

  test('expired wins over revoked', () => {
    expect(apiKeyStatus({ expires_at_millis: now - 1, manually_revoked_at_millis: now - 5 }, now)).toBe('expired');
  });

  test('defaults now to the current time', () => {
    expect(apiKeyStatus({ expires_at_millis: Date.now() + 60_000 })).toBe('valid');
    expect(apiKeyStatus({ expires_at_millis: Date.now() - 60_000 })).toBe('expired');
  });

  test('last four', () => {
    expect(apiKeyLastFour('pck_abcdefgh')).toBe('efgh');
  });
});
