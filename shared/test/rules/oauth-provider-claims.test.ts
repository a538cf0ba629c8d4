// The rules of project scopes and custom claims (issue 27): what settings are refused, and how a claim's value is
// read from a user's metadata.
import { describe, expect, test } from 'bun:test';
import { claimValue, mappedClaims, providerClaimsViolation, type ClaimMapping } from '../../src/rules/oauth-provider-claims.ts';

const user = { client_metadata: { plan: 'pro', nested: { n: 0, f: false, nil: null, list: [1] } }, client_read_only_metadata: null, server_metadata: { org: { id: 'o1' } } };
const mapping = (o: Partial<ClaimMapping>): ClaimMapping => ({ claim: 'x', source: 'server_metadata.x', scope: 'openid', in_access_token: false, ...o });

describe('claim values from metadata', () => {
  test('a dot path; a missing step, a null or a non-object on the way leaves the value out; falsy values are kept', () => {
    expect(claimValue(user, 'client_metadata.plan')).toBe('pro');
    expect(claimValue(user, 'server_metadata.org.id')).toBe('o1');
    expect(claimValue(user, 'server_metadata.org')).toEqual({ id: 'o1' });
    expect(claimValue(user, 'client_metadata.nested.n')).toBe(0);
    expect(claimValue(user, 'client_metadata.nested.f')).toBe(false);
    expect(claimValue(user, 'client_metadata.nested.nil')).toBeUndefined();
    expect(claimValue(user, 'client_metadata.nested.list.0')).toBeUndefined();
    expect(claimValue(user, 'client_metadata.plan.length')).toBeUndefined();
    expect(claimValue(user, 'client_read_only_metadata.a')).toBeUndefined();
    expect(claimValue(user, 'client_metadata.toString')).toBeUndefined();
  });

  test('mapped claims: those with a value that the filter lets through', () => {
    const claims = [mapping({ claim: 'plan', source: 'client_metadata.plan', in_access_token: true }), mapping({ claim: 'org', source: 'server_metadata.org.id' }), mapping({ claim: 'gone', source: 'server_metadata.none' })];
    expect(mappedClaims(user, claims, () => true)).toEqual({ plan: 'pro', org: 'o1' });
    expect(mappedClaims(user, claims, (m) => m.in_access_token)).toEqual({ plan: 'pro' });
  });
});

describe('settings refused', () => {
  test('the first problem is named; good settings pass', () => {
    expect(providerClaimsViolation([{ name: 'billing:read', description: 'd' }], [mapping({ scope: 'billing:read' })])).toBeNull();
    expect(providerClaimsViolation([{ name: 'a\\b', description: 'd' }], [])).toContain('is not a scope token');
    expect(providerClaimsViolation([{ name: 'openid', description: 'd' }], [])).toContain('is a standard scope');
    expect(providerClaimsViolation([{ name: 'a', description: 'd' }, { name: 'a', description: 'e' }], [])).toContain('listed twice');
    expect(providerClaimsViolation([], [mapping({ claim: 'nonce' })])).toContain('is reserved');
    expect(providerClaimsViolation([], [mapping({}), mapping({})])).toContain('mapped twice');
    expect(providerClaimsViolation([], [mapping({ source: 'primary_email' })])).toContain('must be client_metadata');
    expect(providerClaimsViolation([], [mapping({ scope: 'offline_access' })])).toContain('neither openid, profile, email nor a project scope');
  });
});
