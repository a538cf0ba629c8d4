// OTP / magic-link sign-in over HTTP (protocol-auth §3.2, §4), reading codes from mail received by a real SMTP
// server; plus delivery when SMTP is down at request time.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { sharedService, startService, expectKnownError, uniqueEmail, clientApi, type SharedService } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { extractCode, extractOtp, startSmtpFixture } from './support/smtp';
import { isolatedDatabase } from './support/isolated-database';
import { openTestDatabase } from './support/pglite-template';
import * as projectsRepo from '../src/repo/projects';
import { defaultProjectConfig } from '@gatehouse/shared/schemas/projects';
import { createCode, redeemCode } from '../src/repo/verification-codes';

setDefaultTimeout(60_000);
beforeAll(async () => { await sharedService(); }, 120_000);

const CALLBACK = 'http://localhost:12345/some-callback-url';

async function otpProject(svc: SharedService, config: Record<string, unknown> = {}) {
  return newProject(svc, { config: { magic_link_enabled: true, ...config } });
}

/** Requests a code and returns the nonce and the mail (OTP, full code). */
async function sendCode(svc: SharedService, p: TestProject, email: string, headers: Record<string, string> = {}) {
  const res = await p.client.post('/auth/otp/send-sign-in-code', { email, callback_url: CALLBACK }, { headers });
  expect(res.status).toBe(200);
  expect(Object.keys(res.body)).toEqual(['nonce']);
  expect(res.body.nonce).toHaveLength(39);
  const mail = await svc.mailbox.waitForMail((m) => m.to.includes(email) && m.text.includes(res.body.nonce));
  return { nonce: res.body.nonce as string, mail, otp: extractOtp(mail), code: extractCode(mail)! };
}

