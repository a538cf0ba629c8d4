// The "Client registration and resources" section's rules outside any component: where the registration endpoint is,
// what is sent when a resource is added or removed, and the check of a resource before it is added (the service's
// schema, shared/src/schemas/oauth-provider.ts, and the form's own rule against listing one twice).
import { describe, expect, test } from 'bun:test';
import {
  MAX_RESOURCES, registrationEndpoint, resourcesWith, resourcesWithout, validateResourceForm,
} from '../src/renderer/lib/oauth-provider-access';

const m = { required: 'required', url: 'url', twice: 'twice', tooMany: 'too many' };
const listed = ['https://api.example.com', 'http://127.0.0.1:8080/mcp'];
const check = (resource: string, on: readonly string[] = listed) => validateResourceForm({ resource }, on, m);

describe('registration endpoint and resources sent', () => {
  test("the registration endpoint is the issuer's /reg, whatever slashes end the service URL", () => {
    expect(registrationEndpoint('https://auth.example.com/', 'p-1')).toBe('https://auth.example.com/oidc/p-1/reg');
    expect(registrationEndpoint('http://127.0.0.1:4000', 'a b')).toBe('http://127.0.0.1:4000/oidc/a%20b/reg');
  });

  test('adding sends the listed resources as they are, then the new one trimmed; removing drops only that one', () => {
    expect(resourcesWith(listed, '  https://billing.example.com/v1 ')).toEqual([...listed, 'https://billing.example.com/v1']);
    expect(resourcesWithout(listed, 'https://api.example.com')).toEqual(['http://127.0.0.1:8080/mcp']);
    expect(resourcesWithout(listed, 'https://other.example.com')).toEqual(listed);
  });
});

describe('a resource checked before it is added', () => {
  test('absolute http(s) URLs pass, with a path, a port, a query, an IP literal', () => {
    for (const ok of ['https://billing.example.com', 'https://api.example.com/v1/', 'http://localhost:3000/mcp?x=1', 'http://[::1]:9000']) {
      expect(check(ok)).toEqual({});
    }
  });

  test('empty, another scheme, relative, a fragment, spaces: refused with the form\'s text', () => {
    expect(check('   ')).toEqual({ resource: 'required' });
    for (const bad of ['ftp://files.example.com', 'urn:example:api', 'api.example.com', '/mcp', 'https://api.example.com/#top', 'https://api.example.com/a b', 'https://']) {
      expect(check(bad)).toEqual({ resource: 'url' });
    }
  });

  test('one listed already (after trimming) is refused; a different spelling is another resource, as the service matches', () => {
    expect(check(' https://api.example.com ')).toEqual({ resource: 'twice' });
    expect(check('https://api.example.com/')).toEqual({});
  });

  test("the service's limits: its length worded by the limit, its count refused at the schema's maximum", () => {
    const long = `https://api.example.com/${'a'.repeat(2048)}`;
    expect(check(long)).toEqual({ resource: 'At most 2048 characters' });
    expect(MAX_RESOURCES).toBe(20);
    const full = Array.from({ length: MAX_RESOURCES }, (_, i) => `https://api${i}.example.com`);
    expect(check('https://one-more.example.com', full)).toEqual({ resource: 'too many' });
    expect(check('https://one-more.example.com', full.slice(1))).toEqual({});
  });
});
