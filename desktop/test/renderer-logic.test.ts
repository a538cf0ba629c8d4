// The renderer's rules, outside any component: routes, the web build's saved list, and each form's validation
// with the service's schemas and rules.
import { describe, expect, test } from 'bun:test';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { AdminSentEmail, InternalApiKey, PermissionDefinition } from '@gatehouse/shared/client';
import { parseRoute, routeForRedirect, routeHash } from '../src/renderer/lib/routes';
import { addWebConnection, readWebConnections, thisServiceConnection } from '../src/renderer/lib/web-connections';
import { parseConsoleConfig } from '../src/renderer/lib/console-config';
import { domainProductionProblem, validateConfiguration, configurationUpdate } from '../src/renderer/lib/configuration-form';
import { callbackUrl, providerConfig, validateProvider } from '../src/renderer/lib/oauth-providers';
import { validateEmailForm, emailConfig, emailFormValues } from '../src/renderer/lib/email-form';
import { keyState, validateKeyForm, expiryDate } from '../src/renderer/lib/api-keys';
import { containmentTree, validatePermission } from '../src/renderer/lib/team-permissions';
import { failureText, filterSentEmails } from '../src/renderer/lib/sent-emails';
import { errorField } from '../src/renderer/lib/known-error-fields';
import { sumLastDays, todayValue } from '../src/renderer/lib/overview-numbers';
import { previewTemplate, templateVariables, validateTemplate } from '../src/renderer/lib/email-templates';
import { connectionLabel, projectContext } from '../src/renderer/lib/connect-rules';
import { ownerCallbackOf, rememberReturnRoute, takeInvitationReturn, takeReturnRoute } from '../src/renderer/lib/owner-callback';
import { ownerInvitationCallbackUrl } from '../src/renderer/lib/owner-invitations';
import { createTranslator } from '../src/renderer/messages';
import { en } from '../src/renderer/messages/en';

describe('owner sign-in returns (web)', () => {
  test('the callback address is read from the query; the screen to return to is remembered once, never a sign-in screen', () => {
    expect(ownerCallbackOf('?auth_callback=oauth&code=x&state=y')).toEqual({ kind: 'oauth' });
    expect(ownerCallbackOf('?auth_callback=magic-link&code=abc')).toEqual({ kind: 'magic-link', code: 'abc' });
    expect(ownerCallbackOf('?code=abc')).toBeNull();
    const store = new Map<string, string>();
    const storage = { setItem: (k: string, v: string) => void store.set(k, v), getItem: (k: string) => store.get(k) ?? null, removeItem: (k: string) => void store.delete(k) };
    rememberReturnRoute(storage, '#/c/this-service/sign-in');
    expect(takeReturnRoute(storage, 'this-service')).toEqual({ name: 'projects', connectionId: 'this-service' });
    rememberReturnRoute(storage, '#/c/this-service/p/p1/users');
    expect(takeReturnRoute(storage, 'other')).toEqual({ name: 'projects', connectionId: 'other' });
    rememberReturnRoute(storage, '#/c/this-service/p/p1/users');
    expect(takeReturnRoute(storage, 'this-service')).toEqual({ name: 'project', connectionId: 'this-service', projectId: 'p1', screen: 'users' });
    expect(takeReturnRoute(storage, 'this-service')).toEqual({ name: 'projects', connectionId: 'this-service' });
  });
});

describe('owner invitations (routes)', () => {
  test("the mail's link opens the web console's accept page, its code in the hash route's query", () => {
    expect(ownerInvitationCallbackUrl('http://localhost:8102/')).toBe('http://localhost:8102/console/#/c/this-service/owner-invitation');
    expect(parseRoute('#/c/this-service/owner-invitation?code=abc123')).toEqual({ name: 'owner-invitation', connectionId: 'this-service', code: 'abc123' });
    expect(parseRoute('#/c/this-service/owner-invitation')).toEqual({ name: 'owner-invitation', connectionId: 'this-service', code: null });
    const r = { name: 'owner-invitation', connectionId: 'this-service', code: 'abc123' } as const;
    expect(parseRoute(routeHash(r))).toEqual(r);
  });

  test('a sign-in or sign-up started on the accept page comes back to it once; other remembered places are left alone', () => {
    const store = new Map<string, string>();
    const storage = { setItem: (k: string, v: string) => void store.set(k, v), getItem: (k: string) => store.get(k) ?? null, removeItem: (k: string) => void store.delete(k) };
    rememberReturnRoute(storage, '#/c/this-service/p/p1/users');
    expect(takeInvitationReturn(storage, 'this-service')).toBeNull();
    expect(takeReturnRoute(storage, 'this-service')).toEqual({ name: 'project', connectionId: 'this-service', projectId: 'p1', screen: 'users' });
    rememberReturnRoute(storage, '#/c/this-service/owner-invitation?code=abc');
    // Opening the sign-up link of the sign-in screen does not forget it.
    rememberReturnRoute(storage, '#/c/this-service/sign-up');
    expect(takeInvitationReturn(storage, 'other')).toBeNull();
    expect(takeInvitationReturn(storage, 'this-service')).toEqual({ name: 'owner-invitation', connectionId: 'this-service', code: 'abc' });
    expect(takeInvitationReturn(storage, 'this-service')).toBeNull();
    // An OAuth or magic-link return comes back to it too.
    rememberReturnRoute(storage, '#/c/this-service/owner-invitation?code=abc');
    expect(takeReturnRoute(storage, 'this-service')).toEqual({ name: 'owner-invitation', connectionId: 'this-service', code: 'abc' });
  });
});

