// The emails table's rules (client-library §7.3): the new-address check, the order, the action menu.
import { describe, expect, test } from 'bun:test';
import { emailMenu, isLastSignInEmail, newEmailProblem, sortEmails, type EmailChannel } from '../../src/lib/email-rules';

const ch = (value: string, o: Partial<EmailChannel> = {}): EmailChannel => ({ id: value, value, isPrimary: false, isVerified: false, usedForAuth: false, ...o });

describe('new email', () => {
  test('required, valid (strict), not one of the user\'s', () => {
    expect(newEmailProblem('', [])).toBe('settings.emails.required');
    expect(newEmailProblem('   ', [])).toBe('settings.emails.required');
    expect(newEmailProblem('not-an-email', [])).toBe('settings.emails.invalid');
    expect(newEmailProblem('a@b.c', [])).toBe('settings.emails.invalid');
    expect(newEmailProblem('.a@b.com', [])).toBe('settings.emails.invalid');
    expect(newEmailProblem('a@localhost', [])).toBe('settings.emails.invalid');
    expect(newEmailProblem('a@b.com', [{ value: 'a@b.com' }])).toBe('settings.emails.exists');
    expect(newEmailProblem('a@b.com', [{ value: 'A@b.com' }])).toBeNull();
  });
});

describe('email rows', () => {
  test('primary first, then verified, otherwise in the given order', () => {
    const rows = sortEmails([ch('u1'), ch('v1', { isVerified: true }), ch('p', { isPrimary: true }), ch('u2'), ch('v2', { isVerified: true })]);
    expect(rows.map((r) => r.value)).toEqual(['p', 'v1', 'v2', 'u1', 'u2']);
  });

  test('"last sign-in email" is exactly one channel used for sign-in', () => {
    expect(isLastSignInEmail([ch('a', { usedForAuth: true })])).toBe(true);
    expect(isLastSignInEmail([ch('a', { usedForAuth: true }), ch('b', { usedForAuth: true })])).toBe(false);
    expect(isLastSignInEmail([ch('a')])).toBe(false);
  });

  test('an unverified address: send verification, set primary disabled until verified, remove', () => {
    const c = ch('new');
    expect(emailMenu(c, [ch('main', { usedForAuth: true, isPrimary: true, isVerified: true }), c])).toEqual([
      { action: 'send-verification', disabledReason: null },
      { action: 'set-primary', disabledReason: 'settings.emails.verifyFirst' },
      { action: 'remove', disabledReason: null },
    ]);
  });

  test('a verified secondary address can become primary and be used for sign-in', () => {
    const c = ch('second', { isVerified: true });
    expect(emailMenu(c, [ch('main', { usedForAuth: true, isPrimary: true, isVerified: true }), c])).toEqual([
      { action: 'set-primary', disabledReason: null },
      { action: 'use-for-sign-in', disabledReason: null },
      { action: 'remove', disabledReason: null },
    ]);
  });

  test('the last sign-in email can neither stop being one nor be removed', () => {
    const c = ch('main', { usedForAuth: true, isPrimary: true, isVerified: true });
    expect(emailMenu(c, [c, ch('other', { isVerified: true })])).toEqual([
      { action: 'stop-sign-in', disabledReason: 'settings.emails.lastSignInEmail' },
      { action: 'remove', disabledReason: 'settings.emails.lastSignInEmail' },
    ]);
  });

  test('with two sign-in emails, either can stop or be removed', () => {
    const a = ch('a', { usedForAuth: true, isPrimary: true, isVerified: true });
    const b = ch('b', { usedForAuth: true, isVerified: true });
    expect(emailMenu(b, [a, b])).toEqual([
      { action: 'set-primary', disabledReason: null },
      { action: 'stop-sign-in', disabledReason: null },
      { action: 'remove', disabledReason: null },
    ]);
  });
});
