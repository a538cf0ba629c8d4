import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import {
  KnownError, KnownErrors, StatusError, isKnownErrorInFamily, knownErrorByCode, type KnownErrorJson,
} from '../src/known-errors.ts';

const roundTrip = (err: KnownError) => KnownError.fromJSON(JSON.parse(JSON.stringify(err.toJSON())) as KnownErrorJson);

describe('toJSON / fromJSON', () => {
  const cases: [KnownError, Function][] = [
    [new KnownErrors.UserNotFound(), KnownErrors.UserNotFound],
    [new KnownErrors.SchemaError('Request validation failed on GET /api/v1/x:\n  - body.a must be defined'), KnownErrors.SchemaError],
    [new KnownErrors.TeamMembershipNotFound('t1', 'u1'), KnownErrors.TeamMembershipNotFound],
    [new KnownErrors.MultiFactorAuthenticationRequired('abc'), KnownErrors.MultiFactorAuthenticationRequired],
    [new KnownErrors.AccessTokenExpired(new Date(1_700_000_000_000)), KnownErrors.AccessTokenExpired],
    [new KnownErrors.InsufficientAccessType('client', ['server', 'admin']), KnownErrors.InsufficientAccessType],
    [new KnownErrors.AllOverloadsFailed([{ a: 1 }, 'x']), KnownErrors.AllOverloadsFailed],
  ];
  for (const [err, cls] of cases) {
    test(`${err.errorCode} keeps class, status, message and details`, () => {
      const back = roundTrip(err);
      expect(back).toBeInstanceOf(cls);
      expect(back).toBeInstanceOf(KnownError);
      expect(back).toBeInstanceOf(Error);
      expect(back.errorCode).toBe(err.errorCode);
      expect(back.statusCode).toBe(err.statusCode);
      expect(back.message).toBe(err.message);
      expect(back.details).toEqual(err.details);
      expect(back.toJSON()).toEqual(err.toJSON());
      expect(typeof back.stack).toBe('string');
    });
  }

  test('toJSON omits details when there are none and uses the key `error`', () => {
    const json = new KnownErrors.EmailPasswordMismatch().toJSON();
    expect(json).toEqual({ code: 'EMAIL_PASSWORD_MISMATCH', error: 'Wrong e-mail or password.' });
    expect('details' in json).toBe(false);
    expect(Object.keys(new KnownErrors.UserIdDoesNotExist('u').toJSON())).toEqual(['code', 'details', 'error']);
  });

  test('fromJSON with missing details does not throw', () => {
    for (const code of ['PASSKEY_REGISTRATION_FAILED', 'BODY_PARSING_ERROR', 'ACCESS_TOKEN_EXPIRED', 'TEAM_MEMBERSHIP_NOT_FOUND', 'INVALID_SCOPE']) {
      const err = KnownError.fromJSON({ code, error: 'some text' });
      expect(err).toBeInstanceOf(knownErrorByCode.get(code)!);
      expect(err.details).toBeUndefined();
      expect(err.message).toBe('some text');
      expect(err.toJSON()).toEqual({ code, error: 'some text' });
    }
    const fromNull = KnownError.fromJSON({ code: 'SCHEMA_ERROR', details: null as never, error: 'x' });
    expect(fromNull).toBeInstanceOf(KnownErrors.SchemaError);
    expect(fromNull.details).toBeUndefined();
  });

  test('unknown code throws the "newer version" error', () => {
    expect(() => KnownError.fromJSON({ code: 'SOMETHING_NEW', error: 'hello' }))
      .toThrow('Unknown KnownError code. You may need to update your version of Stack to see more detailed information. SOMETHING_NEW: hello');
  });
});

