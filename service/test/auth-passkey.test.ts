// Passkeys for real: Chromium (playwright-core) with a CDP virtual authenticator registers and signs in on pages
// served by this test, on http://localhost and on a configured domain (mapped to 127.0.0.1 and treated as secure).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import * as OTPAuth from 'otpauth';
import { chromium, type Browser } from 'playwright-core';
import { expectKnownError, sharedService, type SharedService } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { startSamlIdp } from './support/saml-idp';
import { teamWithVerifiedDomain, uniqueDomain } from './support/team-enterprise';

const DOMAIN_HOST = 'passkeys.gatehouse.test';
const PLACEHOLDER = 'THIS_VALUE_WILL_BE_REPLACED.example.com';

let svc: SharedService;
let browser: Browser;
let pageServer: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  svc = await sharedService();
  const build = await Bun.build({ entrypoints: [join(import.meta.dir, 'support/passkey-page.ts')], target: 'browser' });
  if (!build.success) throw new Error(build.logs.join('\n'));
  const pageJs = await build.outputs[0].text();
  pageServer = Bun.serve({
    port: 0, hostname: '127.0.0.1',
    fetch(req) {
      if (new URL(req.url).pathname === '/page.js') return new Response(pageJs, { headers: { 'content-type': 'text/javascript' } });
      return new Response('<!doctype html><title>passkeys</title><script type="module" src="/page.js"></script>', { headers: { 'content-type': 'text/html' } });
    },
  });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', `--host-resolver-rules=MAP ${DOMAIN_HOST} 127.0.0.1`,
      `--unsafely-treat-insecure-origin-as-secure=http://${DOMAIN_HOST}:${pageServer.port}`],
  });
}, 120_000); // the service, a bundle and Chromium start here; on a busy machine that takes a while

afterAll(async () => {
  await browser?.close();
  pageServer?.stop(true);
});

function apiHeaders(p: TestProject, accessToken?: string): Record<string, string> {
  const h: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.client.headers)) if (v !== undefined) h[k] = v;
  if (accessToken) h['x-stack-access-token'] = accessToken;
  return h;
}

/** A fresh browser context on the test page with its own virtual authenticator. */
async function openPage(host: 'localhost' | typeof DOMAIN_HOST = 'localhost') {
  const context = await browser.newContext();
  const page = await context.newPage();
  const origin = `http://${host}:${pageServer.port}`;
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => (globalThis as any).passkeyPage !== undefined);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return {
    origin,
    register: (p: TestProject, accessToken: string) => page.evaluate(([api, headers]) => (globalThis as any).passkeyPage.register(api, headers),
      [svc.url, apiHeaders(p, accessToken)] as const) as Promise<{ code: string; options: any; credential: any }>,
    authenticate: (p: TestProject) => page.evaluate(([api, headers]) => (globalThis as any).passkeyPage.authenticate(api, headers),
      [svc.url, apiHeaders(p)] as const) as Promise<{ code: string; options: any; response: any }>,
    close: () => context.close(),
  };
}

/** The same WebAuthn response with another origin written into its client data (the signature no longer matches). */
function withOrigin<T extends { response: { clientDataJSON: string } }>(r: T, origin: string): T {
  const clientData = JSON.parse(Buffer.from(r.response.clientDataJSON, 'base64url').toString('utf8'));
  const clientDataJSON = Buffer.from(JSON.stringify({ ...clientData, origin })).toString('base64url');
  return { ...r, response: { ...r.response, clientDataJSON } };
}

const passkeyProject = (config: Record<string, unknown> = {}) => newProject(svc, { displayName: 'Passkey app', config: { passkey_enabled: true, ...config } });

