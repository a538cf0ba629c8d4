import { describe, expect, test } from 'bun:test';
import {
  assertRelativeRedirect,
  isLocalhostHostname,
  isRelativeUrl,
  isTrustedRedirect,
  isValidUrl,
  stripCodeAndState,
  urlProblems,
  withQueryParam,
} from '../../src/rules/urls';

describe('isValidUrl / urlProblems', () => {
  test('absolute URLs of any scheme', () => {
    for (const url of ['https://example.com', 'http://localhost:3000/x?y=1#z', 'myapp://callback', 'mailto:a@b.c']) {
      expect(isValidUrl(url)).toBe(true);
      expect(urlProblems(url)).toEqual([]);
    }
  });

  test('relative or empty is not a valid URL', () => {
    for (const url of ['', '/handler/sign-in', 'example.com', '//example.com/x']) {
      expect(urlProblems(url)).toEqual(['is not a valid URL']);
    }
  });

  test('spaces: reported alone when the URL still parses, both when it does not', () => {
    expect(urlProblems('https://example.com/a b')).toEqual(['contains spaces']);
    expect(urlProblems('https://exa mple.com')).toEqual(['contains spaces', 'is not a valid URL']);
    expect(urlProblems(' https://example.com')).toEqual(['contains spaces']);
    expect(isValidUrl('https://example.com/a b')).toBe(false);
  });
});

describe('isTrustedRedirect', () => {
  const noDomains = { allowLocalhost: true, domains: [] };

  test('localhost forms trusted when allowed (e2e fixtures)', () => {
    expect(isTrustedRedirect('http://localhost:12345/some-callback-url', noDomains)).toBe(true);
    expect(isTrustedRedirect('http://stack-test.localhost/some-callback-url', noDomains)).toBe(true);
    expect(isTrustedRedirect('https://a.b.localhost/x', noDomains)).toBe(true);
    expect(isTrustedRedirect('http://127.0.0.1:8080/cb', noDomains)).toBe(true);
    expect(isTrustedRedirect('http://127.12.3.4/cb', noDomains)).toBe(true);
    expect(isTrustedRedirect('http://LOCALHOST/cb', noDomains)).toBe(true);
  });

  test('localhost look-alikes are not localhost', () => {
    expect(isTrustedRedirect('http://localhost.evil.com/cb', noDomains)).toBe(false);
    expect(isTrustedRedirect('http://notlocalhost/cb', noDomains)).toBe(false);
    expect(isTrustedRedirect('http://128.0.0.1/cb', noDomains)).toBe(false);
    expect(isTrustedRedirect('http://[::1]/cb', noDomains)).toBe(false);
    expect(isLocalhostHostname('evil-localhost')).toBe(false);
  });

  test('localhost untrusted when not allowed', () => {
    const config = { allowLocalhost: false, domains: [] };
    expect(isTrustedRedirect('http://localhost:12345/some-callback-url', config)).toBe(false);
    expect(isTrustedRedirect('http://stack-test.localhost/some-callback-url', config)).toBe(false);
    expect(isTrustedRedirect('http://127.0.0.1/cb', config)).toBe(false);
  });

  test('unconfigured domain untrusted', () => {
    expect(isTrustedRedirect('http://evil-website.example.com', noDomains)).toBe(false);
    expect(
      isTrustedRedirect('http://evil-website.example.com', {
        allowLocalhost: true,
        domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }],
      }),
    ).toBe(false);
  });

  test('not absolute ⇒ untrusted', () => {
    expect(isTrustedRedirect('/handler/x', noDomains)).toBe(false);
    expect(isTrustedRedirect('', noDomains)).toBe(false);
  });

  const config = {
    allowLocalhost: false,
    domains: [
      { domain: 'https://app.example.com', handler_path: '/handler' },
      { domain: 'https://example.org/prefix', handler_path: '/handler' },
    ],
  };

  test('same scheme and hostname; port ignored; any path under "/"', () => {
    expect(isTrustedRedirect('https://app.example.com/anything?code=1', config)).toBe(true);
    expect(isTrustedRedirect('https://app.example.com:8443/anything', config)).toBe(true);
    expect(isTrustedRedirect('https://APP.example.com/x', config)).toBe(true);
    expect(isTrustedRedirect('https://app.example.com', config)).toBe(true);
  });

  test('scheme mismatch and subdomains are untrusted', () => {
    expect(isTrustedRedirect('http://app.example.com/x', config)).toBe(false);
    expect(isTrustedRedirect('https://sub.app.example.com/x', config)).toBe(false);
    expect(isTrustedRedirect('https://example.com/x', config)).toBe(false);
  });

  test('path is a plain string prefix of the domain path', () => {
    expect(isTrustedRedirect('https://example.org/prefix', config)).toBe(true);
    expect(isTrustedRedirect('https://example.org/prefix/cb', config)).toBe(true);
    expect(isTrustedRedirect('https://example.org/prefixed', config)).toBe(true);
    expect(isTrustedRedirect('https://example.org/other/prefix', config)).toBe(false);
    expect(isTrustedRedirect('https://example.org/', config)).toBe(false);
  });

  test('handler_path plays no part; port on the domain is ignored too', () => {
    const c = { allowLocalhost: false, domains: [{ domain: 'http://shop.test:3000', handler_path: '/auth' }] };
    expect(isTrustedRedirect('http://shop.test/handler/cb', c)).toBe(true);
    expect(isTrustedRedirect('http://shop.test:9999/x', c)).toBe(true);
  });

  test('an unparsable configured domain is skipped', () => {
    const c = { allowLocalhost: false, domains: [{ domain: 'not a url' }, { domain: 'https://ok.example.com' }] };
    expect(isTrustedRedirect('https://ok.example.com/cb', c)).toBe(true);
    expect(isTrustedRedirect('https://not/cb', c)).toBe(false);
  });
});

