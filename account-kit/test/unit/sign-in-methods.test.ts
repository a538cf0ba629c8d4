// Which methods the sign-in and sign-up screens offer for a project's config.
import { describe, expect, test } from 'bun:test';
import { authMethods } from '../../src/lib/sign-in-methods';
import { oauthProviderName, orderProviders } from '../../src/lib/oauth-providers';

const config = (o: Partial<Parameters<typeof authMethods>[0]> = {}) => ({
  credentialEnabled: true, magicLinkEnabled: false, passkeyEnabled: false, signUpEnabled: true, oauthProviders: [], ...o,
});

describe('authMethods', () => {
  test('password only', () => {
    expect(authMethods(config(), 'sign-in')).toEqual({ oauthProviders: [], passkey: false, password: true, magicLink: false, signUpDisabled: false, none: false });
  });

  test('every method on: providers in catalogue order; the passkey only signs in', () => {
    const all = config({ magicLinkEnabled: true, passkeyEnabled: true, oauthProviders: [{ id: 'x' }, { id: 'github' }, { id: 'google' }] as any });
    expect(authMethods(all, 'sign-in')).toEqual({ oauthProviders: ['google', 'github', 'x'], passkey: true, password: true, magicLink: true, signUpDisabled: false, none: false });
    expect(authMethods(all, 'sign-up').passkey).toBe(false);
  });

  test('sign-up disabled: the sign-up screen offers nothing; sign-in is unchanged', () => {
    const closed = config({ signUpEnabled: false, magicLinkEnabled: true, oauthProviders: [{ id: 'github' }] as any });
    expect(authMethods(closed, 'sign-up')).toEqual({ oauthProviders: [], passkey: false, password: false, magicLink: false, signUpDisabled: true, none: false });
    expect(authMethods(closed, 'sign-in')).toMatchObject({ oauthProviders: ['github'], password: true, magicLink: true, signUpDisabled: false });
  });

  test('password disabled: only the email code', () => {
    expect(authMethods(config({ credentialEnabled: false, magicLinkEnabled: true }), 'sign-in')).toMatchObject({ password: false, magicLink: true, none: false });
  });

  test('nothing enabled: "none" (a misconfigured project); a passkey alone does not make sign-up possible', () => {
    expect(authMethods(config({ credentialEnabled: false }), 'sign-in').none).toBe(true);
    expect(authMethods(config({ credentialEnabled: false, passkeyEnabled: true }), 'sign-in').none).toBe(false);
    expect(authMethods(config({ credentialEnabled: false, passkeyEnabled: true }), 'sign-up').none).toBe(true);
  });
});

describe('OAuth provider names', () => {
  test('known providers by their brand name, unknown ones capitalised', () => {
    expect(['google', 'github', 'microsoft', 'gitlab', 'linkedin', 'x'].map(oauthProviderName)).toEqual(['Google', 'GitHub', 'Microsoft', 'GitLab', 'LinkedIn', 'X']);
    expect(oauthProviderName('acme')).toBe('Acme');
    expect(orderProviders(['spotify', 'apple', 'google'])).toEqual(['google', 'apple', 'spotify']);
  });
});