describe('passkeys in Chromium', () => {
  test('register on localhost, then sign in with it (twice: the counter moves on)', async () => {
    const p = await passkeyProject();
    const u = await signUp(p);
    const page = await openPage();
    try {
      const reg = await page.register(p, u.accessToken);
      expect(reg.code).toHaveLength(45);
      expect(Object.keys(reg.options).sort()).toEqual(['attestation', 'authenticatorSelection', 'challenge', 'excludeCredentials', 'extensions',
        'pubKeyCredParams', 'rp', 'timeout', 'user']);
      expect(reg.options).toMatchObject({
        rp: { name: 'Passkey app', id: PLACEHOLDER },
        user: { id: Buffer.from(u.userId).toString('base64url'), name: u.email, displayName: u.email },
        pubKeyCredParams: [{ alg: -8, type: 'public-key' }, { alg: -7, type: 'public-key' }, { alg: -257, type: 'public-key' }],
        timeout: 60000, attestation: 'none', excludeCredentials: [],
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred', requireResidentKey: true },
        extensions: { credProps: true },
      });

      const registered = await p.client.post('/auth/passkey/register', { credential: reg.credential, code: reg.code }, { accessToken: u.accessToken });
      expect(registered.status).toBe(200);
      expect(registered.body).toEqual({ user_handle: reg.credential.id });
      expect((await p.client.get('/users/me', { accessToken: u.accessToken })).body.passkey_auth_enabled).toBe(true);

      for (let i = 0; i < 2; i++) {
        const auth = await page.authenticate(p);
        expect(auth.options).toEqual({ rpId: PLACEHOLDER, challenge: expect.any(String), allowCredentials: [], timeout: 60000, userVerification: 'preferred' });
        expect(auth.response.id).toBe(reg.credential.id);
        const signedIn = await p.client.post('/auth/passkey/sign-in', { authentication_response: auth.response, code: auth.code });
        expect(signedIn.status).toBe(200);
        expect(Object.keys(signedIn.body).sort()).toEqual(['access_token', 'is_new_user', 'refresh_token', 'user_id']);
        expect(signedIn.body).toMatchObject({ is_new_user: false, user_id: u.userId });
        expect((await p.client.get('/users/me', { accessToken: signedIn.body.access_token })).body.id).toBe(u.userId);
      }
    } finally { await page.close(); }
  });

  test('a configured domain works (RP id = its hostname); other origins and disallowed localhost are refused', async () => {
    const page = await openPage(DOMAIN_HOST);
    const local = await openPage();
    try {
      const p = await passkeyProject({ allow_localhost: false, domains: [{ domain: page.origin, handler_path: '/handler' }] });
      const u = await signUp(p);
      const reg = await page.register(p, u.accessToken);
      expect((await p.client.post('/auth/passkey/register', { credential: reg.credential, code: reg.code }, { accessToken: u.accessToken })).status).toBe(200);
      const auth = await page.authenticate(p);
      const signedIn = await p.client.post('/auth/passkey/sign-in', { authentication_response: auth.response, code: auth.code });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.user_id).toBe(u.userId);

      // localhost is refused when the project does not allow it (code PASSKEY_AUTHENTICATION_FAILED for both ceremonies).
      const localReg = await local.register(p, u.accessToken);
      const refused = await p.client.post('/auth/passkey/register', { credential: localReg.credential, code: localReg.code }, { accessToken: u.accessToken });
      expectKnownError(refused, 'PASSKEY_AUTHENTICATION_FAILED', 400);
      expect(refused.body.error).toBe('Passkey registration failed because localhost is not allowed');
      expect(refused.body.details).toEqual({ message: 'Passkey registration failed because localhost is not allowed' });
      const auth2 = await page.authenticate(p);
      const localSignIn = await p.client.post('/auth/passkey/sign-in', { authentication_response: withOrigin(auth2.response, local.origin), code: auth2.code });
      expectKnownError(localSignIn, 'PASSKEY_AUTHENTICATION_FAILED', 400);
      expect(localSignIn.body.error).toBe('Passkey authentication failed because localhost is not allowed');

      // An origin that is not a configured domain.
      const auth3 = await page.authenticate(p);
      const elsewhere = await passkeyProject({ domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }] });
      const v = await signUp(elsewhere);
      const r = await page.register(elsewhere, v.accessToken);
      const wrongOrigin = await elsewhere.client.post('/auth/passkey/register', { credential: r.credential, code: r.code }, { accessToken: v.accessToken });
      expectKnownError(wrongOrigin, 'PASSKEY_AUTHENTICATION_FAILED', 400);
      expect(wrongOrigin.body.error).toBe('Passkey registration failed because the origin is not allowed');
      const evil = await p.client.post('/auth/passkey/sign-in', { authentication_response: withOrigin(auth3.response, 'https://evil.example.com'), code: auth3.code });
      expectKnownError(evil, 'PASSKEY_AUTHENTICATION_FAILED', 400);
      expect(evil.body.error).toBe('Passkey authentication failed because the origin is not allowed');
      // The refused attempts did not consume the challenge: the genuine response still signs in.
      expect((await p.client.post('/auth/passkey/sign-in', { authentication_response: auth3.response, code: auth3.code })).status).toBe(200);
    } finally { await page.close(); await local.close(); }
  });

  test('replayed codes and responses, unknown credentials, tampered signatures', async () => {
    const p = await passkeyProject();
    const other = await passkeyProject();
    const u = await signUp(p);
    const page = await openPage();
    try {
      const reg = await page.register(p, u.accessToken);
      expect((await p.client.post('/auth/passkey/register', { credential: reg.credential, code: reg.code }, { accessToken: u.accessToken })).status).toBe(200);
      const replayedReg = await p.client.post('/auth/passkey/register', { credential: reg.credential, code: reg.code }, { accessToken: u.accessToken });
      expectKnownError(replayedReg, 'VERIFICATION_CODE_ALREADY_USED', 409);

      const auth = await page.authenticate(p);
      expect((await p.client.post('/auth/passkey/sign-in', { authentication_response: auth.response, code: auth.code })).status).toBe(200);
      expectKnownError(await p.client.post('/auth/passkey/sign-in', { authentication_response: auth.response, code: auth.code }), 'VERIFICATION_CODE_ALREADY_USED', 409);

      // The old response with a fresh code: its challenge is not the fresh code's.
      const fresh = await p.client.post('/auth/passkey/initiate-passkey-authentication', {});
      const stale = await p.client.post('/auth/passkey/sign-in', { authentication_response: auth.response, code: fresh.body.code });
      expectKnownError(stale, 'PASSKEY_AUTHENTICATION_FAILED', 400);

      // Unknown credential id; a credential of another project.
      const auth2 = await page.authenticate(p);
      const unknown = await p.client.post('/auth/passkey/sign-in', { authentication_response: { ...auth2.response, id: 'AAAA', rawId: 'AAAA' }, code: auth2.code });
      expectKnownError(unknown, 'PASSKEY_AUTHENTICATION_FAILED', 400);
      expect(unknown.body.error).toBe('Passkey not found');
      const otherCode = (await other.client.post('/auth/passkey/initiate-passkey-authentication', {})).body.code;
      const elsewhere = await other.client.post('/auth/passkey/sign-in', { authentication_response: auth2.response, code: otherCode });
      expectKnownError(elsewhere, 'PASSKEY_AUTHENTICATION_FAILED', 400);
      expect(elsewhere.body.error).toBe('Passkey not found');

      // A signature that does not match the stored key.
      const sig = Buffer.from(auth2.response.response.signature, 'base64url');
      sig[sig.length - 1] ^= 1;
      const tampered = { ...auth2.response, response: { ...auth2.response.response, signature: sig.toString('base64url') } };
      const bad = await p.client.post('/auth/passkey/sign-in', { authentication_response: tampered, code: auth2.code });
      expectKnownError(bad, 'PASSKEY_AUTHENTICATION_FAILED', 400);
      expect(bad.body.error).toBe('The signature of the authentication response could not be verified with the stored public key tied to this credential ID');
      expect((await p.client.post('/auth/passkey/sign-in', { authentication_response: auth2.response, code: auth2.code })).status).toBe(200);
    } finally { await page.close(); }
  });

  test('registering again replaces the passkey; a challenge registers only for its own user', async () => {
    const p = await passkeyProject();
    const u = await signUp(p);
    const intruder = await signUp(p);
    const page = await openPage();
    const page2 = await openPage();
    try {
      const first = await page.register(p, u.accessToken);
      expect((await p.client.post('/auth/passkey/register', { credential: first.credential, code: first.code }, { accessToken: u.accessToken })).status).toBe(200);
      const oldAuth = await page.authenticate(p); // signed by the first passkey, submitted after it is replaced

      const second = await page2.register(p, u.accessToken);
      const stolen = await p.client.post('/auth/passkey/register', { credential: second.credential, code: second.code }, { accessToken: intruder.accessToken });
      expectKnownError(stolen, 'VERIFICATION_CODE_NOT_FOUND', 404);
      expect((await p.client.post('/auth/passkey/register', { credential: second.credential, code: second.code }, { accessToken: u.accessToken })).status).toBe(200);

      const old = await p.client.post('/auth/passkey/sign-in', { authentication_response: oldAuth.response, code: oldAuth.code });
      expectKnownError(old, 'PASSKEY_AUTHENTICATION_FAILED', 400);
      expect(old.body.error).toBe('Passkey not found');
      const auth = await page2.authenticate(p);
      const ok = await p.client.post('/auth/passkey/sign-in', { authentication_response: auth.response, code: auth.code });
      expect(ok.body.user_id).toBe(u.userId);
    } finally { await page.close(); await page2.close(); }
  });

  test('passkey sign-in of a user with TOTP MFA asks for the second factor', async () => {
    const p = await passkeyProject();
    const u = await signUp(p);
    const page = await openPage();
    try {
      const reg = await page.register(p, u.accessToken);
      await p.client.post('/auth/passkey/register', { credential: reg.credential, code: reg.code }, { accessToken: u.accessToken });
      const secret = new OTPAuth.Secret({ size: 20 });
      await p.client.patch('/users/me', { totp_secret_base64: Buffer.from(secret.bytes).toString('base64') }, { accessToken: u.accessToken });
      const auth = await page.authenticate(p);
      const res = await p.client.post('/auth/passkey/sign-in', { authentication_response: auth.response, code: auth.code });
      expectKnownError(res, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400);
      const totp = new OTPAuth.TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate();
      const ok = await p.client.post('/auth/mfa/sign-in', { type: 'totp', code: res.body.details.attempt_code, totp });
      expect(ok.body).toMatchObject({ is_new_user: false, user_id: u.userId });
    } finally { await page.close(); }
  });
});