describe('relative redirects (client rule)', () => {
  test('relative forms pass', () => {
    for (const url of ['/x', 'x', '?q=1', '#h', '', '/handler/sign-in?after_auth_return_to=%2Fa', '../up']) {
      expect(isRelativeUrl(url)).toBe(true);
      expect(() => assertRelativeRedirect(url)).not.toThrow();
    }
  });

  test('absolute, protocol-relative and other schemes fail with the exact message', () => {
    for (const url of ['https://evil.com', 'http://localhost/x', '//evil.com/x', 'javascript:alert(1)', '\\\\evil.com']) {
      expect(isRelativeUrl(url)).toBe(false);
      expect(() => assertRelativeRedirect(url)).toThrow(`Redirect URL ${url} is not trusted; should be relative.`);
    }
  });
});

describe('withQueryParam / stripCodeAndState', () => {
  test('adds code, keeping other params', () => {
    expect(withQueryParam('http://localhost:3000/cb?x=1', 'code', 'abc')).toBe('http://localhost:3000/cb?x=1&code=abc');
    expect(withQueryParam('https://a.com/cb', 'code', 'abc')).toBe('https://a.com/cb?code=abc');
  });

  test('replaces an existing code (all occurrences) and keeps the fragment', () => {
    expect(withQueryParam('https://a.com/cb?code=old&x=1&code=older#frag', 'code', 'new')).toBe(
      'https://a.com/cb?code=new&x=1#frag',
    );
  });

  test('stripCodeAndState removes only those two and reports them', () => {
    const removed: string[] = [];
    expect(stripCodeAndState('https://a.com/cb?code=1&keep=2&state=3', (k) => removed.push(k))).toBe(
      'https://a.com/cb?keep=2',
    );
    expect(removed).toEqual(['code', 'state']);
    const none: string[] = [];
    expect(stripCodeAndState('https://a.com/cb?keep=2', (k) => none.push(k))).toBe('https://a.com/cb?keep=2');
    expect(none).toEqual([]);
    expect(stripCodeAndState('https://a.com/cb?code=1')).toBe('https://a.com/cb');
  });
});
