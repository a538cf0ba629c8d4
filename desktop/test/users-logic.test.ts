// The Users screens' rules outside any component: keyset paging, sign-in methods, the create and profile forms
// (the service's schema and password rule), the metadata editors' JSON rule and the impersonation address.
import { NO_FILTER, activeDaysProblem, exportFileName, filterOptions, isFiltered } from '../src/renderer/lib/user-filters';
import { describe, expect, test } from 'bun:test';
import { parseRoute, routeHash } from '../src/renderer/lib/routes';
import {
  FIRST_PAGE, createUserBody, currentCursor, hasBeenActive, impersonationUrl, initials, metadataText, nextPage, parseMetadata, previousPage, profileUpdate,
  noWayInReason, profileValues, signInMethods, validateCreateUser, validateProfile,
} from '../src/renderer/lib/users';

const TEXTS = { required: 'Required', invalidEmail: 'Enter a valid email address' };

describe('activity', () => {
  test('a user whose last activity is their sign-up time (the API\'s answer for never active) has not been active', () => {
    const signedUpAt = new Date('2026-11-01T10:00:00.123Z');
    expect(hasBeenActive({ signedUpAt, lastActiveAt: new Date(signedUpAt) })).toBe(false);
    expect(hasBeenActive({ signedUpAt, lastActiveAt: new Date(signedUpAt.getTime() + 4) })).toBe(true);
  });
});

describe('paging', () => {
  test('forward keeps every cursor seen, back returns to the previous one, the last page stays put', () => {
    let p = FIRST_PAGE;
    expect(currentCursor(p)).toBeUndefined();
    p = nextPage(p, 'c2');
    p = nextPage(p, 'c3');
    expect([currentCursor(p), p.index]).toEqual(['c3', 2]);
    expect(nextPage(p, null)).toBe(p);
    p = previousPage(p);
    expect(currentCursor(p)).toBe('c2');
    // Forward again from page 2 with the cursor the service returned now (the old one is replaced).
    p = nextPage(p, 'c3b');
    expect(p.cursors).toEqual([undefined, 'c2', 'c3b']);
    expect(previousPage(previousPage(previousPage(p)))).toEqual({ cursors: p.cursors, index: 0 });
  });
});

