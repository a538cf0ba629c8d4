// Issue 30 §3 (ASVS 2.2.1: at most 100 failed attempts per hour per account): failures were counted per account and
// address, so N addresses got 10 N guesses per 10 minutes (72 wrong passwords from 6 addresses: 60 were checked). With
// the default limits, a budget per account over every address (sign_in_account_all, 50 failures an hour) cuts such a
// guesser off, without locking the owner out: from a session of theirs, from the address that reset the password
// by mail, or with a mailed sign-in code, the owner still gets in. A security event says when the budget is spent.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { expectKnownError, startService, uniqueEmail, type ApiResponse, type StartedService } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { extractCode, startSmtpFixture, type SmtpFixture } from './support/smtp';
import { isolatedDatabase } from './support/isolated-database';

setDefaultTimeout(120_000);
const CALLBACK = 'http://localhost:12345/cb';
let smtp: SmtpFixture;
let svc: StartedService;
let p: TestProject;
let db: Awaited<ReturnType<typeof isolatedDatabase>> | undefined;

beforeAll(async () => {
  smtp = await startSmtpFixture();
  db = await isolatedDatabase();
  // The default limits (no GATEHOUSE_RATE_LIMITS); client addresses from x-forwarded-for.
  svc = await startService({ env: { SMTP_URL: smtp.url, GATEHOUSE_TRUST_PROXY: 'true', GATEHOUSE_LOG_FORMAT: 'json', ...(db.url ? { DATABASE_URL: db.url } : {}) } });
  p = await newProject(svc, { config: { magic_link_enabled: true } });
}, 180_000);
afterAll(async () => {
  await svc?.stop();
  await smtp?.stop();
  await db?.drop();
});

const from = (ip: string, accessToken?: string) => ({ headers: { 'x-forwarded-for': ip }, ...(accessToken ? { accessToken } : {}) });
const outcome = (res: ApiResponse) => (res.status === 429 ? 429 : res.status === 400 ? res.body.code : `${res.status} ${res.text}`);
const securityEvents = (name: string) => svc.output().split('\n').filter((l) => l.includes('"security event"') && l.includes(`"event":"${name}"`)).map((l) => JSON.parse(l));

test('72 wrong passwords from 6 addresses: the account\'s budget cuts them off at 50; the owner still gets in', async () => {
  const owner = await signUp(p, { password: 'owners-password-1' });
  expect((await p.server.patch(`/users/${owner.userId}`, { primary_email_verified: true })).status).toBe(200);

  // 12 guesses from each of 6 addresses, the addresses taking turns.
  const outcomes: unknown[] = [];
  for (let round = 0; round < 12; round++) {
    for (let a = 1; a <= 6; a++) {
      outcomes.push(outcome(await p.client.post('/auth/password/sign-in', { email: owner.email, password: `guess-${round}-${a}` }, from(`198.51.100.${a}`))));
    }
  }
  expect(outcomes.filter((o) => o === 'EMAIL_PASSWORD_MISMATCH')).toHaveLength(50);
  expect(outcomes.filter((o) => o === 429)).toHaveLength(22);
  expect(outcomes.slice(0, 50).every((o) => o === 'EMAIL_PASSWORD_MISMATCH')).toBe(true);

  // Once, when the budget is spent: the event names the account.
  const throttled = securityEvents('sign_in.account_throttled');
  expect(throttled).toHaveLength(1);
  expect(throttled[0]).toMatchObject({ level: 'warn', project_id: p.id, user_id: owner.userId, ip: '198.51.100.3', rule: 'sign_in_account_all', limit: 50, window_seconds: 3600 });

  // From a new address, even the right password is refused unchecked: the guesser learns nothing.
  const refused = await p.client.post('/auth/password/sign-in', { email: owner.email, password: 'owners-password-1' }, from('203.0.113.50'));
  expectKnownError(refused, 'RATE_LIMITED', 429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);

  // 1. From a session of theirs (a re-authentication), the owner's password is checked.
  const known = await p.client.post('/auth/password/sign-in', { email: owner.email, password: 'owners-password-1' }, from('203.0.113.51', owner.accessToken));
  expect(known.status).toBe(200);
  expect(known.body.user_id).toBe(owner.userId);
  // ... a wrong one there counts as usual, and another account's session is no way in.
  expectKnownError(await p.client.post('/auth/password/sign-in', { email: owner.email, password: 'wrong-again' }, from('203.0.113.51', owner.accessToken)), 'EMAIL_PASSWORD_MISMATCH', 400);
  const stranger = await signUp(p);
  expectKnownError(await p.client.post('/auth/password/sign-in', { email: owner.email, password: 'owners-password-1' }, from('203.0.113.52', stranger.accessToken)), 'RATE_LIMITED', 429);

  // 2. A mailed sign-in code works as ever.
  const t0 = Date.now();
  const sent = await p.client.post('/auth/otp/send-sign-in-code', { email: owner.email, callback_url: CALLBACK }, from('203.0.113.53'));
  expect(sent.status).toBe(200);
  const otpMail = await smtp.waitForMail((m) => m.to.includes(owner.email) && m.subject.startsWith('Sign in') && m.receivedAt >= t0);
  const otp = await p.client.post('/auth/otp/sign-in', { code: extractCode(otpMail) }, from('203.0.113.53'));
  expect(otp.status).toBe(200);
  expect(otp.body.user_id).toBe(owner.userId);

  // 3. A password reset by mail: the address that completed it signs in with the new password; others still wait.
  const t1 = Date.now();
  expect((await p.client.post('/auth/password/send-reset-code', { email: owner.email, callback_url: CALLBACK }, from('203.0.113.54'))).status).toBe(200);
  const resetMail = await smtp.waitForMail((m) => m.to.includes(owner.email) && m.subject.startsWith('Reset') && m.receivedAt >= t1);
  expect((await p.client.post('/auth/password/reset', { code: extractCode(resetMail), password: 'owners-new-password-2' }, from('203.0.113.54'))).status).toBe(200);
  const afterReset = await p.client.post('/auth/password/sign-in', { email: owner.email, password: 'owners-new-password-2' }, from('203.0.113.54'));
  expect(afterReset.status).toBe(200);
  expectKnownError(await p.client.post('/auth/password/sign-in', { email: owner.email, password: 'owners-new-password-2' }, from('203.0.113.55')), 'RATE_LIMITED', 429);

  // Another account is not affected.
  const other = await signUp(p, { email: uniqueEmail('bystander'), password: 'bystander-password-1' });
  expect((await p.client.post('/auth/password/sign-in', { email: other.email, password: 'bystander-password-1' }, from('198.51.100.1'))).status).toBe(200);
});
