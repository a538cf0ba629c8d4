import { describe, expect, test } from 'bun:test';
import * as OTPAuth from 'otpauth';
import { expectKnownError, sharedService } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { extractCode } from './support/smtp';
import { DEFAULT_RULES } from '../src/auth/rate-limits';

function newTotp() {
  const secret = new OTPAuth.Secret({ size: 20 });
  const totp = new OTPAuth.TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 });
  return { totp, base64: Buffer.from(secret.bytes).toString('base64') };
}

/** A user of `p` with TOTP MFA enabled through PATCH /users/me, as the SDK does it. */
async function mfaUser(p: TestProject) {
  const u = await signUp(p);
  const { totp, base64 } = newTotp();
  const patched = await p.client.patch('/users/me', { totp_secret_base64: base64 }, { accessToken: u.accessToken });
  expect(patched.status).toBe(200);
  expect(patched.body.requires_totp_mfa).toBe(true);
  return { ...u, totp };
}

async function attemptCode(p: TestProject, email: string, password: string): Promise<string> {
  const res = await p.client.post('/auth/password/sign-in', { email, password });
  expectKnownError(res, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400);
  expect(res.body.error).toBe('Multi-factor authentication is required for this user.');
  expect(res.body.details.attempt_code).toHaveLength(45);
  return res.body.details.attempt_code;
}