describe('users', () => {
  test('sign-in methods in order, OAuth providers by id', () => {
    expect(signInMethods({ hasPassword: true, otpAuthEnabled: false, passkeyAuthEnabled: true, oauthProviders: [{ id: 'github' }] }))
      .toEqual([{ kind: 'password' }, { kind: 'passkey' }, { kind: 'oauth', provider: 'github' }]);
    expect(signInMethods({ hasPassword: false, otpAuthEnabled: false, passkeyAuthEnabled: false, oauthProviders: [] })).toEqual([]);
  });

  test('initials from the name, else the email', () => {
    expect(initials('Ada Lovelace', null)).toBe('AL');
    expect(initials(null, 'bert.smith@example.com')).toBe('BS');
    expect(initials('  ', null)).toBe('?');
  });

  test('create form: required, valid email, the password rule; without a password the user gets sign-in codes', () => {
    const v = { email: '', wayIn: 'password' as const, password: 'long-enough', verified: false, displayName: '' };
    expect(validateCreateUser(v, TEXTS)).toEqual({ email: 'Required' });
    expect(validateCreateUser({ ...v, email: 'nope' }, TEXTS)).toEqual({ email: 'Enter a valid email address' });
    expect(validateCreateUser({ ...v, email: 'a@b.co', password: 'short' }, TEXTS).password).toBe('Password too short. Minimum length is 8.');
    expect(validateCreateUser({ ...v, email: 'a@b.co', password: '' }, TEXTS).password).toBe('Required');
    expect(validateCreateUser({ ...v, email: 'a@b.co' }, TEXTS)).toEqual({});
    expect(validateCreateUser({ ...v, email: 'a@b.co', wayIn: 'code', password: '' }, TEXTS)).toEqual({});
    expect(createUserBody({ email: ' a@b.co ', wayIn: 'code', password: 'ignored', verified: true, displayName: ' ' }))
      .toEqual({ primaryEmail: 'a@b.co', primaryEmailAuthEnabled: true, primaryEmailVerified: true, otpAuthEnabled: true });
    expect(createUserBody({ email: 'a@b.co', wayIn: 'password', password: 'long-enough', verified: false, displayName: 'A' }))
      .toMatchObject({ password: 'long-enough', displayName: 'A' });
  });

  test('a user without a way in is named, with the reason', () => {
    const project = { magicLinkEnabled: false, credentialEnabled: true, passkeyEnabled: false };
    const none = { hasPassword: false, otpAuthEnabled: false, passkeyAuthEnabled: false, oauthProviders: [], primaryEmail: 'a@b.co' };
    expect(noWayInReason(none, project)).toBe('none');
    expect(noWayInReason({ ...none, otpAuthEnabled: true }, project)).toBe('codesOff');
    expect(noWayInReason({ ...none, otpAuthEnabled: true }, { ...project, magicLinkEnabled: true })).toBeNull();
    expect(noWayInReason({ ...none, hasPassword: true }, project)).toBeNull();
    expect(noWayInReason({ ...none, hasPassword: true }, { ...project, credentialEnabled: false })).toBe('passwordOff');
    expect(noWayInReason({ ...none, oauthProviders: [{ id: 'github' }] }, project)).toBeNull();
  });

  test('profile: only changed fields are sent, empty clears, the password only when typed', () => {
    const before = { displayName: 'Ada', primaryEmail: 'a@b.co', primaryEmailVerified: false, primaryEmailAuthEnabled: true };
    const v = profileValues(before);
    expect(profileUpdate(before, v)).toEqual({});
    expect(profileUpdate(before, { ...v, displayName: ' ', primaryEmailVerified: true, newPassword: 'new-password' }))
      .toEqual({ displayName: null, primaryEmailVerified: true, password: 'new-password' });
    expect(validateProfile({ ...v, primaryEmail: 'broken' }, TEXTS)).toEqual({ primaryEmail: 'Enter a valid email address' });
    expect(validateProfile({ ...v, newPassword: 'x' }, TEXTS).newPassword).toBe('Password too short. Minimum length is 8.');
  });

  test('metadata: empty is null, anything else must be JSON', () => {
    expect(parseMetadata('  ')).toEqual({ ok: true, value: null });
    expect(parseMetadata('{"a": [1]}')).toEqual({ ok: true, value: { a: [1] } });
    expect(parseMetadata('{"a":').ok).toBe(false);
    expect(metadataText(null)).toBe('');
    expect(JSON.parse(metadataText({ a: 1 }))).toEqual({ a: 1 });
  });

  test('impersonation address: project and key in the query, the refresh token only in the fragment', () => {
    const url = new URL(impersonationUrl('http://localhost:8102/', { projectId: 'p 1', publishableClientKey: 'pck_x', refreshToken: 'r&t' }));
    expect(url.pathname).toBe('/handler/account-settings');
    expect(url.searchParams.get('project_id')).toBe('p 1');
    expect(url.searchParams.get('publishable_client_key')).toBe('pck_x');
    expect(url.search).not.toContain('r%26t');
    expect(new URLSearchParams(url.hash.slice(1)).get('impersonation_refresh_token')).toBe('r&t');
  });

  test("a user's page is a route of the users screen", () => {
    const r = { name: 'project', connectionId: 'c', projectId: 'p', screen: 'users', itemId: 'u-1' } as const;
    expect(parseRoute(routeHash(r))).toEqual(r);
  });
});

describe('user list filters', () => {
  test('only the chosen filters are asked for; days out of range are left out and named', () => {
    expect(filterOptions(NO_FILTER)).toEqual({});
    expect(isFiltered(NO_FILTER)).toBe(false);
    expect(filterOptions({ verified: 'yes', password: 'no', mfa: 'any', activeDays: 7 })).toEqual({ emailVerified: true, hasPassword: false, signedInWithinDays: 7 });
    expect(filterOptions({ ...NO_FILTER, mfa: 'no' })).toEqual({ hasMfa: false });
    for (const bad of [0, -1, 1.5, 36_501]) {
      expect(activeDaysProblem(bad)).toBe('range');
      expect(filterOptions({ ...NO_FILTER, activeDays: bad })).toEqual({});
    }
    expect(activeDaysProblem('')).toBeNull();
    expect(activeDaysProblem(36_500)).toBeNull();
  });

  test("the export's file name: the project's name made safe, and the day", () => {
    const day = new Date('2026-11-27T16:00:00Z');
    expect(exportFileName('Filters & Co', day)).toBe('users-filters-co-2026-11-27.csv');
    expect(exportFileName('', day)).toBe('users-project-2026-11-27.csv');
    expect(exportFileName('../../etc/passwd', day)).toBe('users-etc-passwd-2026-11-27.csv');
  });
});