describe('passkeys and a domain that requires SSO', () => {
  test("a user whose primary email is at the domain is sent to SSO; lifted, the passkey signs in again", async () => {
    const p = await passkeyProject();
    const domain = uniqueDomain('passkey-sso');
    const person = await signUp(p, { email: `person@${domain}` });
    const idp = await startSamlIdp('passkey-sso-idp');
    const page = await openPage();
    try {
      const reg = await page.register(p, person.accessToken);
      expect((await p.client.post('/auth/passkey/register', { credential: reg.credential, code: reg.code }, { accessToken: person.accessToken })).status).toBe(200);
      const { teamId, domainId } = await teamWithVerifiedDomain(p, svc.dns, domain);
      expect((await p.server.post(`/teams/${teamId}/sso-connections`, { type: 'saml', display_name: 'Corp IdP', idp_metadata_xml: idp.metadataXml })).status).toBe(201);
      expect((await p.server.patch(`/teams/${teamId}/domains/${domainId}`, { sso_required: true })).body.sso_required).toBe(true);

      const auth = await page.authenticate(p);
      const res = await p.client.post('/auth/passkey/sign-in', { authentication_response: auth.response, code: auth.code });
      expectKnownError(res, 'SSO_REQUIRED', 403);
      expect(res.body.error).toBe(`Your organization requires single sign-on for ${person.email}. Continue with SSO.`);

      await p.server.patch(`/teams/${teamId}/domains/${domainId}`, { sso_required: false });
      const again = await page.authenticate(p);
      const signedIn = await p.client.post('/auth/passkey/sign-in', { authentication_response: again.response, code: again.code });
      expect(signedIn.body).toMatchObject({ is_new_user: false, user_id: person.userId });
    } finally { await page.close(); idp.close(); }
  });
});

