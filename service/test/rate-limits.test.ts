// Abuse limits (auth/rate-limits.ts) over HTTP, on services started with small limits: 429 + Retry-After,
// failures-only counting for sign-in and code attempts, per IP and per account/email, no enumeration.
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startService, expectKnownError, uniqueEmail, type ApiResponse, type RunningService } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { startSmtpFixture, extractCode, type SmtpFixture } from './support/smtp';
import { parseRules, DEFAULT_RULES } from '../src/auth/rate-limits';
import { isolatedDatabase } from './support/isolated-database';

setDefaultTimeout(60_000);

// The MFA window is short so a test can wait for it to pass.
const MFA_WINDOW_SECONDS = 10;
const LIMITS = `sign_in_ip=5/60,sign_in_account=3/60,code_send_ip=4/60,code_send_email=2/60,code_attempt_ip=5/60,mfa_attempt_account=3/${MFA_WINDOW_SECONDS}`;
const CALLBACK = 'http://localhost:12345/cb';
let smtp: SmtpFixture;
let svc: RunningService;
let untrusting: RunningService;
let db: Awaited<ReturnType<typeof isolatedDatabase>> | undefined;

beforeAll(async () => {
  smtp = await startSmtpFixture();
  db = await isolatedDatabase();
  const env = { SMTP_URL: smtp.url, GATEHOUSE_RATE_LIMITS: LIMITS, ...(db.url ? { DATABASE_URL: db.url } : {}) };
  svc = await startService({ env: { ...env, GATEHOUSE_TRUST_PROXY: 'true' } });
  untrusting = await startService({ env });
}, 180_000);
afterAll(async () => {
  await Promise.all([svc?.stop(), untrusting?.stop()]);
  await smtp?.stop();
  await db?.drop();
});

const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
let ipCounter = 0;
const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

