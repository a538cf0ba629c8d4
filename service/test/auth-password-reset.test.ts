// Password reset by emailed code (protocol-auth §3.1) over HTTP, with the link read from a real mailbox.
import { describe, expect, test } from 'bun:test';
import { expectKnownError, uniqueEmail } from './support/service';
import { newProject, signUp } from './support/projects';
import { setupSuite } from './support/suite';
import { extractCode } from './support/smtp';

const CALLBACK = 'http://localhost:12345/reset?lang=en';
const MAYBE = { success: 'maybe, only if user with e-mail exists' };
const { svc, p } = await setupSuite();

async function requestReset(email: string) {
  const t0 = Date.now();
  const res = await p.client.post('/auth/password/send-reset-code', { email, callback_url: CALLBACK });
  expect(res.status).toBe(200);
  expect(res.body).toEqual(MAYBE);
  const mail = await svc.mailbox.waitForMail((m) => m.to.includes(email) && m.receivedAt >= t0 && m.subject.startsWith('Reset your password'));
  return { mail, code: extractCode(mail)! };
}

describe('password reset', () => {
  test('the emailed link resets the password, ends every session, and the code is single use', async () => {
    const u = await signUp(p);
    const { mail, code } = await requestReset(u.email);
    expect(mail.subject).toBe('Reset your password at Test project');
    const link = new URL(/https?:\/\/\S*code=\S*/.exec(mail.text)![0]);
    expect(link.searchParams.get('lang')).toBe('en');
    expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);

    expect((await p.client.post('/auth/password/reset/check-code', { code })).body).toEqual({ is_code_valid: true });
    const reset = await p.client.post('/auth/password/reset', { code, password: 'brand-new-password' });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ success: true });

    expectKnownError(await p.client.post('/auth/sessions/current/refresh', {}, { refreshToken: u.refreshToken }), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    expectKnownError(await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password }), 'EMAIL_PASSWORD_MISMATCH', 400);
    expect((await p.client.post('/auth/password/sign-in', { email: u.email, password: 'brand-new-password' })).status).toBe(200);
    expectKnownError(await p.client.post('/auth/password/reset', { code, password: 'another-password' }), 'VERIFICATION_CODE_ALREADY_USED', 409);
    expectKnownError(await p.client.post('/auth/password/reset/check-code', { code }), 'VERIFICATION_CODE_ALREADY_USED', 409);
  });

  test('a too-short password is refused without burning the code', async () => {
    const u = await signUp(p);
    const { code } = await requestReset(u.email);
    const short = await p.client.post('/auth/password/reset', { code, password: 'short' });
    expectKnownError(short, 'PASSWORD_TOO_SHORT', 400);
    expect(short.body.details).toEqual({ min_length: 8 });
    const long = await p.client.post('/auth/password/reset', { code, password: 'x'.repeat(71) });
    expectKnownError(long, 'SCHEMA_ERROR', 400);
    expect(long.body.error).toContain('body.password must be at most 70 characters');
    expect((await p.client.post('/auth/password/reset', { code, password: 'long-enough-now' })).status).toBe(200);
  });

  test('unknown emails get the same answer and no mail; users without a password get the mail and a password', async () => {
    const unknown = uniqueEmail('nobody');
    const res = await p.client.post('/auth/password/send-reset-code', { email: unknown, callback_url: CALLBACK });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(MAYBE);

    // An OTP-only user (no password) in a project with magic links.
    const otpProject = await newProject(svc, { config: { magic_link_enabled: true } });
    const email = uniqueEmail('otp-only');
    const sent = await otpProject.client.post('/auth/otp/send-sign-in-code', { email, callback_url: CALLBACK });
    const otpMail = await svc.mailbox.waitForMail((m) => m.to.includes(email));
    const signIn = await otpProject.client.post('/auth/otp/sign-in', { code: extractCode(otpMail) });
    expect(signIn.status).toBe(200);
    expect(sent.status).toBe(200);
    const t0 = Date.now();
    expect((await otpProject.client.post('/auth/password/send-reset-code', { email, callback_url: CALLBACK })).body).toEqual(MAYBE);
    const mail = await svc.mailbox.waitForMail((m) => m.to.includes(email) && m.receivedAt >= t0 && m.subject.startsWith('Reset'));
    expect((await otpProject.client.post('/auth/password/reset', { code: extractCode(mail), password: 'first-password' })).status).toBe(200);
    const me = await otpProject.server.get(`/users/${signIn.body.user_id}`);
    expect(me.body.has_password).toBe(true);

    // By now the unknown email's request has long been handled: nothing was sent to it.
    await Bun.sleep(500);
    expect(svc.mailbox.messages.some((m) => m.to.includes(unknown))).toBe(false);
  });

  test('the answer takes the same time whether or not the email exists', async () => {
    const u = await signUp(p);
    const time = async (email: string) => {
      const t0 = performance.now();
      const res = await p.client.post('/auth/password/send-reset-code', { email, callback_url: CALLBACK });
      expect(res.body).toEqual(MAYBE);
      return performance.now() - t0;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 4; i++) {
      known.push(await time(u.email));
      unknown.push(await time(uniqueEmail('timing')));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Both are a few milliseconds; no 2–3 s sleep for unknown emails, no SMTP wait for known ones.
    expect(median(known)).toBeLessThan(1_000);
    expect(median(unknown)).toBeLessThan(1_000);
  });

  test('errors: untrusted callback (for every email), password auth disabled, unknown code, wrong purpose', async () => {
    const u = await signUp(p);
    for (const email of [u.email, uniqueEmail('unknown')]) {
      expectKnownError(await p.client.post('/auth/password/send-reset-code', { email, callback_url: 'http://evil-website.example.com' }), 'REDIRECT_URL_NOT_WHITELISTED', 400);
    }
    expectKnownError(await p.client.post('/auth/password/reset', { code: 'z'.repeat(45), password: 'whatever-123' }), 'VERIFICATION_CODE_NOT_FOUND', 404);
    expectKnownError(await p.client.post('/auth/password/reset/check-code', { code: 'z'.repeat(45) }), 'VERIFICATION_CODE_NOT_FOUND', 404);
    const badEmail = await p.client.post('/auth/password/send-reset-code', { email: 'not-an-email', callback_url: CALLBACK });
    expectKnownError(badEmail, 'SCHEMA_ERROR', 400);

    const { code } = await requestReset(u.email);
    expectKnownError(await p.client.post('/contact-channels/verify', { code }), 'VERIFICATION_CODE_NOT_FOUND', 404);
    expectKnownError(await p.client.post('/auth/otp/sign-in', { code }), 'VERIFICATION_CODE_NOT_FOUND', 404);

    expect((await p.admin.patch('/projects/current', { config: { credential_enabled: false } })).status).toBe(200);
    try {
      expectKnownError(await p.client.post('/auth/password/send-reset-code', { email: u.email, callback_url: CALLBACK }), 'PASSWORD_AUTHENTICATION_NOT_ENABLED', 400);
      expectKnownError(await p.client.post('/auth/password/reset', { code, password: 'new-password-1' }), 'PASSWORD_AUTHENTICATION_NOT_ENABLED', 400);
    } finally {
      expect((await p.admin.patch('/projects/current', { config: { credential_enabled: true } })).status).toBe(200);
    }
    // The refused reset did not consume the code.
    expect((await p.client.post('/auth/password/reset', { code, password: 'new-password-1' })).status).toBe(200);
  });

  test('the same reset code submitted 20 times at once succeeds exactly once', async () => {
    const u = await signUp(p);
    const { code } = await requestReset(u.email);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => p.client.post('/auth/password/reset', { code, password: `parallel-password-${i}` })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expectKnownError(r, 'VERIFICATION_CODE_ALREADY_USED', 409);
  });
});
