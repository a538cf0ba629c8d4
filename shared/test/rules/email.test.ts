import { describe, expect, test } from 'bun:test';
import { isLenientEmail, isStrictSignInEmail, isValidEmail } from '../../src/rules/email';

describe('isValidEmail (yup 1.4)', () => {
  test('accepts', () => {
    for (const e of [
      'a@b',
      'user@example.com',
      'first.last+tag@sub.example.co.uk',
      "o'brien@example.com",
      'UPPER@EXAMPLE.COM',
      '.leading@example.com',
      'a..b@example.com',
      'x@a-b.c',
      `a@${'a'.repeat(63)}.com`,
    ]) {
      expect(isValidEmail(e)).toBe(true);
    }
  });

  test('rejects', () => {
    for (const e of [
      '',
      'plain',
      '@example.com',
      'a@',
      'a@@b.com',
      'a b@example.com',
      'a@exa mple.com',
      'a@-example.com',
      'a@example-.com',
      'a@example..com',
      'a@.example.com',
      'a@example.com.',
      `a@${'a'.repeat(64)}.com`,
      'ü@example.com',
      'a@exämple.com',
      '"quoted"@example.com',
    ]) {
      expect(isValidEmail(e)).toBe(false);
    }
  });
});

describe('isStrictSignInEmail (protocol-auth §1.6)', () => {
  test('accepts', () => {
    for (const e of ['user@example.com', 'a@b.co', 'a.b@c.d.ef', 'test+x@stack-generated.example.com']) {
      expect(isStrictSignInEmail(e)).toBe(true);
    }
  });

  test('rejects what the extra rule forbids', () => {
    expect(isStrictSignInEmail('.leading@example.com')).toBe(false); // valid for yup
    expect(isStrictSignInEmail('a@b')).toBe(false); // no dot after @
    expect(isStrictSignInEmail('a.b@example')).toBe(false); // dot only before @
    expect(isStrictSignInEmail('a@example.c')).toBe(false); // last label 1 char
  });

  test('rejects what yup rejects', () => {
    expect(isStrictSignInEmail('a b@example.com')).toBe(false);
    expect(isStrictSignInEmail('a@example..com')).toBe(false);
    expect(isStrictSignInEmail('')).toBe(false);
  });
});

describe('isLenientEmail', () => {
  test('any x@y', () => {
    expect(isLenientEmail('invalid_email@gmai')).toBe(true);
    expect(isLenientEmail('ü@exämple')).toBe(true);
    expect(isLenientEmail('a@b')).toBe(true);
  });

  test('needs something on both sides', () => {
    for (const e of ['', 'a', '@b', 'a@', '@', 'a b@c', 'a@b@c']) expect(isLenientEmail(e)).toBe(false);
  });
});
