import { describe, expect, test } from 'bun:test';
import { KnownErrors } from '../../src/known-errors';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, getPasswordError } from '../../src/rules/password';

describe('getPasswordError', () => {
  test('bounds are 8 and 70', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(8);
    expect(PASSWORD_MAX_LENGTH).toBe(70);
  });

  test('accepts 8..70 characters', () => {
    expect(getPasswordError('a'.repeat(8))).toBeUndefined();
    expect(getPasswordError('a'.repeat(70))).toBeUndefined();
  });

  test('too short', () => {
    for (const p of ['', 'a', 'a'.repeat(7)]) {
      const err = getPasswordError(p);
      expect(err).toBeInstanceOf(KnownErrors.PasswordTooShort);
      expect(err!.errorCode).toBe('PASSWORD_TOO_SHORT');
      expect(err!.statusCode).toBe(400);
      expect(err!.details).toEqual({ min_length: 8 });
    }
  });

  test('too long', () => {
    const err = getPasswordError('a'.repeat(71));
    expect(err).toBeInstanceOf(KnownErrors.PasswordTooLong);
    expect(err!.errorCode).toBe('PASSWORD_TOO_LONG');
    expect(err!.details).toEqual({ maxLength: 70 });
  });

  test('length is the JS string length (UTF-16 code units)', () => {
    // 4 emoji = 4 code points but 8 code units: long enough.
    expect(getPasswordError('😀😀😀😀')).toBeUndefined();
    // 36 emoji = 72 code units: too long although only 36 characters.
    expect(getPasswordError('😀'.repeat(36))).toBeInstanceOf(KnownErrors.PasswordTooLong);
  });
});

describe('getPasswordError with a project minimum (issue 30, ASVS 2.1.1)', () => {
  test('a higher minimum applies; a lower one never goes under 8', () => {
    expect(getPasswordError('a'.repeat(11), { minLength: 12 })?.message).toBe('Password too short. Minimum length is 12.');
    expect(getPasswordError('a'.repeat(12), { minLength: 12 })).toBeUndefined();
    expect(getPasswordError('a'.repeat(7), { minLength: 4 })?.message).toBe('Password too short. Minimum length is 8.');
  });
});
