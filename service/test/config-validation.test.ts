// Unit tests of the pure project-config validation (protocol-resources §10.3).
import { describe, expect, test } from 'bun:test';
import { KnownError, StatusError } from '@gatehouse/shared/known-errors';
import { defaultProjectConfig, type ProjectConfigDocument } from '@gatehouse/shared/schemas/projects';
import { MESSAGES, applyConfigUpdate, configSchemaProblems, domainKey, type ConfigFacts } from '../src/projects/config-validation';

const facts = (o: Partial<ConfigFacts> = {}): ConfigFacts => ({
  teamPermissionIds: new Set(['admin', 'member', 'custom']),
  projectPermissionIds: new Set(['read', 'write']),
  hasCustomEmailTemplates: false,
  ...o,
});

const standardEmail = { type: 'standard' as const, host: 'smtp.example.com', port: 587, username: 'u', password: 'p', sender_name: 'S', sender_email: 's@example.com' };

function statusErrorOf(fn: () => unknown): { status: number; message: string } {
  try { fn(); } catch (err) {
    if (err instanceof StatusError) return { status: err.statusCode, message: err.message };
    throw err;
  }
  throw new Error('expected a StatusError');
}

describe('configSchemaProblems', () => {
  test('a standard email config needs every field, non-empty', () => {
    expect(configSchemaProblems({ email_config: { type: 'standard', host: '', port: 25 } })).toEqual([
      'body.config.email_config.host must not be empty',
      'body.config.email_config.username must be defined',
      'body.config.email_config.password must be defined',
      'body.config.email_config.sender_name must be defined',
      'body.config.email_config.sender_email must be defined',
    ]);
    expect(configSchemaProblems({ email_config: standardEmail })).toEqual([]);
    expect(configSchemaProblems({ email_config: { type: 'shared' } })).toEqual([]);
  });

  test('a standard OAuth provider needs client id and secret, enabled or not', () => {
    expect(configSchemaProblems({ oauth_providers: [
      { id: 'github', type: 'shared', enabled: true },
      { id: 'discord', type: 'standard', enabled: false, client_id: ' ' },
    ] })).toEqual([
      'body.config.oauth_providers[1].client_id must not be empty',
      'body.config.oauth_providers[1].client_secret must be defined',
    ]);
  });

  test('the path prefix is configurable', () => {
    expect(configSchemaProblems({ email_config: { ...standardEmail, password: '' } }, 'cfg')).toEqual(['cfg.email_config.password must not be empty']);
  });
});

