// The field rules of the auth forms (built on shared/'s rules, the ones the service applies).
import { describe, expect, test } from 'bun:test';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@gatehouse/shared/rules/password';
import { existingPasswordRule, newPasswordRule, repeatPasswordRule, signInEmailRule } from '../../src/lib/validation';

describe('signInEmailRule', () => {
  test('empty or blank: "Please enter your email"', () => {
    expect(signInEmailRule('')).toEqual({ key: 'validation.emailRequired' });
    expect(signInEmailRule('   ')).toEqual({ key: 'validation.emailRequired' });
  });
  test('not an address: "Please enter a valid email"', () => {
    for (const bad of ['plain', 'a@', '@b.com', 'a b@c.com', 'a@b@c.com']) expect(signInEmailRule(bad)).toEqual({ key: 'validation.emailInvalid' });
  });
  test('a normal address passes', () => {
    expect(signInEmailRule('ada.lovelace+test@example.com')).toBeNull();
  });
});

describe('newPasswordRule', () => {
  test('required, then 8 to 70 characters (values for the message)', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(8);
    expect(PASSWORD_MAX_LENGTH).toBe(70);
    expect(newPasswordRule('')).toEqual({ key: 'validation.passwordRequired' });
    expect(newPasswordRule('1234567')).toEqual({ key: 'validation.passwordTooShort', values: { min: 8 } });
    expect(newPasswordRule('12345678')).toBeNull();
    expect(newPasswordRule('x'.repeat(70))).toBeNull();
    expect(newPasswordRule('x'.repeat(71))).toEqual({ key: 'validation.passwordTooLong', values: { max: 70 } });
  });
});

describe('existingPasswordRule', () => {
  test('only required: the service judges the rest', () => {
    expect(existingPasswordRule('')).toEqual({ key: 'validation.passwordRequired' });
    expect(existingPasswordRule('x')).toBeNull();
  });
});

describe('repeatPasswordRule', () => {
  test('required, then equal to the password', () => {
    const rule = repeatPasswordRule('secret-pass-1');
    expect(rule('')).toEqual({ key: 'validation.repeatPasswordRequired' });
    expect(rule('secret-pass-2')).toEqual({ key: 'validation.passwordsDoNotMatch' });
    expect(rule('secret-pass-1')).toBeNull();
  });
});
