// The OAuth apps screen's rules outside any component: the form's starting values (new or edited client), what it
// sends, its checks before sending (the service's schema and the settings it refuses together), and the issuer URLs.
import { describe, expect, test } from 'bun:test';
import type { OAuthProviderClient } from '@gatehouse/shared/client';
import {
  activityParts, GRANT_LABEL_KEYS, GRANT_TYPES, issuerUrl, LIFETIME_FIELDS, lifetimePart, lifetimeSeconds, oauthAppCreateOptions, oauthAppFormValues, oauthAppUpdateOptions, redirectUriLines, tokenEndpoint,
  validateOAuthAppForm, type OAuthAppFormValues,
} from '../src/renderer/lib/oauth-apps';
import { en } from '../src/renderer/messages/en';

const messages = {
  required: 'required', redirectUri: (line: number) => `uri line ${line}`, tooManyRedirectUris: 'too many', grantRequired: 'grant required',
  scopeRequired: 'scope required', publicClientCredentials: 'public cc', refreshNeedsUserGrant: 'refresh alone', codeNeedsRedirectUri: 'code needs uri',
  lifetime: (min: number, max: number) => `lifetime ${min}-${max}`,
};
const form = (o: Partial<OAuthAppFormValues> = {}): OAuthAppFormValues => ({
  ...oauthAppFormValues(null), displayName: 'Web app', redirectUris: 'https://app.example.com/callback', ...o,
});
const check = (o: Partial<OAuthAppFormValues>) => validateOAuthAppForm(form(o), messages);

describe('OAuth app form values', () => {
  test('a new app starts confidential, with the service defaults: code + refresh, every scope', () => {
    expect(oauthAppFormValues(null)).toEqual({
      displayName: '', logoUrl: '', clientType: 'confidential', redirectUris: '', grantTypes: ['authorization_code', 'refresh_token'],
      scopes: ['openid', 'profile', 'email', 'offline_access'],
      accessTokenLifetimeSeconds: 3600, idTokenLifetimeSeconds: 3600, refreshTokenLifetimeSeconds: 30 * 86400,
    });
  });

  test('an edited app starts from its settings, its redirect URIs one a line', () => {
    const client: OAuthProviderClient = {
      clientId: 'c1', displayName: 'CLI', clientType: 'public', redirectUris: ['http://127.0.0.1:8765/cb', 'myapp:/cb'],
      grantTypes: ['urn:ietf:params:oauth:grant-type:device_code'], scopes: ['openid'], logoUrl: 'https://x.example.com/l.png',
      accessTokenLifetimeSeconds: 120, idTokenLifetimeSeconds: 300, refreshTokenLifetimeSeconds: 3600,
      createdAt: new Date(0), updatedAt: new Date(0),
    };
    expect(oauthAppFormValues(client)).toEqual({
      displayName: 'CLI', logoUrl: 'https://x.example.com/l.png', clientType: 'public', redirectUris: 'http://127.0.0.1:8765/cb\nmyapp:/cb',
      grantTypes: ['urn:ietf:params:oauth:grant-type:device_code'], scopes: ['openid'],
      accessTokenLifetimeSeconds: 120, idTokenLifetimeSeconds: 300, refreshTokenLifetimeSeconds: 3600,
    });
  });

  test('redirect URIs: one a line, trimmed, blank lines dropped, each once, written exactly otherwise', () => {
    expect(redirectUriLines('  https://a.example.com/cb \r\n\nhttps://a.example.com/cb/\nhttps://a.example.com/cb\n')).toEqual(['https://a.example.com/cb', 'https://a.example.com/cb/']);
    expect(redirectUriLines('   \n')).toEqual([]);
  });

  test('what is sent: trimmed name, no logo as null, grants and scopes in the protocol order', () => {
    const v = form({ displayName: '  Web app ', logoUrl: ' ', grantTypes: ['refresh_token', 'authorization_code'], scopes: ['email', 'openid'] });
    expect(oauthAppCreateOptions(v)).toEqual({
      displayName: 'Web app', clientType: 'confidential', redirectUris: ['https://app.example.com/callback'], grantTypes: ['authorization_code', 'refresh_token'],
      scopes: ['openid', 'email'], logoUrl: null,
      accessTokenLifetimeSeconds: 3600, idTokenLifetimeSeconds: 3600, refreshTokenLifetimeSeconds: 30 * 86400,
    });
  });

  test('an edit never sends the client type (a client keeps it)', () => {
    const options = oauthAppUpdateOptions(form({ clientType: 'public', logoUrl: 'https://x.example.com/l.png' }));
    expect('clientType' in options).toBe(false);
    expect(options).toMatchObject({ displayName: 'Web app', logoUrl: 'https://x.example.com/l.png' });
  });
});