function expectRateLimited(res: ApiResponse, maxSeconds: number) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
  // A known error (Gatehouse's own code), so clients can tell a limit from other errors.
  expectKnownError(res, 'RATE_LIMITED', 429);
  expect(res.body).toEqual({
    code: 'RATE_LIMITED', details: { retry_after_seconds: retryAfter },
    error: `Too many requests. Please try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
  });
}

/** Parallel wrong sign-ins: exactly `mismatches` were checked (400), the rest refused (429); nothing else. */
function expectMismatchesThenLimited(results: ApiResponse[], mismatches: number, limited: number) {
  expect(results.map((r) => (r.status === 400 ? r.body.code : r.status === 429 ? 429 : r.text)).sort())
    .toEqual([...Array(mismatches).fill('EMAIL_PASSWORD_MISMATCH'), ...Array(limited).fill(429)].sort());
}

describe('password sign-in', () => {
  test('per account and IP: failures from one IP lock that IP out of the account; the owner elsewhere still signs in', async () => {
    const p = await newProject(svc);
    const u = await signUp(p);
    const attacker = freshIp();
    for (let i = 0; i < 3; i++) {
      expectKnownError(await p.client.post('/auth/password/sign-in', { email: u.email, password: 'wrong-password' }, from(attacker)), 'EMAIL_PASSWORD_MISMATCH', 400);
    }
    // Case variants of the email share the budget; from that IP even the right password waits.
    expectRateLimited(await p.client.post('/auth/password/sign-in', { email: u.email.toUpperCase(), password: 'wrong-password' }, from(attacker)), 60);
    expectRateLimited(await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password }, from(attacker)), 60);
    // Issue 17 §4: anyone could lock any account for 10 minutes; the owner's own client is not locked out.
    expect((await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password }, from(freshIp()))).status).toBe(200);
    // Another account is unaffected from the guessing IP too.
    const other = await signUp(p);
    expect((await p.client.post('/auth/password/sign-in', { email: other.email, password: other.password }, from(attacker))).status).toBe(200);
  });

  test('successful sign-ins do not count', async () => {
    const p = await newProject(svc);
    const u = await signUp(p);
    const ip = freshIp();
    for (let i = 0; i < 8; i++) {
      expect((await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password }, from(ip))).status).toBe(200);
    }
  });

  test('per IP: failures across many accounts; another IP is unaffected; the override header keeps Retry-After', async () => {
    const p = await newProject(svc);
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      expectKnownError(await p.client.post('/auth/password/sign-in', { email: uniqueEmail('spray'), password: 'guess-123' }, from(ip)), 'EMAIL_PASSWORD_MISMATCH', 400);
    }
    expectRateLimited(await p.client.post('/auth/password/sign-in', { email: uniqueEmail('spray'), password: 'guess-123' }, from(ip)), 60);
    const overridden = await p.client.post('/auth/password/sign-in', { email: uniqueEmail(), password: 'guess-123' }, { headers: { 'x-forwarded-for': ip, 'x-stack-override-error-status': 'true' } });
    expect(overridden.status).toBe(200);
    expect(overridden.headers.get('x-stack-actual-status')).toBe('429');
    expect(Number(overridden.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expectKnownError(await p.client.post('/auth/password/sign-in', { email: uniqueEmail(), password: 'guess-123' }, from(freshIp())), 'EMAIL_PASSWORD_MISMATCH', 400);
    // Limits are per project: the same IP is fine elsewhere.
    const q = await newProject(svc);
    expectKnownError(await q.client.post('/auth/password/sign-in', { email: uniqueEmail(), password: 'guess-123' }, from(ip)), 'EMAIL_PASSWORD_MISMATCH', 400);
  });

  test('parallel guesses cannot slip past the limit (the attempt is counted before the password check)', async () => {
    const p = await newProject(svc);
    const ip = freshIp();
    const results = await Promise.all(Array.from({ length: 12 }, () => p.client.post('/auth/password/sign-in', { email: uniqueEmail('spray'), password: 'wrong-password' }, from(ip))));
    expectMismatchesThenLimited(results, 5, 7);
  });

  test('parallel guesses from one IP at one account (both counters in each request) end in 400s and 429s only', async () => {
    const p = await newProject(svc);
    const u = await signUp(p);
    const ip = freshIp();
    const results = await Promise.all(Array.from({ length: 12 }, () => p.client.post('/auth/password/sign-in', { email: u.email, password: 'wrong-password' }, from(ip))));
    expectMismatchesThenLimited(results, 3, 9);
  });

  test('a request refused by the account limit does not use up the IP budget', async () => {
    const p = await newProject(svc);
    const u = await signUp(p);
    const ip = freshIp();
    for (let i = 0; i < 3; i++) {
      expectKnownError(await p.client.post('/auth/password/sign-in', { email: u.email, password: 'wrong-password' }, from(ip)), 'EMAIL_PASSWORD_MISMATCH', 400);
    }
    for (let i = 0; i < 4; i++) expectRateLimited(await p.client.post('/auth/password/sign-in', { email: u.email, password: 'wrong-password' }, from(ip)), 60);
    // The IP's other 2 failures (of 5) are all still there.
    for (let i = 0; i < 2; i++) {
      expectKnownError(await p.client.post('/auth/password/sign-in', { email: uniqueEmail('spray'), password: 'guess-123' }, from(ip)), 'EMAIL_PASSWORD_MISMATCH', 400);
    }
    expectRateLimited(await p.client.post('/auth/password/sign-in', { email: uniqueEmail('spray'), password: 'guess-123' }, from(ip)), 60);
  });

  test('GATEHOUSE_TRUST_PROXY=true trusts one proxy hop: rotating the client-written x-forwarded-for entries buys no new budget', async () => {
    const p = await newProject(svc);
    const ip = freshIp();
    const spoofed = () => ({ headers: { 'x-forwarded-for': `${freshIp()}, ${freshIp()}, ${ip}` } });
    for (let i = 0; i < 5; i++) {
      expectKnownError(await p.client.post('/auth/password/sign-in', { email: uniqueEmail('spray'), password: 'guess-123' }, spoofed()), 'EMAIL_PASSWORD_MISMATCH', 400);
    }
    expectRateLimited(await p.client.post('/auth/password/sign-in', { email: uniqueEmail('spray'), password: 'guess-123' }, spoofed()), 60);
    // The address the trusted proxy saw is what counts.
    expectRateLimited(await p.client.post('/auth/password/sign-in', { email: uniqueEmail('spray'), password: 'guess-123' }, from(ip)), 60);
  });

  test('without GATEHOUSE_TRUST_PROXY, spoofed x-forwarded-for headers do not buy new budgets', async () => {
    const p = await newProject(untrusting);
    for (let i = 0; i < 5; i++) {
      expectKnownError(await p.client.post('/auth/password/sign-in', { email: uniqueEmail(), password: 'guess-123' }, from(freshIp())), 'EMAIL_PASSWORD_MISMATCH', 400);
    }
    expectRateLimited(await p.client.post('/auth/password/sign-in', { email: uniqueEmail(), password: 'guess-123' }, from(freshIp())), 60);
  });
});

describe('sending codes', () => {
  test('per email, the same for known and unknown emails (no enumeration)', async () => {
    const p = await newProject(svc);
    const u = await signUp(p);
    for (const email of [u.email, uniqueEmail('ghost')]) {
      for (let i = 0; i < 2; i++) {
        expect((await p.client.post('/auth/password/send-reset-code', { email, callback_url: CALLBACK }, from(freshIp()))).status).toBe(200);
      }
      expectRateLimited(await p.client.post('/auth/password/send-reset-code', { email, callback_url: CALLBACK }, from(freshIp())), 60);
    }
  });

  test('per IP, across emails and flows', async () => {
    const p = await newProject(svc, { config: { magic_link_enabled: true } });
    const ip = freshIp();
    for (let i = 0; i < 2; i++) {
      expect((await p.client.post('/auth/otp/send-sign-in-code', { email: uniqueEmail(), callback_url: CALLBACK }, from(ip))).status).toBe(200);
      expect((await p.client.post('/auth/password/send-reset-code', { email: uniqueEmail(), callback_url: CALLBACK }, from(ip))).status).toBe(200);
    }
    expectRateLimited(await p.client.post('/auth/otp/send-sign-in-code', { email: uniqueEmail(), callback_url: CALLBACK }, from(ip)), 60);
    const u = await signUp(p);
    const verify = await p.client.post('/contact-channels/send-verification-code', { email: u.email, callback_url: CALLBACK }, { accessToken: u.accessToken, ...from(ip) });
    expectRateLimited(verify, 60);
    expect((await p.client.post('/contact-channels/send-verification-code', { email: u.email, callback_url: CALLBACK }, { accessToken: u.accessToken, ...from(freshIp()) })).status).toBe(200);
  });
});

describe('code attempts', () => {
  test('failed redemptions per IP are limited; successful ones do not count', async () => {
    const p = await newProject(svc, { config: { magic_link_enabled: true } });
    const ip = freshIp();
    // Two good redemptions (check + sign-in) first: they cost nothing.
    const email = uniqueEmail('attempts');
    expect((await p.client.post('/auth/otp/send-sign-in-code', { email, callback_url: CALLBACK }, from(freshIp()))).status).toBe(200);
    const code = extractCode(await smtp.waitForMail((m) => m.to.includes(email)))!;
    expect((await p.client.post('/auth/otp/sign-in/check-code', { code }, from(ip))).status).toBe(200);
    expect((await p.client.post('/auth/otp/sign-in', { code }, from(ip))).status).toBe(200);
    const bogus = () => Array.from({ length: 45 }, () => 'abcdefghjkmnpqrstvwxyz0123456789'[Math.floor(Math.random() * 32)]).join('');
    for (let i = 0; i < 5; i++) {
      expectKnownError(await p.client.post('/contact-channels/verify', { code: bogus() }, from(ip)), 'VERIFICATION_CODE_NOT_FOUND', 404);
    }
    expectRateLimited(await p.client.post('/auth/password/reset', { code: bogus(), password: 'password-123' }, from(ip)), 60);
    expectRateLimited(await p.client.post('/auth/otp/sign-in', { code: bogus() }, from(ip)), 60);
    expectKnownError(await p.client.post('/auth/otp/sign-in', { code: bogus() }, from(freshIp())), 'VERIFICATION_CODE_NOT_FOUND', 404);
  });
});

/** A user of `p` with TOTP MFA (secret set through PATCH /users/me, as the SDK does). */
async function mfaUser(p: TestProject) {
  const u = await signUp(p);
  const secret = new OTPAuth.Secret({ size: 20 });
  const totp = new OTPAuth.TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 });
  const patched = await p.client.patch('/users/me', { totp_secret_base64: Buffer.from(secret.bytes).toString('base64') }, { accessToken: u.accessToken });
  expect(patched.body.requires_totp_mfa).toBe(true);
  // Never a valid code for any step near now (the right code ± one step of drift, and a margin).
  const wrong = () => {
    const near = [-60_000, -30_000, 0, 30_000, 60_000].map((d) => totp.generate({ timestamp: Date.now() + d }));
    let guess = 0;
    while (near.includes(String(guess).padStart(6, '0'))) guess++;
    return String(guess).padStart(6, '0');
  };
  return { ...u, totp, wrong };
}

/** A fresh attempt code from a password sign-in (each sign-in that reaches MFA gives a new one). */
async function attemptCode(p: TestProject, u: { email: string; password: string }): Promise<string> {
  const res = await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password }, from(freshIp()));
  expectKnownError(res, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400);
  return res.body.details.attempt_code;
}

async function attemptCodes(p: TestProject, u: { email: string; password: string }, n: number): Promise<string[]> {
  // One after the other: parallel sign-ins would all count against sign_in_account before any is refunded.
  const codes: string[] = [];
  for (let i = 0; i < n; i++) codes.push(await attemptCode(p, u));
  return codes;
}

const mfaSignIn = (p: TestProject, code: string, totp: string, ip = freshIp()) =>
  p.client.post('/auth/mfa/sign-in', { type: 'totp', code, totp }, from(ip));

describe('MFA step (TOTP)', () => {
  test('per account, across fresh attempt codes and IPs: then even the right TOTP waits for the window', async () => {
    const p = await newProject(svc);
    const u = await mfaUser(p);
    const codes = await attemptCodes(p, u, 5);
    for (let i = 0; i < 3; i++) expectKnownError(await mfaSignIn(p, codes[i]!, u.wrong()), 'INVALID_TOTP_CODE', 400);
    const refused = await mfaSignIn(p, codes[3]!, u.totp.generate());
    expectRateLimited(refused, MFA_WINDOW_SECONDS);
    expectRateLimited(await mfaSignIn(p, codes[4]!, u.wrong()), MFA_WINDOW_SECONDS);
    // Another account of the project is unaffected.
    const other = await mfaUser(p);
    expect((await mfaSignIn(p, await attemptCode(p, other), other.totp.generate())).status).toBe(200);

    // Once the window has passed, the attempt code refused with 429 (not consumed) signs in.
    await Bun.sleep(Number(refused.headers.get('retry-after')) * 1000 + 500);
    const ok = await mfaSignIn(p, codes[3]!, u.totp.generate());
    expect(ok.status).toBe(200);
    expect(ok.body.user_id).toBe(u.userId);
  });

  test('per account: parallel wrong TOTPs cannot slip past the limit', async () => {
    const p = await newProject(svc);
    const u = await mfaUser(p);
    const codes = await attemptCodes(p, u, 8);
    const results = await Promise.all(codes.map((c) => mfaSignIn(p, c, u.wrong())));
    expect(results.map((r) => (r.status === 400 ? r.body.code : r.status === 429 ? 429 : r.text)).sort())
      .toEqual([...Array(3).fill('INVALID_TOTP_CODE'), ...Array(5).fill(429)].sort());
  });

  test('per IP: wrong TOTPs across accounts count toward the code-attempt limit', async () => {
    const p = await newProject(svc);
    const [a, b] = [await mfaUser(p), await mfaUser(p)];
    const ip = freshIp();
    for (let i = 0; i < 3; i++) expectKnownError(await mfaSignIn(p, await attemptCode(p, a), a.wrong(), ip), 'INVALID_TOTP_CODE', 400);
    for (let i = 0; i < 2; i++) expectKnownError(await mfaSignIn(p, await attemptCode(p, b), b.wrong(), ip), 'INVALID_TOTP_CODE', 400);
    const code = await attemptCode(p, b);
    expectRateLimited(await mfaSignIn(p, code, b.totp.generate(), ip), 60);
    // b's own budget (2 of 3 used) is untouched by the IP refusal: from elsewhere the right TOTP works.
    expect((await mfaSignIn(p, code, b.totp.generate())).status).toBe(200);
  });
});

describe('configuration', () => {
  test('GATEHOUSE_RATE_LIMITS parses overrides and `off`, and rejects bad entries', () => {
    expect(parseRules(undefined)).toEqual({ ...DEFAULT_RULES });
    expect(parseRules('off')).toBeNull();
    expect(parseRules('sign_in_ip=7/30')!.sign_in_ip).toEqual({ limit: 7, windowSeconds: 30 });
    expect(() => parseRules('sign_in=1/1')).toThrow(/bad entry/);
    expect(() => parseRules('sign_in_ip=1')).toThrow(/bad entry/);
    expect(() => parseRules('sign_in_ip=1/0')).toThrow(/bad entry/);
  });
});
