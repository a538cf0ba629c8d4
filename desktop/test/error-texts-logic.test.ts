// The console's words for errors and field problems: a known error's code chooses the catalogue text (with the code
// beside it), and the service's schemas' problems are worded by kind, never in TypeBox's or the service's English.
import { describe, expect, test } from 'bun:test';
import type { TSchema } from '@sinclair/typebox';
import { KnownError, KnownErrors } from '@gatehouse/shared/known-errors';
import { NetworkError } from '@gatehouse/shared/client';
import { ServerUserCreate } from '@gatehouse/shared/schemas/users';
import { ServerTeamCreate } from '@gatehouse/shared/schemas/teams';
import { OAuthProviderConfig, ProjectUpdate, StandardEmailConfig } from '@gatehouse/shared/schemas/projects';
import { WebhookEndpointCreate } from '@gatehouse/shared/schemas/webhooks';
import { PermissionDefinitionCreate } from '@gatehouse/shared/schemas/permissions';
import { ApiKeySetCreate } from '@gatehouse/shared/schemas/api-keys';
import { EmailTemplateContent, EmailTemplateSubject } from '@gatehouse/shared/schemas/email-templates';
import { ERROR_TEXTS, errorSentence, errorText } from '../src/renderer/lib/error-text';
import { FORMAT_PROBLEMS, PATTERN_PROBLEMS, schemaProblems } from '../src/renderer/lib/schema-check';
import { domainProductionText, passwordText, permissionIdText, urlText } from '../src/renderer/lib/field-rules';
import { en } from '../src/renderer/messages/en';

describe('errors by their known-error code', () => {
  test("a code the console words: its text with the error's details, and the code", () => {
    expect(errorText(new KnownErrors.PermissionIdAlreadyExists('read_docs'))).toEqual({
      key: 'errors.permissionExists', values: { permission_id: 'read_docs' }, code: 'PERMISSION_ID_ALREADY_EXISTS',
    });
    expect(errorSentence(new KnownErrors.UserEmailAlreadyExists('a@b.co'))).toBe('A user with the address a@b.co already exists.');
    expect(errorSentence(new KnownErrors.RateLimited(3))).toBe('Too many requests. Wait 3 seconds, then try again.');
  });

  test('another known error: the general text and its code; never the service\'s English', () => {
    const err = KnownError.fromJSON({ code: 'TEAM_PERMISSION_REQUIRED', error: 'User x does not have permission y in team z.' });
    expect(errorText(err)).toEqual({ key: 'errors.refused', code: 'TEAM_PERMISSION_REQUIRED' });
    expect(errorSentence(err)).not.toContain('does not have permission');
  });

  test('an unreachable service, and anything else', () => {
    expect(errorText(Object.create(NetworkError.prototype))).toEqual({ key: 'errors.network', code: null });
    expect(errorText(new Error('Cannot read properties of undefined'))).toEqual({ key: 'errors.unexpected', code: null });
    expect(errorText('boom')).toEqual({ key: 'errors.unexpected', code: null });
  });

  test("every worded code's text fills its placeholders from what that error carries", () => {
    const samples: Record<string, KnownError> = {
      USER_EMAIL_ALREADY_EXISTS: new KnownErrors.UserEmailAlreadyExists('a@b.co'),
      PERMISSION_ID_ALREADY_EXISTS: new KnownErrors.PermissionIdAlreadyExists('p'),
      PERMISSION_NOT_FOUND: new KnownErrors.PermissionNotFound('p'),
      CONTAINED_PERMISSION_NOT_FOUND: new KnownErrors.ContainedPermissionNotFound('p'),
      PASSWORD_TOO_SHORT: new KnownErrors.PasswordTooShort(8),
      PASSWORD_TOO_LONG: new KnownErrors.PasswordTooLong(70),
      RATE_LIMITED: new KnownErrors.RateLimited(5),
      INVALID_EMAIL_DOMAIN: new KnownErrors.InvalidEmailDomain('https://x'),
      TEAM_DOMAIN_ALREADY_CLAIMED: new KnownErrors.TeamDomainAlreadyClaimed('example.com'),
      DOMAIN_VERIFIED_BY_ANOTHER_TEAM: new KnownErrors.DomainVerifiedByAnotherTeam('example.com'),
      DOMAIN_VERIFICATION_FAILED: new KnownErrors.DomainVerificationFailed('example.com', '_gatehouse-challenge.example.com', 'no TXT record was found.'),
      INVALID_SSO_CONNECTION: new KnownErrors.InvalidSsoConnection('issuer is missing.'),
      SCIM_GROUP_NAME_TAKEN: new KnownErrors.ScimGroupNameTaken('Finance'),
      OAUTH_PROVIDER_SETTINGS_INVALID: new KnownErrors.OAuthProviderSettingsInvalid('the claim name "sub" is reserved.'),
    };
    for (const [code, key] of Object.entries(ERROR_TEXTS)) {
      expect(en[key]).toBeDefined();
      if (!/\{\w+\}/.test(en[key])) continue;
      expect(samples[code]).toBeDefined();
      expect(errorSentence(samples[code])).not.toMatch(/\{\w+\}/);
    }
  });
});

