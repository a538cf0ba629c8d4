// The "Scopes and claims" form's rules outside any component: its starting values, what it sends, the scopes a claim
// may name, and its checks field by field (the service's own rules, shared/src/rules/oauth-provider-claims.ts).
import { describe, expect, test } from 'bun:test';
import type { OAuthProviderSettings } from '@gatehouse/shared/client';
import {
  claimScopeOptions, clientScopeChoices, emptyClaimRow, providerSettingsFormValues, providerSettingsUpdateOptions, validateProviderSettingsForm,
  type ProviderSettingsFormValues,
} from '../src/renderer/lib/oauth-provider-settings';
import { oauthAppCreateOptions, oauthAppFormValues, validateOAuthAppForm } from '../src/renderer/lib/oauth-apps';

const settings: OAuthProviderSettings = {
  dynamicClientRegistration: false, resources: [], updatedAt: null,
  scopes: [{ name: 'billing:read', description: 'See your plan' }],
  claims: [{ claim: 'plan', source: 'client_metadata.plan', scope: 'billing:read', inAccessToken: true }],
};
const messages = {
  required: 'required', scopeToken: 'token', scopeStandard: 'standard', scopeTwice: 'scope twice', descriptionTooLong: 'long',
  claimName: 'claim name', claimReserved: 'reserved', claimTwice: 'claim twice', source: 'source', claimScope: 'claim scope',
  tooManyScopes: 'many scopes', tooManyClaims: 'many claims',
};
const check = (v: Partial<ProviderSettingsFormValues>) => validateProviderSettingsForm({ ...providerSettingsFormValues(settings), ...v }, messages);

describe('scopes and claims form values', () => {
  test('start from the settings; send them trimmed, both lists whole', () => {
    const v = providerSettingsFormValues(settings);
    expect(v).toEqual({ scopes: [{ name: 'billing:read', description: 'See your plan' }], claims: [{ claim: 'plan', source: 'client_metadata.plan', scope: 'billing:read', inAccessToken: true }] });
    v.scopes[0]!.description = '  See your plan  ';
    v.claims.push({ ...emptyClaimRow(), claim: ' org ', source: ' server_metadata.org ' });
    expect(providerSettingsUpdateOptions(v)).toEqual({
      scopes: [{ name: 'billing:read', description: 'See your plan' }],
      claims: [
        { claim: 'plan', source: 'client_metadata.plan', scope: 'billing:read', inAccessToken: true },
        { claim: 'org', source: 'server_metadata.org', scope: 'openid', inAccessToken: false },
      ],
    });
  });

  test('a claim may be released by openid, profile, email or a well-formed project scope of the form', () => {
    expect(claimScopeOptions({ scopes: [{ name: 'billing:read', description: '' }, { name: 'bad name', description: '' }, { name: 'email', description: '' }], claims: [] }))
      .toEqual(['openid', 'profile', 'email', 'billing:read']);
  });

  test("a client may be allowed the standard scopes and the project's own, sent in that order", () => {
    const names = clientScopeChoices(['openid', 'profile', 'email', 'offline_access'], settings).slice(4);
    expect(names).toEqual(['billing:read']);
    const v = { ...oauthAppFormValues(null), displayName: 'App', redirectUris: 'https://a.example.com/cb', scopes: ['billing:read', 'openid', 'unknown'] };
    expect(oauthAppCreateOptions(v, names).scopes).toEqual(['openid', 'billing:read']);
    const only = { ...v, scopes: ['billing:read'] };
    const messages = { required: '', redirectUri: () => '', tooManyRedirectUris: '', grantRequired: '', scopeRequired: 'scope required', publicClientCredentials: '', refreshNeedsUserGrant: '', codeNeedsRedirectUri: '', lifetime: () => '' };
    expect(validateOAuthAppForm(only, messages, names).scopes).toBeUndefined();
    expect(validateOAuthAppForm(only, messages).scopes).toBe('scope required');
  });
});

describe('scopes and claims form checks', () => {
  test('the settings as they are pass', () => {
    expect(check({})).toEqual({});
  });

  test('scopes: required, a scope token, not standard, once; a description required and bounded', () => {
    expect(check({ scopes: [{ name: '', description: '' }], claims: [] })).toEqual({ 'scopes.0.name': 'required', 'scopes.0.description': 'required' });
    expect(check({ scopes: [{ name: 'has space', description: 'x' }, { name: 'quote"', description: 'x' }], claims: [] })).toEqual({ 'scopes.0.name': 'token', 'scopes.1.name': 'token' });
    expect(check({ scopes: [{ name: 'offline_access', description: 'x' }], claims: [] })).toEqual({ 'scopes.0.name': 'standard' });
    expect(check({ scopes: [{ name: 'a', description: 'x' }, { name: ' a ', description: 'y'.repeat(301) }], claims: [] }))
      .toEqual({ 'scopes.1.name': 'scope twice', 'scopes.1.description': 'long' });
  });

  test('claims: a name, not reserved, once; a metadata source; a scope that exists', () => {
    const row = (o: Partial<ProviderSettingsFormValues['claims'][number]>) => ({ claim: 'x', source: 'server_metadata.x', scope: 'openid', inAccessToken: false, ...o });
    expect(check({ claims: [row({ claim: '' })] })).toEqual({ 'claims.0.claim': 'required' });
    expect(check({ claims: [row({ claim: '1st' })] })).toEqual({ 'claims.0.claim': 'claim name' });
    for (const reserved of ['sub', 'aud', 'email', 'name', 'refreshTokenId', 'scope']) expect(check({ claims: [row({ claim: reserved })] })).toEqual({ 'claims.0.claim': 'reserved' });
    expect(check({ claims: [row({}), row({})] })).toEqual({ 'claims.1.claim': 'claim twice' });
    for (const source of ['password_hash', 'server_metadata.', 'client_metadata..a', 'server_metadata.a b']) expect(check({ claims: [row({ source })] })).toEqual({ 'claims.0.source': 'source' });
    expect(check({ claims: [row({ source: 'client_read_only_metadata' })] })).toEqual({});
    expect(check({ claims: [row({ scope: 'offline_access' })] })).toEqual({ 'claims.0.scope': 'claim scope' });
    // A scope taken out of the form while a claim still names it.
    expect(check({ scopes: [] })).toEqual({ 'claims.0.scope': 'claim scope' });
  });

  test('at most 50 of each', () => {
    const scopes = Array.from({ length: 51 }, (_, i) => ({ name: `s${i}`, description: 'x' }));
    expect(check({ scopes, claims: [] }).scopes).toBe('many scopes');
  });
});