describe('messages and details match the spec', () => {
  test.each([
    [new KnownErrors.InsufficientAccessType('client', ['server', 'admin']), 401,
      "The x-stack-access-type header must be 'server' or 'admin', but was 'client'.",
      { actual_access_type: 'client', allowed_access_types: ['server', 'admin'] }],
    [new KnownErrors.UserEmailAlreadyExists('a@b.co'), 409, 'A user with email "a@b.co" already exists.', { email: 'a@b.co' }],
    [new KnownErrors.TeamMembershipNotFound('T', 'U'), 404, 'User U is not found in team T.', { team_id: 'T', user_id: 'U' }],
    [new KnownErrors.PasswordTooShort(8), 400, 'Password too short. Minimum length is 8.', { min_length: 8 }],
    [new KnownErrors.PasswordTooLong(70), 400, 'Password too long. Maximum length is 70.', { maxLength: 70 }],
    [new KnownErrors.AccessTokenExpired(new Date(0)), 401,
      'Access token has expired. Please refresh it and try again. (The access token expired at 1970-01-01T00:00:00.000Z.)',
      { expired_at_millis: 0 }],
    [new KnownErrors.AccessTokenExpired(null), 401, 'Access token has expired. Please refresh it and try again.', { expired_at_millis: null }],
    [new KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse('email', 'a@b.co'), 409,
      'The email (a@b.co) is already used for authentication by another account.', { type: 'email', contact_channel_value: 'a@b.co' }],
    [new KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse('email'), 409,
      'This email is already used for authentication by another account.', { type: 'email', contact_channel_value: null }],
    [new KnownErrors.VerificationCodeAlreadyUsed(), 409, 'The verification link has already been used.', undefined],
    [new KnownErrors.OuterOAuthTimeout(), 408, 'The OAuth flow has timed out. Please sign in again.', undefined],
    // Gatehouse's own (README, "Where Gatehouse differs"): sensitive client changes need a recent sign-in.
    [new KnownErrors.RecentSignInRequired(), 403, 'This action requires a recent sign-in. Please sign in again and retry.', undefined],
    [new KnownErrors.CannotGetOwnUserWithoutUser(), 400,
      "You have specified 'me' as a userId, but did not provide authentication for a user.", undefined],
    [new KnownErrors.AccessTypeWithoutProjectId('client'), 400,
      "The x-stack-access-type header was 'client', but the x-stack-project-id header was not provided.\n\nFor more information, see the docs on REST API authentication: https://docs.stack-auth.com/rest-api/overview#authentication",
      { request_type: 'client' }],
    [new KnownErrors.InvalidPublishableClientKey('p1'), 401,
      'The publishable key is not valid for the project "p1". Does the project and/or the key exist?', { project_id: 'p1' }],
    [new KnownErrors.MultiFactorAuthenticationRequired('code'), 400, 'Multi-factor authentication is required for this user.', { attempt_code: 'code' }],
    [new KnownErrors.InvalidAccessType('bogus'), 400,
      "The x-stack-access-type header must be 'client', 'server', or 'admin', but was 'bogus'.", { accessType: 'bogus' }],
    [new KnownErrors.BodyParsingError('Invalid JSON in request body'), 400, 'Invalid JSON in request body', { message: 'Invalid JSON in request body' }],
  ] as const)('%#', (err, status, message, details) => {
    expect(err.statusCode).toBe(status);
    expect(err.message).toBe(message);
    expect(err.details).toEqual(details as never);
  });

  test('class names are the PascalCase of the code', () => {
    expect(KnownErrors.UnsupportedError.code).toBe('UNSUPPORTED_ERROR');
    for (const [name, cls] of Object.entries(KnownErrors)) {
      expect(cls.name).toBe(name);
      expect(knownErrorByCode.get(cls.code)).toBe(cls);
    }
    expect(knownErrorByCode.size).toBe(Object.keys(KnownErrors).length);
  });
});