describe('field problems in the catalogue\'s words', () => {
  // The schemas the console checks request bodies against before sending.
  const CHECKED: TSchema[] = [
    ServerUserCreate, ServerTeamCreate, ProjectUpdate, StandardEmailConfig, OAuthProviderConfig, WebhookEndpointCreate,
    PermissionDefinitionCreate, ApiKeySetCreate, EmailTemplateContent, EmailTemplateSubject,
  ];
  function* keywords(schema: unknown, name: 'pattern' | 'format'): Generator<string> {
    if (schema === null || typeof schema !== 'object') return;
    const value = (schema as Record<string, unknown>)[name];
    if (typeof value === 'string') yield value;
    for (const child of Object.values(schema)) yield* keywords(child, name);
  }

  test('every pattern and format of the checked schemas has its own text', () => {
    for (const schema of CHECKED) {
      for (const pattern of keywords(schema, 'pattern')) expect(PATTERN_PROBLEMS[pattern]).toBeDefined();
      for (const format of keywords(schema, 'format')) expect(FORMAT_PROBLEMS[format]).toBeDefined();
    }
  });

  test('problems by kind: length, format, pattern, range', () => {
    const texts = (schema: TSchema, body: unknown) => schemaProblems(schema, body).map((p) => [p.path, p.text]);
    expect(texts(ServerTeamCreate, { display_name: 'x'.repeat(101) })).toEqual([['/display_name', 'At most 100 characters']]);
    expect(texts(ServerUserCreate, { primary_email: 'no at sign' })).toEqual([['/primary_email', 'Enter a valid email address']]);
    expect(texts(WebhookEndpointCreate, { url: 'ftp://x.example' })).toEqual([['/url', 'URL must start with http:// or https://']]);
    const port = texts(StandardEmailConfig, { type: 'standard', host: 'h', port: 70000, username: 'u', password: 'p', sender_name: 'n', sender_email: 'a@b.co' });
    expect(port).toEqual([['/port', 'A number from 0 to 65535']]);
  });

  test("shared's rules worded: permission ids, URLs, passwords, production mode", () => {
    expect(permissionIdText('Bad Id')).toBe(en['validation.permissionId']);
    expect(permissionIdText('$nope')).toBe('Invalid system permission');
    expect(permissionIdText('$read_members')).toBeNull();
    expect(urlText('Profile image URL', 'https://x.example/a b')).toBe('Profile image URL contains spaces');
    expect(urlText('Profile image URL', 'nope')).toBe('Profile image URL is not a valid URL');
    expect(passwordText('short')).toBe('Password too short. Minimum length is 8.');
    expect(passwordText('x'.repeat(71))).toBe('Password too long. Maximum length is 70.');
    expect(domainProductionText('https://10.0.0.1')).toBe('Direct IPs are not valid for trusted domains in production mode: https://10.0.0.1');
  });
});