describe('OAuth app form checks', () => {
  test('a good confidential web app and a machine client pass', () => {
    expect(check({})).toEqual({});
    expect(check({ redirectUris: '', grantTypes: ['client_credentials'], scopes: ['openid'] })).toEqual({});
    expect(check({ clientType: 'public', redirectUris: 'com.example.app:/oauth\nhttp://127.0.0.1:9000/cb' })).toEqual({});
  });

  test('the name is required and at most 200 characters', () => {
    expect(check({ displayName: '   ' }).displayName).toBe('required');
    expect(check({ displayName: 'x'.repeat(201) }).displayName).toBeString();
    expect(check({ displayName: 'x'.repeat(200) }).displayName).toBeUndefined();
  });

  test('the logo must be an http(s) URL', () => {
    expect(check({ logoUrl: 'ftp://example.com/l.png' }).logoUrl).toBeString();
    expect(check({ logoUrl: 'not a url' }).logoUrl).toBeString();
    expect(check({ logoUrl: 'https://cdn.example.com/logo.svg' }).logoUrl).toBeUndefined();
  });

  test('each redirect URI must be absolute, without a fragment; the error names its line', () => {
    expect(check({ redirectUris: 'https://a.example.com/cb\n/relative/cb' }).redirectUris).toBe('uri line 2');
    expect(check({ redirectUris: 'https://a.example.com/cb#frag' }).redirectUris).toBe('uri line 1');
    expect(check({ redirectUris: Array.from({ length: 21 }, (_, i) => `https://a.example.com/cb${i}`).join('\n') }).redirectUris).toBe('too many');
  });

  test('settings the service refuses together are refused before sending', () => {
    expect(check({ grantTypes: [] }).grantTypes).toBe('grant required');
    expect(check({ grantTypes: ['nonsense'] }).grantTypes).toBe('grant required');
    expect(check({ scopes: [] }).scopes).toBe('scope required');
    expect(check({ clientType: 'public', grantTypes: ['client_credentials'] }).grantTypes).toBe('public cc');
    expect(check({ grantTypes: ['refresh_token', 'client_credentials'] }).grantTypes).toBe('refresh alone');
    expect(check({ grantTypes: ['refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'] }).grantTypes).toBeUndefined();
    expect(check({ redirectUris: '\n', grantTypes: ['authorization_code'] }).redirectUris).toBe('code needs uri');
  });

  test('token lifetimes: whole seconds within their bounds (a minute to a day; refresh an hour to a year)', () => {
    expect(check({ accessTokenLifetimeSeconds: 60, idTokenLifetimeSeconds: 86_400, refreshTokenLifetimeSeconds: 3600 })).toEqual({});
    expect(check({ refreshTokenLifetimeSeconds: 365 * 86_400 })).toEqual({});
    expect(check({ accessTokenLifetimeSeconds: 59 }).accessTokenLifetimeSeconds).toBe('lifetime 60-86400');
    expect(check({ accessTokenLifetimeSeconds: '' }).accessTokenLifetimeSeconds).toBe('lifetime 60-86400');
    expect(check({ idTokenLifetimeSeconds: 86_401 }).idTokenLifetimeSeconds).toBe('lifetime 60-86400');
    expect(check({ idTokenLifetimeSeconds: '120.5' }).idTokenLifetimeSeconds).toBe('lifetime 60-86400');
    expect(check({ refreshTokenLifetimeSeconds: 3599 }).refreshTokenLifetimeSeconds).toBe('lifetime 3600-31536000');
    expect(check({ refreshTokenLifetimeSeconds: 365 * 86_400 + 1 }).refreshTokenLifetimeSeconds).toBe('lifetime 3600-31536000');
    // A number input may hand over its text: a whole number in it counts, and is sent as a number.
    expect(check({ accessTokenLifetimeSeconds: '120' })).toEqual({});
    expect(oauthAppCreateOptions(form({ accessTokenLifetimeSeconds: '120' })).accessTokenLifetimeSeconds).toBe(120);
    expect(lifetimeSeconds('  ')).toBeNull();
    expect(lifetimeSeconds('abc')).toBeNull();
  });

  test('every grant type has a label in the catalogue; the form texts exist', () => {
    for (const f of LIFETIME_FIELDS) expect(en[f.label]).toBeString();
    expect(en['oauthApps.lifetimeRange']).toContain('{min}');
    for (const g of GRANT_TYPES) expect(en[GRANT_LABEL_KEYS[g]]).toBeString();
    expect(en['oauthApps.redirectUriInvalid']).toContain('{line}');
  });
});

describe('activity line', () => {
  test('counts with their singular, and the last token or none yet', () => {
    const at = new Date('2026-11-27T10:00:00Z');
    expect(activityParts({ consentsGranted: 1, liveTokens: 3, lastTokenIssuedAt: at })).toEqual([
      { key: 'oauthApps.consentsOne', values: { count: 1 } }, { key: 'oauthApps.liveTokens', values: { count: 3 } }, { key: 'oauthApps.lastToken', at },
    ]);
    expect(activityParts({ consentsGranted: 0, liveTokens: 1, lastTokenIssuedAt: null }).map((p) => p.key)).toEqual(['oauthApps.consents', 'oauthApps.liveTokensOne', 'oauthApps.noTokenYet']);
  });
});

describe('lifetimes on the card', () => {
  test('in the largest unit that says them exactly', () => {
    expect(lifetimePart(120)).toEqual({ key: 'oauthApps.lifetime.minutes', values: { count: 2 } });
    expect(lifetimePart(90)).toEqual({ key: 'oauthApps.lifetime.seconds', values: { count: 90 } });
    expect(lifetimePart(3600)).toEqual({ key: 'oauthApps.lifetime.hours', values: { count: 1 } });
    expect(lifetimePart(5400)).toEqual({ key: 'oauthApps.lifetime.minutes', values: { count: 90 } });
    expect(lifetimePart(30 * 86_400)).toEqual({ key: 'oauthApps.lifetime.days', values: { count: 30 } });
    expect(lifetimePart(86_401)).toEqual({ key: 'oauthApps.lifetime.seconds', values: { count: 86_401 } });
    for (const unit of ['days', 'hours', 'minutes', 'seconds'] as const) expect(en[`oauthApps.lifetime.${unit}`]).toContain('{count}');
  });
});

describe('issuer URLs', () => {
  test('the project issuer and its token endpoint under the service URL', () => {
    expect(issuerUrl('https://auth.example.com/', 'p 1')).toBe('https://auth.example.com/oidc/p%201');
    expect(tokenEndpoint('http://127.0.0.1:8102', 'abc')).toBe('http://127.0.0.1:8102/oidc/abc/token');
  });
});
