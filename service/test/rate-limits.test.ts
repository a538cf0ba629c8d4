// Abuse limits (auth/rate-limits.ts) over HTTP, on services started with small limits: 429 + Retry-After,
// failures-only counting for sign-in and code attempts, per IP and per account/email, no enumeration.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startService, expectKnownError, uniqueEmail, type ApiResponse, type RunningService } from './support/service';
import { newProject, signUp } from './support/projects';
import { startSmtpFixture, extractCode, type SmtpFixture } from './support/smtp';
import { parseRules, DEFAULT_RULES } from '../src/auth/rate-limits';
import { isolatedDatabase } from './support/isolated-database';

setDefaultTimeout(60_000);

const LIMITS = 'sign_in_ip=5/60,sign_in_account=3/60,code_send_ip=4/60,code_send_email=2/60,code_attempt_ip=5/60';
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
  expect(res.text).toBe(`Too many requests. Please try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`);
}

describe('password sign-in', () => {
  test('per account: failures from any IP add up; then even the right password waits', async () => {
    const p = await newProject(svc);
    const u = await signUp(p);
    for (let i = 0; i < 3; i++) {
      expectKnownError(await p.client.post('/auth/password/sign-in', { email: u.email, password: 'wrong-password' }, from(freshIp())), 'EMAIL_PASSWORD_MISMATCH', 400);
    }
    // Case variants of the email share the budget.
    expectRateLimited(await p.client.post('/auth/password/sign-in', { email: u.email.toUpperCase(), password: 'wrong-password' }, from(freshIp())), 60);
    expectRateLimited(await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password }, from(freshIp())), 60);
    // Another account is unaffected.
    const other = await signUp(p);
    expect((await p.client.post('/auth/password/sign-in', { email: other.email, password: other.password })).status).toBe(200);
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
    const u = await signUp(p);
    const results = await Promise.all(Array.from({ length: 12 }, () => p.client.post('/auth/password/sign-in', { email: u.email, password: 'wrong-password' }, from(freshIp()))));
    expect(results.map((r) => (r.status === 400 ? r.body.code : r.status === 429 ? 429 : r.text)).sort())
      .toEqual([...Array(3).fill('EMAIL_PASSWORD_MISMATCH'), ...Array(9).fill(429)].sort());
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
