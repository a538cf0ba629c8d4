// Lifetimes running out, over HTTP, on a service started with very short ones (GATEHOUSE_OAUTH_FLOW_LIFETIME_SECONDS,
// GATEHOUSE_EMAIL_CODE_LIFETIME_SECONDS): a late OAuth callback is OUTER_OAUTH_TIMEOUT (protocol-auth §3.6.2 step 1),
// an emailed code used late is VERIFICATION_CODE_EXPIRED (§4.3) in every email flow.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { createHash, randomBytes } from 'node:crypto';
import { DEV_CLIENT_SECRET, devClientId } from '../src/oauth/endpoints.ts';
import { completeProviderLogin, startOidcFixture, type OidcFixture } from './support/oidc.ts';
import { expectKnownError, startService, uniqueEmail, type RunningService } from './support/service.ts';
import { newProject, signUp, type TestProject } from './support/projects.ts';
import { extractCode, startSmtpFixture, type SmtpFixture } from './support/smtp.ts';
import { isolatedDatabase } from './support/isolated-database.ts';
import { loadConfig } from '../src/config.ts';

setDefaultTimeout(60_000);

const LIFETIME_SECONDS = 1;
const CALLBACK = 'http://localhost:12345/handler';
const ERROR_PAGE = 'http://localhost:12345/oauth-error';
const TIMEOUT_MESSAGE = 'The OAuth flow has timed out. Please sign in again.';

let idp: OidcFixture;
let smtp: SmtpFixture;
let svc: RunningService;
let db: Awaited<ReturnType<typeof isolatedDatabase>> | undefined;

beforeAll(async () => {
  idp = await startOidcFixture();
  smtp = await startSmtpFixture();
  // On PostgreSQL a database of its own, so no other instance's outbox worker takes this service's mail.
  db = await isolatedDatabase();
  svc = await startService({ env: {
    ...idp.overridesEnv(), SMTP_URL: smtp.url,
    GATEHOUSE_OAUTH_FLOW_LIFETIME_SECONDS: String(LIFETIME_SECONDS), GATEHOUSE_EMAIL_CODE_LIFETIME_SECONDS: String(LIFETIME_SECONDS),
    ...(db.url ? { DATABASE_URL: db.url } : {}),
  } });
  idp.addDevClients(svc.url);
}, 120_000);

afterAll(async () => {
  await svc?.stop();
  await idp?.close();
  await smtp?.stop();
  await db?.drop();
}, 30_000);

/** Waits until `since` + the lifetime + a margin (so whatever was created at `since` has expired). */
const outlive = (since: number) => Bun.sleep(Math.max(0, since + LIFETIME_SECONDS * 1000 + 500 - Date.now()));

describe('OAuth: a callback after the outer flow expired', () => {
  const project = () => newProject(svc, {
    config: { oauth_providers: [{ id: 'github', type: 'standard', enabled: true, client_id: devClientId('github'), client_secret: DEV_CLIENT_SECRET }] },
  });

  /** authorize → provider login, then wait past the flow's lifetime; returns the provider's callback, not yet requested. */
  async function lateCallback(p: TestProject, extra: Record<string, string> = {}) {
    const verifier = randomBytes(32).toString('base64url');
    const q = new URLSearchParams({
      client_id: p.id, client_secret: p.keys.publishableClientKey, redirect_uri: 'http://localhost:12345/cb', scope: 'legacy',
      state: randomBytes(8).toString('base64url'), grant_type: 'authorization_code',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', response_type: 'code', ...extra,
    });
    const started = Date.now();
    const res = await fetch(`${svc.url}/api/v1/auth/oauth/authorize/github?${q}`, { redirect: 'manual' });
    expect(res.status).toBe(307);
    const setCookie = res.headers.get('set-cookie')!;
    // The browser-binding cookie lives as long as the flow.
    expect(setCookie).toContain(`; Max-Age=${LIFETIME_SECONDS}; HttpOnly`);
    const providerCallback = await completeProviderLogin(res.headers.get('location')!, { login: `late-${randomBytes(4).toString('hex')}` });
    await outlive(started);
    // The test sends the cookie itself (a browser would have dropped it by now, which is COOKIE_NOT_FOUND instead).
    const cb = await fetch(providerCallback, { headers: { cookie: setCookie.split(';')[0] }, redirect: 'manual' });
    return { providerCallback, cookie: setCookie.split(';')[0], status: cb.status, headers: cb.headers, text: await cb.text() };
  }

  test('OUTER_OAUTH_TIMEOUT (408); no user is created; the flow is gone', async () => {
    const p = await project();
    const cb = await lateCallback(p);
    expect(cb.status).toBe(408);
    expect(cb.headers.get('x-stack-known-error')).toBe('OUTER_OAUTH_TIMEOUT');
    expect(JSON.parse(cb.text)).toEqual({ code: 'OUTER_OAUTH_TIMEOUT', error: TIMEOUT_MESSAGE });
    expect(cb.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await p.server.get('/users')).body.items).toEqual([]);
    const again = await fetch(cb.providerCallback, { headers: { cookie: cb.cookie }, redirect: 'manual' });
    expect({ status: again.status, text: await again.text() }).toEqual({ status: 400, text: 'Invalid OAuth cookie. Please try signing in again.' });
  });

  test('with a trusted error page, the browser is sent there with the error', async () => {
    const p = await project();
    const cb = await lateCallback(p, { error_redirect_url: ERROR_PAGE });
    expect(cb.status).toBe(307);
    const url = new URL(cb.headers.get('location')!);
    expect(`${url.origin}${url.pathname}`).toBe(ERROR_PAGE);
    expect(Object.fromEntries(url.searchParams)).toEqual({ errorCode: 'OUTER_OAUTH_TIMEOUT', message: TIMEOUT_MESSAGE, details: '{}' });
    expect((await p.server.get('/users')).body.items).toEqual([]);
  });
});