describe('families', () => {
  test.each([
    [new KnownErrors.AccessTokenExpired(null), 'INVALID_ACCESS_TOKEN'],
    [new KnownErrors.UnparsableAccessToken(), 'SESSION_AUTHENTICATION_ERROR'],
    [new KnownErrors.RefreshTokenNotFoundOrExpired(), 'REFRESH_TOKEN_ERROR'],
    [new KnownErrors.VerificationCodeExpired(), 'VERIFICATION_ERROR'],
    [new KnownErrors.PasswordTooShort(8), 'PASSWORD_REQUIREMENTS_NOT_MET'],
    [new KnownErrors.ApiKeyRevoked(), 'API_KEY_NOT_VALID'],
    [new KnownErrors.UnparsableAdminAccessToken(), 'INVALID_ADMIN_ACCESS_TOKEN'],
    [new KnownErrors.AdminAccessTokenExpired(null), 'INVALID_ADMIN_ACCESS_TOKEN'],
    [new KnownErrors.InvalidProjectForAdminAccessToken(), 'INVALID_ADMIN_ACCESS_TOKEN'],
    [new KnownErrors.AdminAccessTokenIsNotAdmin(), 'INVALID_PROJECT_AUTHENTICATION'],
    [new KnownErrors.ClientAuthenticationRequired(), 'PROJECT_AUTHENTICATION_REQUIRED'],
    [new KnownErrors.ExpectedInternalProject(), 'PROJECT_AUTHENTICATION_ERROR'],
  ] as const)('%#', (err, family) => {
    expect(isKnownErrorInFamily(err, family)).toBe(true);
    expect(isKnownErrorInFamily(roundTrip(err), family)).toBe(true);
  });

  test('negative cases', () => {
    expect(isKnownErrorInFamily(new KnownErrors.AdminAccessTokenExpired(null), 'INVALID_ACCESS_TOKEN')).toBe(false);
    expect(isKnownErrorInFamily(new KnownErrors.UserNotFound(), 'VERIFICATION_ERROR')).toBe(false);
    expect(isKnownErrorInFamily(new KnownErrors.ExpectedInternalProject(), 'INVALID_PROJECT_AUTHENTICATION')).toBe(false);
    expect(isKnownErrorInFamily(new Error('x'), 'INVALID_ACCESS_TOKEN')).toBe(false);
    expect(isKnownErrorInFamily(new StatusError(403, 'nope'), 'API_KEY_NOT_VALID')).toBe(false);
  });
});

test('StatusError carries status and plain text', () => {
  const err = new StatusError(403, 'Client can only list teams for their own user.');
  expect(err).toBeInstanceOf(Error);
  expect(err.statusCode).toBe(403);
  expect(err.message).toBe('Client can only list teams for their own user.');
});

test('every code of protocol-auth.md §7 (and the §4.3 verification table) is in the catalogue', () => {
  const md = readFileSync(new URL('../../docs/spec/protocol-auth.md', import.meta.url), 'utf8');
  const section = (start: string, end: string) => md.slice(md.indexOf(start), md.indexOf(end, md.indexOf(start)));
  // A table cell holding a backticked code, followed by its status cell when the table has one.
  const rowCodes = (text: string) =>
    [...text.matchAll(/^\|(?:[^|`\n]*\|)?\s*`([A-Z][A-Z0-9_]+)`\s*\|\s*(\d{3})?/gm)].map((m) => ({ code: m[1]!, status: m[2] }));
  const codes = [
    ...rowCodes(section('## 7. Known-error catalogue', '\n## 8.')),
    ...rowCodes(section('### 4.3 Redemption algorithm', '\n## 5.')),
  ];
  expect(codes.length).toBeGreaterThanOrEqual(89);
  const exported = new Set(Object.values(KnownErrors).map((cls) => cls.code));
  const missing = codes.filter(({ code }) => !knownErrorByCode.has(code) || !exported.has(code)).map(({ code }) => code);
  expect(missing).toEqual([]);
  for (const { code, status } of codes) {
    if (status) expect(`${code} ${knownErrorByCode.get(code)!.status}`).toBe(`${code} ${status}`);
  }
});