describe('connection labels', () => {
  test('the header names the project by its name (its id until loaded), once', () => {
    const id = '4a0080c8-8bce-4ff0-a045-b510e5e924d1';
    expect(connectionLabel('http://localhost:8102/console', id)).toBe(`${id} @ localhost:8102`);
    // The project by its name once loaded, by its id before.
    expect(projectContext(connectionLabel('http://localhost:8102', id), id)).toBe(`localhost:8102 · ${id}`);
    expect(projectContext(connectionLabel('http://localhost:8102', id), id, 'Acme')).toBe('localhost:8102 · Acme');
    expect(projectContext(connectionLabel('https://auth.example.com'), id, 'Acme')).toBe('auth.example.com · Acme');
    // Another project's admin-key connection still says which project is open.
    expect(projectContext(connectionLabel('http://localhost:8102', 'other'), id, 'Acme')).toBe('other @ localhost:8102 · Acme');
  });
});

describe('routes', () => {
  test('round trip and fallbacks', () => {
    const r = { name: 'project', connectionId: 'a b', projectId: 'p-1', screen: 'api-keys' } as const;
    expect(parseRoute(routeHash(r))).toEqual(r);
    expect(parseRoute('#/c/x/p/y/unknown')).toEqual({ name: 'project', connectionId: 'x', projectId: 'y', screen: 'overview' });
    expect(parseRoute('')).toEqual({ name: 'connect' });
    expect(parseRoute('#/c/x/sign-up')).toEqual({ name: 'sign-up', connectionId: 'x' });
    expect(routeForRedirect('/handler/sign-up?after_auth_return_to=%2F', 'x')).toEqual({ name: 'sign-up', connectionId: 'x' });
    expect(routeForRedirect('/console/', 'x')).toEqual({ name: 'projects', connectionId: 'x' });
    expect(routeForRedirect('/handler/email-verification', 'x')).toBeNull();
  });
});

describe('web saved list', () => {
  test('never keeps a secret, one entry per project, the serving service first', () => {
    const { list, saved } = addWebConnection([], { kind: 'project', serviceUrl: 'http://localhost:1', projectId: 'p', label: 'p', ...({ adminKey: 'sak_secret' } as object) }, () => 'id1');
    expect(JSON.stringify(list)).not.toContain('sak_secret');
    expect(addWebConnection(list, { kind: 'project', serviceUrl: 'http://localhost:1', projectId: 'p', label: 'p2' }, () => 'id2').list).toEqual([{ ...saved, label: 'p2' }]);
    expect(readWebConnections(JSON.stringify([{ ...saved, superSecretAdminKey: 'x' }, { junk: true }]))).toEqual([saved]);
    expect(readWebConnections('not json')).toEqual([]);
    expect(thisServiceConnection('http://localhost:8102', { publishableClientKey: 'pck' })).toMatchObject({ id: 'this-service', kind: 'owner', publishableClientKey: 'pck' });
    expect(parseConsoleConfig('{"publishableClientKey":null}')).toEqual({ publishableClientKey: null });
    expect(parseConsoleConfig('{bad')).toEqual({ publishableClientKey: null });
  });
});

const baseConfig = {
  displayName: 'Acme', description: '', signUpEnabled: true, credentialEnabled: true, magicLinkEnabled: false, passkeyEnabled: false,
  clientTeamCreationEnabled: false, clientUserDeletionEnabled: false, createTeamOnSignUp: false, allowLocalhost: true,
  oauthAccountMergeStrategy: 'link_method' as const, domains: [] as { domain: string; handlerPath: string }[],
};

