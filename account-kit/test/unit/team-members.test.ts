// How the members table names a member (issue 25): the team display name, else the primary email.
import { describe, expect, test } from 'bun:test';
import { memberName } from '../../src/lib/team-members';

describe('memberName', () => {
  test('display name first, else the primary email, else nothing', () => {
    expect(memberName({ teamProfile: { displayName: 'Ada' }, primaryEmail: 'ada@example.com' })).toBe('Ada');
    expect(memberName({ teamProfile: { displayName: null }, primaryEmail: 'ada@example.com' })).toBe('ada@example.com');
    expect(memberName({ teamProfile: { displayName: '  ' }, primaryEmail: 'ada@example.com' })).toBe('ada@example.com');
    expect(memberName({ teamProfile: { displayName: null }, primaryEmail: null })).toBeNull();
  });
});
