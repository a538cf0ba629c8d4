// Issue 17 §7 (ASVS 5.1.1, 14.4.3-5): repeated query parameters are refused, and every API response carries
// nosniff and no-referrer (and HSTS when the public URL is https). The after-callback URL check is in oauth.test.ts
// and the client library's own check in shared/test/client/oauth-after-callback.test.ts.
import { expect, test } from 'bun:test';
import { Api, DEV_KEYS, expectKnownError } from './support/service';
import { signUp } from './support/projects';
import { setupSuite } from './support/suite';
import { baseHeaders, setStrictTransportSecurity } from '../src/http/respond';

const { p } = await setupSuite();

test('a repeated query parameter is a SCHEMA_ERROR, not "the last one wins"', async () => {
  const victim = await signUp(p);
  const attacker = await signUp(p);
  const res = await p.client.get(`/contact-channels?user_id=${victim.userId}&user_id=me`, { accessToken: attacker.accessToken });
  expectKnownError(res, 'SCHEMA_ERROR', 400);
  expect(res.body.error).toContain('query.user_id must be given at most once');
  expect((await p.client.get('/contact-channels?user_id=me', { accessToken: attacker.accessToken })).status).toBe(200);
  expectKnownError(await p.server.get('/users?limit=1&limit=1000'), 'SCHEMA_ERROR', 400);
});

test('responses carry X-Content-Type-Options: nosniff and Referrer-Policy: no-referrer; no HSTS on http', async () => {
  for (const res of [await p.client.get('/projects/current'), await p.client.get('/users/me'), await p.client.get('/no-such-route')]) {
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  }
});

test('HSTS when the public URL is https', () => {
  setStrictTransportSecurity('https://auth.example.com');
  expect(baseHeaders('r')['strict-transport-security']).toBe('max-age=31536000');
  setStrictTransportSecurity('http://localhost:8102');
  expect(baseHeaders('r')['strict-transport-security']).toBeUndefined();
});

// Issue 17 §3 (ASVS 4.1.3): an anonymous user of the internal project could create a project and mint its keys.
test('anonymous users cannot create projects', async () => {
  const internal = new Api(p.url, { 'x-stack-project-id': DEV_KEYS.projectId, 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': DEV_KEYS.publishableClientKey });
  const anon = await internal.post('/auth/anonymous/sign-up', {});
  expect(anon.status).toBe(200);
  const res = await internal.post('/internal/projects', { display_name: 'Mine now' }, { accessToken: anon.body.access_token });
  expect({ status: res.status, text: res.text }).toEqual({ status: 403, text: 'Anonymous users cannot create projects. Sign up with an email first.' });
  expect((await internal.get('/internal/projects', { accessToken: anon.body.access_token })).body.items).toEqual([]);
});