describe('configuration', () => {
  test('domains and handler paths are checked with the service\'s schema; production problems per domain', () => {
    expect(validateConfiguration(baseConfig)).toEqual({});
    const errors = validateConfiguration({ ...baseConfig, displayName: ' ', domains: [{ domain: 'example.com', handlerPath: 'handler' }] });
    expect(errors).toEqual({ displayName: expect.any(String), 'domains.0.domain': 'URL must start with http:// or https://', 'domains.0.handlerPath': 'Handler path must start with /' });
    expect(domainProductionProblem('http://localhost:3000')).toBe('Localhost domains are not allowed to be trusted in production mode: http://localhost:3000');
    expect(domainProductionProblem('https://10.0.0.1')).toBe('Direct IPs are not valid for trusted domains in production mode: https://10.0.0.1');
    expect(domainProductionProblem('http://app.example.com')).toBe('Trusted domains should be HTTPS: http://app.example.com');
    expect(domainProductionProblem('https://app.example.com')).toBeNull();
    expect(configurationUpdate({ ...baseConfig, description: '  ' }).description).toBeNull();
  });
});

describe('OAuth providers', () => {
  test('standard keys need a client id and secret; extra ids only for their provider', () => {
    const v = { enabled: true, type: 'standard' as const, clientId: '', clientSecret: '', facebookConfigId: 'fb', microsoftTenantId: 'tenant' };
    expect(Object.keys(validateProvider('google', v)).sort()).toEqual(['clientId', 'clientSecret']);
    expect(validateProvider('google', { ...v, type: 'shared' })).toEqual({});
    expect(providerConfig('google', { ...v, clientId: 'id', clientSecret: 's' })).toEqual({ id: 'google', enabled: true, type: 'standard', clientId: 'id', clientSecret: 's' });
    expect(providerConfig('microsoft', { ...v, clientId: 'id', clientSecret: 's' })).toMatchObject({ microsoftTenantId: 'tenant' });
    expect(callbackUrl('http://localhost:8102/', 'github')).toBe('http://localhost:8102/api/v1/auth/oauth/callback/github');
  });
});

describe('email server', () => {
  const m = { required: 'Required', port: 'Bad port', email: 'Bad email' };
  test('every standard field required, port 0–65535, sender email checked', () => {
    const v = { type: 'standard' as const, host: 'smtp.example.com', port: '587', username: 'u', password: 'p', senderName: 'Acme', senderEmail: 'no-reply@example.com', requireTls: true };
    expect(validateEmailForm(v, m)).toEqual({});
    expect(validateEmailForm({ ...v, port: '65536' }, m)).toEqual({ port: 'Bad port' });
    expect(validateEmailForm({ ...v, port: 'abc' }, m)).toEqual({ port: 'Bad port' });
    expect(validateEmailForm({ ...v, port: '0' }, m)).toEqual({});
    expect(validateEmailForm({ ...v, host: '', senderEmail: 'nope' }, m)).toEqual({ host: 'Required', senderEmail: expect.any(String) });
    expect(validateEmailForm({ ...v, type: 'shared', host: '' }, m)).toEqual({});
    expect(emailConfig({ ...v, port: '2525' })).toMatchObject({ type: 'standard', port: 2525 });
    // TLS required is what the form suggests for a new server (ASVS 2.7.4), and what it sends as require_tls.
    expect(emailConfig({ ...v, port: '2525' })).toMatchObject({ requireTls: true });
    expect(emailFormValues({ type: 'shared' }).requireTls).toBe(true);
    expect(emailFormValues({ type: 'standard', host: 'h', port: 25, username: 'u', password: 'p', senderName: 'n', senderEmail: 'e@x.y' }).requireTls).toBe(false);
  });
});

describe('API keys', () => {
  test('state as seed §4 says: expired first, then revoked', () => {
    const key = (o: Partial<InternalApiKey>) => ({ expiresAt: new Date(Date.now() + 1000), manuallyRevokedAt: null, ...o }) as InternalApiKey;
    expect(keyState(key({}))).toBe('valid');
    expect(keyState(key({ manuallyRevokedAt: new Date() }))).toBe('manually-revoked');
    expect(keyState(key({ expiresAt: new Date(Date.now() - 1), manuallyRevokedAt: new Date() }))).toBe('expired');
  });
  test('a description and at least one key', () => {
    const m = { required: 'Required', atLeastOne: 'One' };
    expect(validateKeyForm({ description: 'ci', expiresIn: '30', publishable: false, secret: true, admin: false }, m)).toEqual({});
    expect(validateKeyForm({ description: ' ', expiresIn: '30', publishable: false, secret: false, admin: false }, m)).toEqual({ description: 'Required', admin: 'One' });
    expect(expiryDate('7', 0).getTime()).toBe(7 * 86_400_000);
  });
});

