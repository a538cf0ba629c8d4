// Issue 17 §5 (ASVS 2.1.4, 2.1.7, 2.4.4, 2.7.2, 2.5.x): common passwords refused offline, passwords normalised
// (NFKC) with older hashes still accepted, imported bcrypt hashes upgraded to argon2id at sign-in, short-lived
// sign-in and reset codes, and a reset or change ending the user's other outstanding reset codes.
import { describe, expect, test } from 'bun:test';
import bcrypt from 'bcryptjs';
import { expectKnownError, uniqueEmail } from './support/service';
import { signUp } from './support/projects';
import { setupSuite } from './support/suite';
import { extractCode } from './support/smtp';
import { Passwords } from '../src/auth/passwords';
import { isCommonPassword } from '../src/auth/common-passwords';
import { CODE_LIFETIME_MS } from '../src/auth/flow-emails';

const { svc, p } = await setupSuite();
const CALLBACK = 'http://localhost:12345/reset';
const COMMON = 'PASSWORD_REQUIREMENTS_NOT_MET';

async function resetCode(email: string) {
  const t0 = Date.now();
  expect((await p.client.post('/auth/password/send-reset-code', { email, callback_url: CALLBACK })).status).toBe(200);
  const mail = await svc.mailbox.waitForMail((m) => m.to.includes(email) && m.receivedAt >= t0 && m.subject.startsWith('Reset'));
  return extractCode(mail)!;
}

describe('common passwords', () => {
  test('refused on sign-up, update, set and reset, with PASSWORD_REQUIREMENTS_NOT_MET; case and width variants too', async () => {
    for (const password of ['password123', 'Password123', 'ｐａｓｓｗｏｒｄ１２３', 'iloveyou', 'qwertyuiop']) {
      const res = await p.client.post('/auth/password/sign-up', { email: uniqueEmail(), password });
      expectKnownError(res, COMMON, 400);
      expect(res.body.error).toBe('This password is too common or has appeared in a data breach. Please choose a different password.');
    }
    const u = await signUp(p);
    const token = { accessToken: u.accessToken };
    expectKnownError(await p.client.post('/auth/password/update', { old_password: u.password, new_password: 'baseball1' }, token), COMMON, 400);
    const code = await resetCode(u.email);
    expectKnownError(await p.client.post('/auth/password/reset', { code, password: 'sunshine1' }), COMMON, 400);
    // The refusal did not burn the code.
    expect((await p.client.post('/auth/password/reset', { code, password: 'an-uncommon-passphrase-9' })).status).toBe(200);

    const created = await p.server.post('/users', { primary_email: uniqueEmail('nopass'), primary_email_auth_enabled: true });
    const session = await p.server.post('/auth/sessions', { user_id: created.body.id });
    expectKnownError(await p.client.post('/auth/password/set', { password: 'football' }, { accessToken: session.body.access_token }), COMMON, 400);
    expect(await isCommonPassword('correct-horse-battery-staple-42')).toBe(false);
  });
});

describe('normalisation and hash upgrades', () => {
  test('a password typed in another Unicode form signs in (NFKC)', async () => {
    const composed = 'caf\u00e9-au-lait-7';
    const u = await signUp(p, { password: composed });
    const decomposed = 'cafe\u0301-au-lait-7';
    expect(decomposed).not.toBe(composed);
    expect((await p.client.post('/auth/password/sign-in', { email: u.email, password: decomposed })).status).toBe(200);
  });

  test('an imported bcrypt hash signs in with the password as typed and is upgraded to argon2id of its NFKC form', async () => {
    const typed = 'ｆｕｌｌ-width-pass-7'; // full-width letters; NFKC: "full-width-pass-7"
    const email = uniqueEmail('imported');
    const created = await p.server.post('/users', { primary_email: email, primary_email_auth_enabled: true, password_hash: bcrypt.hashSync(typed, 10) });
    expect(created.status).toBe(201);
    // Before the first sign-in the stored hash knows only the form that was hashed.
    expectKnownError(await p.client.post('/auth/password/sign-in', { email, password: 'full-width-pass-7' }), 'EMAIL_PASSWORD_MISMATCH', 400);
    expect((await p.client.post('/auth/password/sign-in', { email, password: typed })).status).toBe(200);
    // Now the hash is argon2id of the NFKC form: both ways of typing it work.
    expect((await p.client.post('/auth/password/sign-in', { email, password: 'full-width-pass-7' })).status).toBe(200);
    expect((await p.client.post('/auth/password/sign-in', { email, password: typed })).status).toBe(200);
  });

  test('which stored hashes are replaced at sign-in', async () => {
    const passwords = new Passwords(2);
    const current = await passwords.hash('some-password-1');
    expect(current.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
    expect(await passwords.check('some-password-1', current)).toEqual({ ok: true, rehash: false });
    expect(await passwords.check('some-password-1', bcrypt.hashSync('some-password-1', 10))).toEqual({ ok: true, rehash: true });
    expect(await passwords.check('some-password-1', await Bun.password.hash('some-password-1', { algorithm: 'argon2id', memoryCost: 65536, timeCost: 2 }))).toEqual({ ok: true, rehash: true });
    // A hash made before normalisation, of a password whose NFKC form differs.
    expect(await passwords.check('ﬁne-tuned-pass', await Bun.password.hash('ﬁne-tuned-pass', { algorithm: 'argon2id', memoryCost: 19456, timeCost: 2 }))).toEqual({ ok: true, rehash: true });
    expect(await passwords.check('wrong', current)).toEqual({ ok: false, rehash: false });
  });
});

describe('reset codes', () => {
  test('a reset ends the other outstanding reset codes of the user', async () => {
    const u = await signUp(p);
    const older = await resetCode(u.email);
    const newer = await resetCode(u.email);
    expect((await p.client.post('/auth/password/reset', { code: newer, password: 'reset-once-and-for-all-1' })).status).toBe(200);
    // Before: the older link still reset the password.
    expectKnownError(await p.client.post('/auth/password/reset', { code: older, password: 'attacker-chosen-pass-1' }), 'VERIFICATION_CODE_ALREADY_USED', 409);
    expect((await p.client.post('/auth/password/sign-in', { email: u.email, password: 'reset-once-and-for-all-1' })).status).toBe(200);
  });

  test('a password change ends them too', async () => {
    const u = await signUp(p);
    const code = await resetCode(u.email);
    expect((await p.client.post('/auth/password/update', { old_password: u.password, new_password: 'changed-by-owner-1' }, { accessToken: u.accessToken })).status).toBe(200);
    expectKnownError(await p.client.post('/auth/password/reset', { code, password: 'attacker-chosen-pass-1' }), 'VERIFICATION_CODE_ALREADY_USED', 409);
  });

  test('sign-in codes, magic links and reset links live 10 minutes by default; verification links a day', () => {
    expect(CODE_LIFETIME_MS).toEqual({ one_time_password: 600_000, password_reset: 600_000, contact_channel_verification: 86_400_000 });
  });
});