describe('emailed codes used after their lifetime: VERIFICATION_CODE_EXPIRED', () => {
  const expectExpired = (res: Parameters<typeof expectKnownError>[0]) => {
    expectKnownError(res, 'VERIFICATION_CODE_EXPIRED', 400);
    expect(res.body.error).toBe('The verification code has expired.');
  };
  const codeFor = async (email: string, since: number, subject: RegExp) =>
    extractCode(await smtp.waitForMail((m) => m.to.includes(email) && m.receivedAt >= since && subject.test(m.subject)))!;

  test('password reset: check-code and reset refuse it; the password is unchanged', async () => {
    const p = await newProject(svc);
    const u = await signUp(p);
    const sent = Date.now();
    expect((await p.client.post('/auth/password/send-reset-code', { email: u.email, callback_url: CALLBACK })).status).toBe(200);
    const code = await codeFor(u.email, sent, /^Reset your password/);
    await outlive(sent);
    expectExpired(await p.client.post('/auth/password/reset/check-code', { code }));
    expectExpired(await p.client.post('/auth/password/reset', { code, password: 'a-new-password-1' }));
    expect((await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password })).status).toBe(200);
    // An unknown code is still NOT_FOUND (expiry is checked after it).
    expectKnownError(await p.client.post('/auth/password/reset/check-code', { code: 'x'.repeat(45) }), 'VERIFICATION_CODE_NOT_FOUND', 404);
  });

  test('magic link / OTP sign-in: no user is created', async () => {
    const p = await newProject(svc, { config: { magic_link_enabled: true } });
    const email = uniqueEmail('late-otp');
    const sent = Date.now();
    expect((await p.client.post('/auth/otp/send-sign-in-code', { email, callback_url: CALLBACK })).status).toBe(200);
    const code = await codeFor(email, sent, /./);
    await outlive(sent);
    expectExpired(await p.client.post('/auth/otp/sign-in/check-code', { code }));
    expectExpired(await p.client.post('/auth/otp/sign-in', { code }));
    expect((await p.server.get('/users')).body.items).toEqual([]);
  });

  test('email verification: the channel stays unverified', async () => {
    const p = await newProject(svc);
    const u = await signUp(p);
    const [channel] = (await p.client.get('/contact-channels?user_id=me', { accessToken: u.accessToken })).body.items;
    const sent = Date.now();
    const res = await p.client.post(`/contact-channels/me/${channel.id}/send-verification-code`, { callback_url: CALLBACK }, { accessToken: u.accessToken });
    expect(res.status).toBe(200);
    const code = await codeFor(u.email, sent, /./);
    await outlive(sent);
    expectExpired(await p.client.post('/contact-channels/verify/check-code', { code }));
    expectExpired(await p.client.post('/contact-channels/verify', { code }));
    expect((await p.client.get('/users/me', { accessToken: u.accessToken })).body.primary_email_verified).toBe(false);
  });
});

test('the lifetime settings: defaults, overrides, and bad values stop the start', () => {
  expect(loadConfig({})).toMatchObject({ oauthFlowLifetimeSeconds: 600, emailCodeLifetimeSeconds: undefined });
  expect(loadConfig({ GATEHOUSE_OAUTH_FLOW_LIFETIME_SECONDS: '120', GATEHOUSE_EMAIL_CODE_LIFETIME_SECONDS: '900' }))
    .toMatchObject({ oauthFlowLifetimeSeconds: 120, emailCodeLifetimeSeconds: 900 });
  for (const bad of ['0', '-5', '1.5', 'ten']) {
    expect(() => loadConfig({ GATEHOUSE_EMAIL_CODE_LIFETIME_SECONDS: bad })).toThrow(/GATEHOUSE_EMAIL_CODE_LIFETIME_SECONDS/);
    expect(() => loadConfig({ GATEHOUSE_OAUTH_FLOW_LIFETIME_SECONDS: bad })).toThrow(/GATEHOUSE_OAUTH_FLOW_LIFETIME_SECONDS/);
  }
});

test('no request ended in an unexpected error', () => {
  expect(svc.output()).not.toContain(' failed:');
});