describe('team permissions', () => {
  const defs: PermissionDefinition[] = [
    { id: 'admin', containedPermissionIds: ['editor', '$delete_team'] },
    { id: 'editor', containedPermissionIds: ['reader'] },
    { id: 'reader', containedPermissionIds: [] },
  ];
  test('the containment tree', () => {
    expect(containmentTree('admin', defs)).toEqual([
      { id: 'editor', children: [{ id: 'reader', children: [] }] },
      { id: '$delete_team', children: [] },
    ]);
  });
  test('the id rule, "Invalid system permission", and no cycles', () => {
    expect(validatePermission({ id: 'Bad Id', description: '', contains: [] }, defs, null, 'cycle').id).toBe('Only lowercase letters, numbers, ":", "_" are allowed');
    expect(validatePermission({ id: 'x', description: '', contains: ['$nope'] }, defs, null, 'cycle').contains).toBe('Invalid system permission');
    expect(validatePermission({ id: 'reader', description: '', contains: ['admin'] }, defs, 'reader', 'cycle').contains).toBe('cycle');
    expect(validatePermission({ id: 'writer', description: 'd', contains: ['reader', '$update_team'] }, defs, null, 'cycle')).toEqual({});
  });
});

describe('sent emails', () => {
  const mail = (id: string, to: string, at: number, error: unknown = null) => ({ id, to: [to], subject: 's', recipient: to, sentAt: new Date(at), error }) as AdminSentEmail;
  test('newest first, by address, failed only; errors as text', () => {
    const list = [mail('1', 'a@x.test', 1), mail('2', 'b@x.test', 3, { message: 'boom' }), mail('3', 'a@x.test', 2)];
    expect(filterSentEmails(list, { address: '', failedOnly: false }).map((m) => m.id)).toEqual(['2', '3', '1']);
    expect(filterSentEmails(list, { address: 'A@X', failedOnly: false }).map((m) => m.id)).toEqual(['3', '1']);
    expect(filterSentEmails(list, { address: '', failedOnly: true }).map((m) => m.id)).toEqual(['2']);
    expect(failureText({ message: 'boom' })).toBe('boom');
    expect(failureText({ message: 'boom', errorType: 'UNKNOWN', canRetry: false })).toContain('"errorType": "UNKNOWN"');
  });
});

describe('known errors next to their field', () => {
  test('by code and by schema path', () => {
    const rules = [{ field: 'id', codes: ['PERMISSION_ID_ALREADY_EXISTS'] }, { field: 'port', schemaPath: /port/ }];
    expect(errorField(new KnownErrors.PermissionIdAlreadyExists('x'), rules)).toBe('id');
    expect(errorField(new KnownErrors.SchemaError('body.config.email_config.port must be <= 65535'), rules)).toBe('port');
    expect(errorField(new KnownErrors.SchemaError('body.display_name is too long'), rules)).toBeNull();
    expect(errorField(new Error('network'), rules)).toBeNull();
  });
});

describe('overview and templates', () => {
  test('sums over the last days', () => {
    const today = new Date('2026-11-24T12:00:00Z');
    const points = [{ date: '2026-11-24', activity: 2 }, { date: '2026-11-18', activity: 3 }, { date: '2026-11-17', activity: 100 }];
    expect(sumLastDays(points, 7, today)).toBe(5);
    expect(todayValue(points, today)).toBe(2);
  });
  test('the preview is the service\'s rendering with sample values; variables listed per type', () => {
    const r = previewTemplate('magic_link', { subject: 'Code {{ otp }} for {{ projectDisplayName }}', html: '<p>{{ userDisplayName }}</p>', text: '{{ magicLink }}' });
    expect(r.subject).toBe('Code 123456 for My project');
    expect(r.html).toBe('<p>Ada Lovelace</p>');
    expect(templateVariables('team_invitation').sort()).toEqual(['projectDisplayName', 'teamDisplayName', 'teamInvitationLink', 'userDisplayName']);
    expect(validateTemplate({ subject: '', html: '', text: '' })).toEqual({ subject: expect.any(String) });
  });
});

describe('message catalogue', () => {
  test('placeholders are filled; every key has a text', () => {
    const t = createTranslator();
    expect(t('projects.deleteTitle', { name: 'Acme' })).toBe('Delete project "Acme"?');
    expect(Object.values(en).every((v) => typeof v === 'string' && v.length > 0)).toBe(true);
  });
});