describe('passkey endpoints without a browser', () => {
  test('passkey_enabled is honoured by all four endpoints', async () => {
    const p = await newProject(svc);
    const u = await signUp(p);
    const opts = { accessToken: u.accessToken };
    for (const [path, body] of [
      ['/auth/passkey/initiate-passkey-registration', {}],
      ['/auth/passkey/register', { credential: {}, code: 'x' }],
      ['/auth/passkey/initiate-passkey-authentication', {}],
      ['/auth/passkey/sign-in', { authentication_response: {}, code: 'x' }],
    ] as const) {
      const res = await p.client.post(path, body, opts);
      expectKnownError(res, 'PASSKEY_AUTHENTICATION_NOT_ENABLED', 400);
      expect(res.body.error).toBe('Passkey authentication is not enabled for this project.');
    }
  });

  test('registration needs a signed-in user; malformed credentials fail cleanly', async () => {
    const p = await passkeyProject();
    const u = await signUp(p);
    for (const path of ['/auth/passkey/initiate-passkey-registration', '/auth/passkey/register']) {
      const res = await p.client.post(path, path.endsWith('register') ? { credential: {}, code: 'x' } : {});
      expectKnownError(res, 'SCHEMA_ERROR', 400);
      expect(res.body.error).toContain('auth.user must be defined');
    }
    expectKnownError(await p.client.post('/auth/passkey/register', { credential: {}, code: 'x' }, { accessToken: u.accessToken }), 'VERIFICATION_CODE_NOT_FOUND', 404);

    const init = await p.client.post('/auth/passkey/initiate-passkey-registration', {}, { accessToken: u.accessToken });
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.create', origin: 'http://localhost:3000', challenge: init.body.options_json.challenge })).toString('base64url');
    for (const credential of [{}, { id: 'x', response: { clientDataJSON: 'not json' } }, { id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON, attestationObject: 'AAAA' } }]) {
      const res = await p.client.post('/auth/passkey/register', { credential, code: init.body.code }, { accessToken: u.accessToken });
      expectKnownError(res, 'PASSKEY_REGISTRATION_FAILED', 400);
      expect(res.body.details.message).toBe(res.body.error);
    }
    expectKnownError(await p.client.post('/auth/passkey/register', { credential: 'nope', code: init.body.code }, { accessToken: u.accessToken }), 'SCHEMA_ERROR', 400);

    const auth = await p.client.post('/auth/passkey/initiate-passkey-authentication', {});
    expect(auth.status).toBe(200);
    for (const authentication_response of [{}, { id: 42 }, { id: 'x', response: null }]) {
      const res = await p.client.post('/auth/passkey/sign-in', { authentication_response, code: auth.body.code });
      expectKnownError(res, 'PASSKEY_AUTHENTICATION_FAILED', 400);
    }
  });
});
