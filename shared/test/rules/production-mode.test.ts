import { describe, expect, test } from 'bun:test';
import { getProductionModeErrors } from '../../src/rules/production-mode';

const project = (allow_localhost: boolean, domains: string[]) => ({
  id: 'p-1',
  config: { allow_localhost, domains: domains.map((domain) => ({ domain, handler_path: '/handler' })) },
});
const messages = (p: ReturnType<typeof project>) => getProductionModeErrors(p).map((e) => e.message);

describe('getProductionModeErrors (protocol-resources §10.7)', () => {
  test('clean project has no errors', () => {
    expect(getProductionModeErrors(project(false, []))).toEqual([]);
    expect(getProductionModeErrors(project(false, ['https://app.example.com', 'https://example.com/x']))).toEqual([]);
  });

  test('allow_localhost is flagged, with the domains fix URL', () => {
    expect(getProductionModeErrors(project(true, []))).toEqual([
      {
        message: "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
        relativeFixUrl: '/projects/p-1/domains',
        problem: 'localhost-allowed',
      },
    ]);
  });

  test('each kind of bad domain, one error per domain, in order', () => {
    expect(
      messages(
        project(true, [
          'not a url',
          'http://localhost:3000',
          'https://my-app.localhost',
          'https://127.0.0.1',
          'https://192.168.1.1',
          'http://10.0.0.1:8080',
          'http://app.example.com',
          'https://fine.example.com',
        ]),
      ),
    ).toEqual([
      "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
      'Trusted domain is not a valid URL: not a url',
      'Localhost domains are not allowed to be trusted in production mode: http://localhost:3000',
      'Localhost domains are not allowed to be trusted in production mode: https://my-app.localhost',
      'Localhost domains are not allowed to be trusted in production mode: https://127.0.0.1',
      'Direct IPs are not valid for trusted domains in production mode: https://192.168.1.1',
      'Direct IPs are not valid for trusted domains in production mode: http://10.0.0.1:8080',
      'Trusted domains should be HTTPS: http://app.example.com',
    ]);
  });

  test('each error names its rule and domain, so a UI can word it in its own language', () => {
    const errors = getProductionModeErrors(project(false, ['not a url', 'http://localhost', 'https://10.0.0.1', 'http://app.example.com']));
    expect(errors.map(({ problem, domain }) => [problem, domain])).toEqual([
      ['invalid-domain', 'not a url'],
      ['localhost-domain', 'http://localhost'],
      ['ip-domain', 'https://10.0.0.1'],
      ['not-https', 'http://app.example.com'],
    ]);
  });

  test('every error carries the project-specific fix URL', () => {
    const errors = getProductionModeErrors({ id: 'abc', config: { allow_localhost: true, domains: [{ domain: 'x' }] } });
    expect(errors).toHaveLength(2);
    for (const e of errors) expect(e.relativeFixUrl).toBe('/projects/abc/domains');
  });

  test('hostnames with digits but also letters are not IPs', () => {
    expect(messages(project(false, ['https://1password.com', 'https://123.example.com']))).toEqual([]);
  });
});