describe('POST /auth/otp/send-sign-in-code + /auth/otp/sign-in', () => {
  test('a new user signs in with OTP + nonce; the mail carries the OTP (subject and own line) and the link', async () => {
    const svc = await sharedService();
    const p = await otpProject(svc);
    const email = uniqueEmail('otp');
    const { nonce, mail, otp, code } = await sendCode(svc, p, email);
    expect(otp).toMatch(/^[0-9A-HJKMNP-TV-Z]{6}$/);
    expect(mail.subject).toBe(`Sign in to Test project: Your code is ${otp}`);
    expect(code).toBe(otp!.toLowerCase() + nonce);
    expect(new URL(extractCodeLinkOf(mail.text)).origin + new URL(extractCodeLinkOf(mail.text)).pathname).toBe(CALLBACK);

    const res = await p.client.post('/auth/otp/sign-in', { code: otp + nonce });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'is_new_user', 'refresh_token', 'user_id']);
    expect(res.body.is_new_user).toBe(true);
    const me = await p.client.get('/users/me', { accessToken: res.body.access_token });
    expect(me.body).toMatchObject({ id: res.body.user_id, primary_email: email, primary_email_verified: true, otp_auth_enabled: true, has_password: false, auth_with_email: true });
  });

  test('the magic link code (45 lowercase chars) signs in; check-code does not consume; reuse is ALREADY_USED', async () => {
    const svc = await sharedService();
    const p = await otpProject(svc);
    const email = uniqueEmail('link');
    const { code } = await sendCode(svc, p, email);
    const check = await p.client.post('/auth/otp/sign-in/check-code', { code });
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ is_code_valid: true });
    const first = await p.server.post('/auth/otp/sign-in', { code });
    expect(first.status).toBe(200);
    expectKnownError(await p.client.post('/auth/otp/sign-in', { code }), 'VERIFICATION_CODE_ALREADY_USED', 409);
    expectKnownError(await p.client.post('/auth/otp/sign-in/check-code', { code }), 'VERIFICATION_CODE_ALREADY_USED', 409);
  });

  test('an existing user with a verified auth email signs in (is_new_user false) and gets OTP enabled', async () => {
    const svc = await sharedService();
    const p = await otpProject(svc);
    const u = await signUp(p);
    await p.server.patch(`/users/${u.userId}`, { primary_email_verified: true });
    const before = await p.server.get(`/users/${u.userId}`);
    expect(before.body.otp_auth_enabled).toBe(false);
    const { nonce, otp } = await sendCode(svc, p, u.email);
    const res = await p.client.post('/auth/otp/sign-in', { code: otp!.toLowerCase() + nonce });
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(u.userId);
    expect(res.body.is_new_user).toBe(false);
    expect((await p.server.get(`/users/${u.userId}`)).body.otp_auth_enabled).toBe(true);
  });

  // Issue 30 §4: sending answered 409 for an address with an unverified account, telling anyone that it has one. It
  // answers as for any address; the protocol's USER_EMAIL_ALREADY_EXISTS comes when the mailed code is redeemed, to
  // someone who has shown they read that mailbox (the account itself is left as it was: its password may be another's).
  test('an unverified auth email is answered as any address; its code then gives USER_EMAIL_ALREADY_EXISTS; a non-auth channel gets a new account', async () => {
    const svc = await sharedService();
    const p = await otpProject(svc);
    const u = await signUp(p);
    const before = (await p.server.get(`/users/${u.userId}`)).body;
    const unverified = await sendCode(svc, p, u.email);
    const redeemed = await p.client.post('/auth/otp/sign-in', { code: unverified.code });
    expectKnownError(redeemed, 'USER_EMAIL_ALREADY_EXISTS', 409);
    expect(redeemed.body.details).toEqual({ email: u.email });
    expect((await p.server.get(`/users/${u.userId}`)).body).toEqual(before);
    expect((await p.server.get(`/users?query=${encodeURIComponent(u.email)}`)).body.items.map((i: { id: string }) => i.id)).toEqual([u.userId]);
    // With sign-up off, the address is answered as an unknown one is.
    expect((await p.admin.patch('/projects/current', { config: { sign_up_enabled: false } })).status).toBe(200);
    expectKnownError(await p.client.post('/auth/otp/send-sign-in-code', { email: u.email, callback_url: CALLBACK }), 'SIGN_UP_NOT_ENABLED', 400);
    expectKnownError(await p.client.post('/auth/otp/send-sign-in-code', { email: uniqueEmail('unknown'), callback_url: CALLBACK }), 'SIGN_UP_NOT_ENABLED', 400);
    expect((await p.admin.patch('/projects/current', { config: { sign_up_enabled: true } })).status).toBe(200);

    const other = uniqueEmail('nonauth');
    const ch = await p.server.post('/contact-channels', { user_id: u.userId, type: 'email', value: other, used_for_auth: false, is_verified: true });
    expect(ch.status).toBe(201);
    const { code } = await sendCode(svc, p, other);
    const signIn = await p.client.post('/auth/otp/sign-in', { code });
    expect(signIn.status).toBe(200);
    expect(signIn.body.is_new_user).toBe(true);
    expect(signIn.body.user_id).not.toBe(u.userId);
  });

  test('magic link disabled: plain-text 403; sign-up disabled: SIGN_UP_NOT_ENABLED for new emails only', async () => {
    const svc = await sharedService();
    const off = await newProject(svc);
    const res = await off.client.post('/auth/otp/send-sign-in-code', { email: uniqueEmail(), callback_url: CALLBACK });
    expect(res.status).toBe(403);
    expect(res.text).toBe('Magic link is not enabled for this project');

    const p = await otpProject(svc);
    const u = await signUp(p);
    await p.server.patch(`/users/${u.userId}`, { primary_email_verified: true });
    const patched = await p.admin.patch('/projects/current', { config: { sign_up_enabled: false } });
    expect(patched.status).toBe(200);
    expectKnownError(await p.client.post('/auth/otp/send-sign-in-code', { email: uniqueEmail(), callback_url: CALLBACK }), 'SIGN_UP_NOT_ENABLED', 400);
    const { code } = await sendCode(svc, p, u.email);
    expect((await p.client.post('/auth/otp/sign-in', { code })).status).toBe(200);
  });

  test('callback URLs must be trusted: localhost (when allowed) or a configured domain', async () => {
    const svc = await sharedService();
    const p = await otpProject(svc, { allow_localhost: false, domains: [{ domain: 'https://app.example.com/auth', handler_path: '/handler' }] });
    const email = uniqueEmail('trust');
    for (const url of ['http://evil-website.example.com', CALLBACK, 'http://app.example.com/auth/cb', 'https://app.example.com/other']) {
      expectKnownError(await p.client.post('/auth/otp/send-sign-in-code', { email, callback_url: url }), 'REDIRECT_URL_NOT_WHITELISTED', 400);
    }
    const ok = await p.client.post('/auth/otp/send-sign-in-code', { email, callback_url: 'https://app.example.com:8443/auth/cb?x=1&code=old' });
    expect(ok.status).toBe(200);
    const mail = await svc.mailbox.waitForMail((m) => m.to.includes(email));
    const link = new URL(extractCodeLinkOf(mail.text));
    expect(link.searchParams.get('x')).toBe('1');
    expect(link.searchParams.getAll('code')).toEqual([extractCode(mail)!]);
    expect(link.searchParams.get('code')!.endsWith(ok.body.nonce)).toBe(true);
  });

  test('SDK @stackframe/stack ≤ 2.5.37 gets the link-only template', async () => {
    const svc = await sharedService();
    const p = await otpProject(svc);
    const old = uniqueEmail('v1');
    const { mail, otp, code } = await sendCode(svc, p, old, { 'x-stack-client-version': 'next @stackframe/stack@2.5.37' });
    expect(otp).toBeUndefined();
    expect(code).toHaveLength(45);
    expect(mail.subject).toBe('Sign in to Test project');
    const recent = uniqueEmail('v2');
    expect((await sendCode(svc, p, recent, { 'x-stack-client-version': 'next @stackframe/stack@2.5.38' })).otp).toBeDefined();
  });

  test('wrong OTPs burn the nonce: NOT_FOUND each time, then MAX_ATTEMPTS even for the right OTP', async () => {
    const svc = await sharedService();
    const p = await otpProject(svc);
    const { nonce, otp } = await sendCode(svc, p, uniqueEmail('burn'));
    const wrong = otp === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
    for (let i = 0; i < 20; i++) {
      expectKnownError(await p.client.post('/auth/otp/sign-in', { code: wrong + nonce }), 'VERIFICATION_CODE_NOT_FOUND', 404);
    }
    const res = await p.client.post('/auth/otp/sign-in', { code: otp + nonce });
    expectKnownError(res, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED', 400);
    expect(res.body.error).toBe('The verification code nonce has reached the maximum number of attempts. This code is not valid anymore.');
  });

  test('the same code submitted 20 times at once signs in exactly once', async () => {
    const svc = await sharedService();
    const p = await otpProject(svc);
    const { code } = await sendCode(svc, p, uniqueEmail('race'));
    const results = await Promise.all(Array.from({ length: 20 }, () => p.client.post('/auth/otp/sign-in', { code })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expectKnownError(r, 'VERIFICATION_CODE_ALREADY_USED', 409);
    const users = await p.server.get('/users');
    expect(users.body.items).toHaveLength(1);
  });

  test('code errors: unknown code, wrong length, other purpose, deleted user', async () => {
    const svc = await sharedService();
    const p = await otpProject(svc);
    expectKnownError(await p.client.post('/auth/otp/sign-in', { code: 'a'.repeat(45) }), 'VERIFICATION_CODE_NOT_FOUND', 404);
    const short = await p.client.post('/auth/otp/sign-in', { code: 'abc' });
    expectKnownError(short, 'SCHEMA_ERROR', 400);
    expect(short.body.error).toContain('body.code must be exactly 45 characters');
    const noAuth = await clientApi(svc.url, p.id, 'wrong').post('/auth/otp/sign-in', { code: 'a'.repeat(45) });
    expectKnownError(noAuth, 'INVALID_PUBLISHABLE_CLIENT_KEY', 401);

    // A sign-in code is not a verification code, and the reverse.
    const { code } = await sendCode(svc, p, uniqueEmail('purpose'));
    expectKnownError(await p.client.post('/contact-channels/verify', { code }), 'VERIFICATION_CODE_NOT_FOUND', 404);

    const u = await signUp(p);
    await p.server.patch(`/users/${u.userId}`, { primary_email_verified: true });
    const sent = await sendCode(svc, p, u.email);
    expect((await p.server.delete(`/users/${u.userId}`)).status).toBe(200);
    expectKnownError(await p.client.post('/auth/otp/sign-in', { code: sent.code }), 'USER_NOT_FOUND', 404);
  });

  test('a user with TOTP MFA gets MULTI_FACTOR_AUTHENTICATION_REQUIRED with an attempt code', async () => {
    const svc = await sharedService();
    const p = await otpProject(svc);
    const u = await signUp(p);
    const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString('base64');
    expect((await p.server.patch(`/users/${u.userId}`, { primary_email_verified: true, totp_secret_base64: secret })).status).toBe(200);
    const { code } = await sendCode(svc, p, u.email);
    const res = await p.client.post('/auth/otp/sign-in', { code });
    expectKnownError(res, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400);
    expect(res.body.details.attempt_code).toHaveLength(45);
  });
});

describe('verification codes', () => {
  test('an expired code is VERIFICATION_CODE_EXPIRED (checked after NOT_FOUND, before ALREADY_USED)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-codes-'));
    const database = await openTestDatabase({ dataDir: dir });
    try {
      const project = await projectsRepo.create(database.db, { displayName: 'codes', config: defaultProjectConfig() });
      const { code } = await createCode(database.db, { projectId: project.id, type: 'one_time_password', expiresInMs: -1000 });
      const err = await redeemCode(database.db, { projectId: project.id, type: 'one_time_password', code, consume: true }).catch((e) => e);
      expect(err).toBeInstanceOf(KnownErrors.VerificationCodeExpired);
      expect(err.statusCode).toBe(400);
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SMTP down, then up', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => { for (const c of cleanup.reverse()) await c(); });

  test('a code requested while SMTP is down is answered at once and delivered once SMTP is back', async () => {
    const smtp = await startSmtpFixture();
    cleanup.push(() => smtp.stop());
    // On PostgreSQL, a database of its own: every instance's outbox worker shares the `emails` table, and the
    // test process's other services deliver "shared" mail to their own SMTP servers.
    const db = await isolatedDatabase();
    cleanup.push(db.drop);
    const svc = await startService({ env: { SMTP_URL: smtp.url, ...(db.url ? { DATABASE_URL: db.url } : {}) } });
    cleanup.push(() => svc.stop());
    const p = await newProject(svc, { config: { magic_link_enabled: true } });
    await smtp.stop();

    const emails = [uniqueEmail('down-a'), uniqueEmail('down-b')];
    const nonces: string[] = [];
    for (const email of emails) {
      const started = Date.now();
      const res = await p.client.post('/auth/otp/send-sign-in-code', { email, callback_url: CALLBACK });
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(5_000); // not held up by SMTP (generous for a busy machine)
      nonces.push(res.body.nonce);
    }
    await Bun.sleep(1_500); // at least one failed delivery attempt
    expect(smtp.messages).toHaveLength(0);
    await smtp.start();
    for (const [i, email] of emails.entries()) {
      const mail = await smtp.waitForMail((m) => m.to.includes(email), 25_000);
      const otp = extractOtp(mail)!;
      const res = await p.client.post('/auth/otp/sign-in', { code: otp + nonces[i] });
      expect(res.status).toBe(200);
    }
    expect(smtp.messages.filter((m) => emails.some((e) => m.to.includes(e)))).toHaveLength(2);
  }, 150_000);
});

function extractCodeLinkOf(text: string): string {
  return /https?:\/\/[^\s<>"]*[?&]code=[^\s<>"]*/.exec(text)![0];
}