describe('applyConfigUpdate', () => {
  const base = (): ProjectConfigDocument => ({ ...defaultProjectConfig(), oauth_providers: [{ id: 'github', type: 'shared', enabled: true }] });

  test('only the keys present change', () => {
    const current = { ...base(), magic_link_enabled: true, domains: [{ domain: 'https://a.com', handler_path: '/handler' }] };
    const next = applyConfigUpdate(current, { sign_up_enabled: false }, facts());
    expect(next).toEqual({ ...current, sign_up_enabled: false });
    expect(current.sign_up_enabled).toBe(true); // not mutated
  });

  test('every configured provider must stay in the list; new ones are added; shared credentials are dropped', () => {
    expect(statusErrorOf(() => applyConfigUpdate(base(), { oauth_providers: [{ id: 'google', type: 'shared', enabled: true }] }, facts())))
      .toEqual({ status: 400, message: "Provider with id 'github' not found in the update" });
    const next = applyConfigUpdate(base(), { oauth_providers: [
      { id: 'github', type: 'shared', enabled: false, client_id: 'ignored', client_secret: 'ignored' },
      { id: 'discord', type: 'standard', enabled: true, client_id: 'id', client_secret: 'secret' },
    ] }, facts());
    expect(next.oauth_providers).toEqual([
      { id: 'github', type: 'shared', enabled: false },
      { id: 'discord', type: 'standard', enabled: true, client_id: 'id', client_secret: 'secret' },
    ]);
  });

  test('only google, github, microsoft and spotify may be shared', () => {
    for (const id of ['google', 'github', 'microsoft', 'spotify'] as const) {
      expect(() => applyConfigUpdate(base(), { oauth_providers: [{ id: 'github', type: 'shared', enabled: true }, ...(id === 'github' ? [] : [{ id, type: 'shared' as const, enabled: true }])] }, facts())).not.toThrow();
    }
    for (const id of ['facebook', 'discord', 'gitlab', 'bitbucket', 'linkedin', 'apple', 'x'] as const) {
      let err: unknown;
      try { applyConfigUpdate(base(), { oauth_providers: [{ id: 'github', type: 'shared', enabled: true }, { id, type: 'shared', enabled: true }] }, facts()); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(KnownError);
      expect((err as KnownError).toJSON()).toEqual({ code: 'INVALID_SHARED_OAUTH_PROVIDER_ID', details: { provider_id: id }, error: `The shared OAuth provider with ID ${id} is not valid.` });
    }
  });

  test('a provider listed twice is rejected', () => {
    expect(statusErrorOf(() => applyConfigUpdate(base(), { oauth_providers: [{ id: 'github', type: 'shared', enabled: true }, { id: 'github', type: 'shared', enabled: false }] }, facts())))
      .toEqual({ status: 400, message: MESSAGES.duplicatedProvider('github') });
  });

  test('email config is replaced whole; shared is refused while custom templates exist', () => {
    const std = applyConfigUpdate(base(), { email_config: standardEmail }, facts());
    expect(std.email_config).toEqual(standardEmail);
    expect(applyConfigUpdate(std, { email_config: { type: 'shared', host: 'dropped' } }, facts()).email_config).toEqual({ type: 'shared' });
    expect(statusErrorOf(() => applyConfigUpdate(std, { email_config: { type: 'shared' } }, facts({ hasCustomEmailTemplates: true }))))
      .toEqual({ status: 400, message: 'Cannot change email service type to shared when custom templates are defined. Disable custom templates first, before changing the email service type.' });
    // Staying on (another) standard config is fine with custom templates.
    expect(() => applyConfigUpdate(std, { email_config: { ...standardEmail, port: 465 } }, facts({ hasCustomEmailTemplates: true }))).not.toThrow();
  });

  test('domains are replaced whole; duplicates are refused', () => {
    const domains = [{ domain: 'https://a.com', handler_path: '/handler' }, { domain: 'http://localhost:3000', handler_path: '/' }];
    expect(applyConfigUpdate(base(), { domains }, facts()).domains).toEqual(domains);
    expect(applyConfigUpdate({ ...base(), domains }, { domains: [] }, facts()).domains).toEqual([]);
    for (const dup of ['https://a.com', 'https://A.com/', 'https://a.com//']) {
      expect(statusErrorOf(() => applyConfigUpdate(base(), { domains: [domains[0]!, { domain: dup, handler_path: '/x' }] }, facts())))
        .toEqual({ status: 400, message: 'Duplicated domain found' });
    }
    expect(domainKey('http://a.com')).not.toBe(domainKey('https://a.com'));
    expect(domainKey('https://a.com/app')).not.toBe(domainKey('https://a.com'));
  });

  test('team default permissions must be system or TEAM definitions', () => {
    const next = applyConfigUpdate(base(), { team_creator_default_permissions: [{ id: '$update_team' }, { id: 'custom' }, { id: 'custom' }], team_member_default_permissions: [] }, facts());
    expect(next.team_creator_default_permissions).toEqual([{ id: '$update_team' }, { id: 'custom' }]);
    expect(next.team_member_default_permissions).toEqual([]);
    for (const key of ['team_creator_default_permissions', 'team_member_default_permissions'] as const) {
      expect(statusErrorOf(() => applyConfigUpdate(base(), { [key]: [{ id: 'member' }, { id: 'read' }] }, facts())))
        .toEqual({ status: 400, message: 'Invalid team default permission ids' });
    }
  });

  test('user default permissions must be PROJECT definitions; the message lists the bad ids', () => {
    expect(applyConfigUpdate(base(), { user_default_permissions: [{ id: 'read' }] }, facts()).user_default_permissions).toEqual([{ id: 'read' }]);
    expect(statusErrorOf(() => applyConfigUpdate(base(), { user_default_permissions: [{ id: 'read' }, { id: 'admin' }, { id: 'nope' }] }, facts())))
      .toEqual({ status: 400, message: 'Invalid user default permission ids: admin, nope' });
  });
});
