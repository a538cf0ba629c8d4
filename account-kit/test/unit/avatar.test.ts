// Avatar fallbacks (client-library §7.9).
import { describe, expect, test } from 'bun:test';
import { teamInitial, userInitials } from '../../src/lib/avatar';

describe('userInitials', () => {
  test('two characters of the display name, else of the email, upper-cased; null without either', () => {
    expect(userInitials({ displayName: 'ada lovelace', primaryEmail: 'x@y.z' })).toBe('AD');
    expect(userInitials({ displayName: null, primaryEmail: 'grace@example.com' })).toBe('GR');
    expect(userInitials({ displayName: '', primaryEmail: 'q@example.com' })).toBe('Q@');
    expect(userInitials({ displayName: 'Z' })).toBe('Z');
    expect(userInitials({ displayName: null, primaryEmail: null })).toBeNull();
    expect(userInitials(null)).toBeNull();
  });
});

describe('teamInitial', () => {
  test('first letter of the team name, upper-cased; empty without a name', () => {
    expect(teamInitial({ displayName: 'lighthouse' })).toBe('L');
    expect(teamInitial({ displayName: null })).toBe('');
    expect(teamInitial(null)).toBe('');
  });
});