describe('TOTP MFA', () => {
  test('password sign-in → attempt code → wrong TOTP (code kept) → right TOTP → tokens; the code is then used', async () => {
    const svc = await sharedService();
    const p = await newProject(svc);
    const u = await mfaUser(p);
    const code = await attemptCode(p, u.email, u.password);

    const wrongDigits = String((Number(u.totp.generate()) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await p.client.post('/auth/mfa/sign-in', { type: 'totp', code, totp: wrongDigits });
    expectKnownError(wrong, 'INVALID_TOTP_CODE', 400);
    expect(wrong.body.error).toBe('The TOTP code is invalid. Please try again.');
    expectKnownError(await p.client.post('/auth/mfa/sign-in', { type: 'totp', code, totp: 'abcdef' }), 'INVALID_TOTP_CODE', 400);

    const ok = await p.client.post('/auth/mfa/sign-in', { type: 'totp', code, totp: u.totp.generate() });
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.body).sort()).toEqual(['access_token', 'is_new_user', 'refresh_token', 'user_id']);
    expect(ok.body).toMatchObject({ is_new_user: false, user_id: u.userId });
    const me = await p.client.get('/users/me', { accessToken: ok.body.access_token });
    expect(me.body.id).toBe(u.userId);

    const again = await p.client.post('/auth/mfa/sign-in', { type: 'totp', code, totp: u.totp.generate() });
    expectKnownError(again, 'VERIFICATION_CODE_ALREADY_USED', 409);
  });

  test('a TOTP step signs in once; one step of drift either way is accepted, two are not', async () => {
    const svc = await sharedService();
    const p = await newProject(svc);
    const u = await mfaUser(p);
    const now = Date.now();
    const token = u.totp.generate({ timestamp: now });
    const first = await p.client.post('/auth/mfa/sign-in', { type: 'totp', code: await attemptCode(p, u.email, u.password), totp: token });
    expect(first.status).toBe(200);

    const code = await attemptCode(p, u.email, u.password);
    expectKnownError(await p.client.post('/auth/mfa/sign-in', { type: 'totp', code, totp: token }), 'INVALID_TOTP_CODE', 400);
    expectKnownError(await p.client.post('/auth/mfa/sign-in', { type: 'totp', code, totp: u.totp.generate({ timestamp: now + 90_000 }) }), 'INVALID_TOTP_CODE', 400);
    expectKnownError(await p.client.post('/auth/mfa/sign-in', { type: 'totp', code, totp: u.totp.generate({ timestamp: now - 90_000 }) }), 'INVALID_TOTP_CODE', 400);
    const ahead = await p.client.post('/auth/mfa/sign-in', { type: 'totp', code, totp: u.totp.generate({ timestamp: now + 30_000 }) });
    expect(ahead.status).toBe(200);

    const behindCode = await attemptCode(p, u.email, u.password);
    // The answer depends on the server's step, so keep a step boundary out of the request: if one is near, let it pass.
    const toBoundary = 30_000 - (Date.now() % 30_000);
    if (toBoundary < 5_000) await Bun.sleep(toBoundary + 50);
    const generatedAt = Date.now();
    const behind = await p.client.post('/auth/mfa/sign-in', { type: 'totp', code: behindCode, totp: u.totp.generate({ timestamp: generatedAt - 30_000 }) });
    // The step behind may equal the first sign-in's step if the clock has moved on since; then it is a reuse.
    if (Math.floor(generatedAt / 30_000) - 1 === Math.floor(now / 30_000)) expectKnownError(behind, 'INVALID_TOTP_CODE', 400);
    else expect(behind.status).toBe(200);
  }, 30_000);

  test('unknown, malformed and exhausted attempt codes', async () => {
    const svc = await sharedService();
    const p = await newProject(svc);
    const u = await mfaUser(p);
    expectKnownError(await p.client.post('/auth/mfa/sign-in', { type: 'totp', code: 'a'.repeat(45), totp: u.totp.generate() }), 'VERIFICATION_CODE_NOT_FOUND', 404);
    const short = await p.client.post('/auth/mfa/sign-in', { type: 'totp', code: 'abc', totp: '123456' });
    expectKnownError(short, 'SCHEMA_ERROR', 400);
    expect(short.body.error).toContain('body.code must be exactly 45 characters');
    const code = await attemptCode(p, u.email, u.password);
    expectKnownError(await p.client.post('/auth/mfa/sign-in', { type: 'sms', code, totp: u.totp.generate() }), 'SCHEMA_ERROR', 400);

    // Twenty attempts (the schema error above did not reach the code) exhaust it: then even the right TOTP fails.
    // Past the user's budget of wrong TOTPs (mfa_attempt_account) the answer is 429, but the attempt still counts.
    const budget = DEFAULT_RULES.mfa_attempt_account.limit;
    for (let i = 0; i < 20; i++) {
      const res = await p.client.post('/auth/mfa/sign-in', { type: 'totp', code, totp: '000000' === u.totp.generate() ? '111111' : '000000' });
      if (i < budget) expectKnownError(res, 'INVALID_TOTP_CODE', 400);
      else expect(res.status).toBe(429);
    }
    expectKnownError(await p.client.post('/auth/mfa/sign-in', { type: 'totp', code, totp: u.totp.generate() }), 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED', 400);
  });

  test('an attempt code is redeemed once under concurrency; attempt codes are per project', async () => {
    const svc = await sharedService();
    const p = await newProject(svc);
    const other = await newProject(svc);
    const u = await mfaUser(p);
    const code = await attemptCode(p, u.email, u.password);
    expectKnownError(await other.client.post('/auth/mfa/sign-in', { type: 'totp', code, totp: u.totp.generate() }), 'VERIFICATION_CODE_NOT_FOUND', 404);
    const token = u.totp.generate();
    const results = await Promise.all(Array.from({ length: 10 }, () => p.client.post('/auth/mfa/sign-in', { type: 'totp', code, totp: token })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  });

  test('without a secret there is no MFA step; removing the secret turns MFA off', async () => {
    const svc = await sharedService();
    const p = await newProject(svc);
    const u = await mfaUser(p);
    const signedIn = await p.client.post('/auth/mfa/sign-in', { type: 'totp', code: await attemptCode(p, u.email, u.password), totp: u.totp.generate() });
    const off = await p.client.patch('/users/me', { totp_secret_base64: null }, { accessToken: signedIn.body.access_token });
    expect(off.body.requires_totp_mfa).toBe(false);
    const plain = await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password });
    expect(plain.status).toBe(200);
  });

  test('OTP (magic link) sign-in is intercepted too', async () => {
    const svc = await sharedService();
    const p = await newProject(svc, { config: { magic_link_enabled: true } });
    const u = await mfaUser(p);
    // OTP sign-in into an existing account needs a verified email.
    expect((await p.server.patch(`/users/${u.userId}`, { primary_email_verified: true })).status).toBe(200);
    const sent = await p.client.post('/auth/otp/send-sign-in-code', { email: u.email, callback_url: 'http://localhost:3000/handler/magic-link-callback' });
    expect(sent.status).toBe(200);
    const mail = await svc.mailbox.waitForMail((m) => m.to.includes(u.email));
    const res = await p.client.post('/auth/otp/sign-in', { code: extractCode(mail) });
    expectKnownError(res, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400);
    const ok = await p.client.post('/auth/mfa/sign-in', { type: 'totp', code: res.body.details.attempt_code, totp: u.totp.generate() });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ is_new_user: false, user_id: u.userId });
  });
});
