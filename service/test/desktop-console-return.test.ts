// Issue 26: the desktop console's owners sign in by OAuth or a mailed magic link in the system browser, which comes
// back to the app through a loopback listener (RFC 8252 §7.3). The internal project trusts that return address, on
// any port and in production mode too; no other project does, and nothing else on the loopback is trusted by it.
import { describe, expect, test } from 'bun:test';
import { DESKTOP_CONSOLE_RETURN_PATH, isNativeLoopbackRedirect, isTrustedRedirect } from '@gatehouse/shared/rules/urls';
import { redirectTrust } from '../src/projects/config-validation';

const production = (id: string) => ({ id, isProductionMode: true, config: { allow_localhost: true, domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }] } });
const trusted = (id: string, url: string) => isTrustedRedirect(url, redirectTrust(production(id)));

describe('the desktop console\'s loopback return', () => {
  test('the internal project in production mode trusts it on any port, on 127.0.0.1 and [::1]', () => {
    for (const url of [
      'http://127.0.0.1:53127/gatehouse-console/oauth?connection=c1',
      'http://127.0.0.1:1/gatehouse-console/magic-link?connection=c1',
      'http://[::1]:40000/gatehouse-console/oauth',
    ]) expect(trusted('internal', url)).toBe(true);
  });

  test('not another path, scheme, host name or credentials; not localhost in production', () => {
    for (const url of [
      'http://127.0.0.1:53127/other',
      'http://127.0.0.1:53127/gatehouse-consolex/oauth',
      'https://127.0.0.1:53127/gatehouse-console/oauth',
      'http://localhost:53127/gatehouse-console/oauth',
      'http://127.0.0.2:53127/gatehouse-console/oauth',
      'http://evil@127.0.0.1:53127/gatehouse-console/oauth',
      'http://127.0.0.1.evil.example/gatehouse-console/oauth',
      'gatehouse-console://oauth',
    ]) expect({ url, trusted: trusted('internal', url) }).toEqual({ url, trusted: false });
    // The configured domain still counts.
    expect(trusted('internal', 'https://app.example.com/x')).toBe(true);
  });

  test('another project does not trust it', () => {
    expect(trusted('a-project', 'http://127.0.0.1:53127/gatehouse-console/oauth')).toBe(false);
    expect(isNativeLoopbackRedirect('http://127.0.0.1:53127/gatehouse-console/oauth', DESKTOP_CONSOLE_RETURN_PATH)).toBe(true);
  });
});
