// The OAuth inner cookie (issue 17 §7, ASVS 3.4.4): served over https it is `__Host-stack-oauth-inner-<state>`
// (Secure, Path=/, no Domain), and the callback accepts only that name; over http (development on localhost) it keeps
// the protocol's plain name, which browsers would otherwise drop. The service runs with an https public URL (its
// links point there) and is reached directly over http, as behind a TLS-terminating proxy.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { createHash, randomBytes } from 'node:crypto';
import { DEV_CLIENT_SECRET, devClientId } from '../src/oauth/endpoints';
import { completeProviderLogin, startOidcFixture, type OidcFixture } from './support/oidc';
import { startService, type RunningService } from './support/service';
import { newProject, type TestProject } from './support/projects';

setDefaultTimeout(120_000);
const PUBLIC_URL = 'https://auth.gatehouse.test';
const REDIRECT = 'http://localhost:12345/cookie-callback';
let idp: OidcFixture;
let svc: RunningService;
let p: TestProject;

beforeAll(async () => {
  idp = await startOidcFixture();
  svc = await startService({ env: { ...idp.overridesEnv(), GATEHOUSE_PUBLIC_URL: PUBLIC_URL }, startTimeoutMs: 180_000 });
  // The provider sends the browser back to the public URL.
  idp.addClient({ client_id: devClientId('github'), client_secret: DEV_CLIENT_SECRET, redirect_uris: [`${PUBLIC_URL}/api/v1/auth/oauth/callback/github`] });
  p = await newProject(svc, { config: { oauth_providers: [{ id: 'github', type: 'standard', enabled: true, client_id: devClientId('github'), client_secret: DEV_CLIENT_SECRET }] } });
}, 240_000);
afterAll(async () => {
  await svc?.stop();
  await idp?.close();
});

async function authorize() {
  const verifier = randomBytes(32).toString('base64url');
  const q = new URLSearchParams({
    client_id: p.id, client_secret: p.keys.publishableClientKey, redirect_uri: REDIRECT, scope: 'legacy', state: 'st',
    grant_type: 'authorization_code', code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256', response_type: 'code',
  });
  const res = await fetch(`${svc.url}/api/v1/auth/oauth/authorize/github?${q}`, { redirect: 'manual' });
  expect(res.status).toBe(307);
  return { setCookie: res.headers.get('set-cookie') ?? '', location: res.headers.get('location')! };
}

/** The provider's redirect to the public URL, sent to the running service instead. */
async function callback(providerRedirect: string, cookie: string) {
  const url = new URL(providerRedirect);
  expect(url.origin).toBe(PUBLIC_URL);
  return fetch(`${svc.url}${url.pathname}${url.search}`, { headers: { cookie }, redirect: 'manual' });
}

test('over https the inner cookie is __Host- prefixed, Secure, Path=/, without Domain; the callback takes it', async () => {
  const a = await authorize();
  expect(a.setCookie).toMatch(/^__Host-stack-oauth-inner-[\w-]+=true; Path=\/; Expires=[^;]+; Max-Age=\d+; HttpOnly; Secure; SameSite=Lax$/);
  expect(a.setCookie).not.toMatch(/domain=/i);
  const cookie = a.setCookie.split(';')[0]!;
  const cb = await callback(await completeProviderLogin(a.location, { login: `host-${randomBytes(4).toString('hex')}` }), cookie);
  expect(cb.status).toBe(307);
  expect(new URL(cb.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  // The cookie is expired under the same name.
  expect(cb.headers.get('set-cookie')).toStartWith(`${cookie.split('=')[0]}=; Path=/;`);
});

test('over https the unprefixed name (which a sibling subdomain or an http page could set) is not accepted', async () => {
  const a = await authorize();
  const plain = a.setCookie.split(';')[0]!.replace(/^__Host-/, '');
  const cb = await callback(await completeProviderLogin(a.location, { login: `plain-${randomBytes(4).toString('hex')}` }), plain);
  expect(cb.status).toBe(400);
  expect(await cb.text()).toBe('Inner OAuth cookie not found. This is likely because you refreshed the page during the OAuth sign in process. Please try signing in again');
});
