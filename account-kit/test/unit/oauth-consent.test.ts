// The consent page's rules (lib/oauth-consent.ts): each scope's catalogue text, and the request the address names.
import { describe, expect, test } from 'bun:test';
import { interactionIdOf, scopeKey } from '../../src/lib/oauth-consent';
import { en } from '../../src/messages';

describe('consent page rules', () => {
  test('the four OpenID scopes have texts; any other scope has none (shown by its id)', () => {
    for (const scope of ['openid', 'profile', 'email', 'offline_access']) {
      const key = scopeKey(scope);
      expect(key).not.toBeNull();
      expect(Object.keys(en)).toContain(key!);
    }
    expect(scopeKey('admin')).toBeNull();
    expect(scopeKey('constructor')).toBeNull();
    expect(scopeKey('__proto__')).toBeNull();
  });

  test('the interaction id is read from ?interaction=, and nothing else stands in for it', () => {
    expect(interactionIdOf('?interaction=abc_DEF-123')).toBe('abc_DEF-123');
    expect(interactionIdOf('?other=1')).toBeNull();
    expect(interactionIdOf('?interaction=')).toBeNull();
    expect(interactionIdOf(`?interaction=${'x'.repeat(201)}`)).toBeNull();
  });
});
