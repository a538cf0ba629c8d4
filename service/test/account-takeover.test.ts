// Issue 17 §1: a stolen access token must not become a permanent takeover (ASVS 3.7.1, 2.5.6, 2.5.7).
// The attack: with only the victim's access token, add the attacker's address as a sign-in email, have a reset
// code mailed there, reset, sign in as the victim. Played with an old session (a service whose recent-sign-in
// window is 2 s) and with a fresh one (the shared service, 15 minutes).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import * as OTPAuth from 'otpauth';
import { expectKnownError, startService, uniqueEmail, type RunningService } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { setupSuite } from './support/suite';
import { extractCode, startSmtpFixture, type ReceivedMail, type SmtpFixture } from './support/smtp';
import { softAuthenticator } from '../../shared/test/client/soft-authenticator.ts';
import { loadConfig } from '../src/config';
import { isolatedDatabase } from './support/isolated-database';

const CALLBACK = 'http://localhost:12345/cb';
const WINDOW_SECONDS = 2;
const { svc, p } = await setupSuite();

/** A victim whose sign-up address is verified (so that notices reach it), signed in. */
async function victimIn(project: TestProject) {
  const u = await signUp(project);
  const verified = await project.server.patch(`/users/${u.userId}`, { primary_email_verified: true });
  expect(verified.status).toBe(200);
  return u;
}

async function addSignInEmail(project: TestProject, accessToken: string, email: string) {
  return project.client.post('/contact-channels', { user_id: 'me', value: email, type: 'email', used_for_auth: true }, { accessToken });
}

/** Asks for a reset code to `email`, then for one to `control` (an address that gets one); returns whether `email` got mail. */
async function resetMailReaches(mailbox: SmtpFixture, project: TestProject, email: string, control: string): Promise<boolean> {
  const t0 = Date.now();
  expect((await project.client.post('/auth/password/send-reset-code', { email, callback_url: CALLBACK })).status).toBe(200);
  expect((await project.client.post('/auth/password/send-reset-code', { email: control, callback_url: CALLBACK })).status).toBe(200);
  await mailbox.waitForMail((m) => m.to.includes(control) && m.receivedAt >= t0 && m.subject.startsWith('Reset'));
  await Bun.sleep(500);
  return mailbox.messages.some((m) => m.to.includes(email) && m.receivedAt >= t0);
}

describe('an old session (signed in longer ago than GATEHOUSE_RECENT_SIGN_IN_SECONDS)', () => {
  let own: RunningService;
  let mailbox: SmtpFixture;
  let project: TestProject;
  let db: Awaited<ReturnType<typeof isolatedDatabase>> | undefined;
  beforeAll(async () => {
    mailbox = await startSmtpFixture();
    // A database of its own under DATABASE_URL: the shared service's mail worker must not deliver this one's mail.
    db = await isolatedDatabase();
    own = await startService({ env: { SMTP_URL: mailbox.url, GATEHOUSE_RECENT_SIGN_IN_SECONDS: String(WINDOW_SECONDS), ...(db.url ? { DATABASE_URL: db.url } : {}) } });
    project = await newProject(own, { config: { client_user_deletion_enabled: true, magic_link_enabled: true } });
  }, 180_000);
  afterAll(async () => { await own?.stop(); await mailbox?.stop(); await db?.drop(); }, 30_000);

  /** A victim whose session is older than the window; the access token is a refreshed one (refresh does not renew). */
  async function agedVictim() {
    const u = await victimIn(project);
    await Bun.sleep(WINDOW_SECONDS * 1000 + 600);
    const refreshed = await project.client.post('/auth/sessions/current/refresh', {}, { refreshToken: u.refreshToken });
    expect(refreshed.status).toBe(200);
    return { ...u, accessToken: refreshed.body.access_token as string };
  }

  test('the stolen token cannot add a sign-in email, so no reset code reaches the attacker and the account stays the victim\'s', async () => {
    const victim = await agedVictim();
    const attacker = uniqueEmail('attacker');
    const added = await addSignInEmail(project, victim.accessToken, attacker);
    expectKnownError(added, 'RECENT_SIGN_IN_REQUIRED', 403);
    expect(added.body.error).toBe('This action requires a recent sign-in. Please sign in again and retry.');
    // Nor by adding a plain contact address and turning it into a sign-in one.
    const plain = await project.client.post('/contact-channels', { user_id: 'me', value: attacker, type: 'email', used_for_auth: false }, { accessToken: victim.accessToken });
    expect(plain.status).toBe(201);
    const promoted = await project.client.patch(`/contact-channels/me/${plain.body.id}`, { used_for_auth: true }, { accessToken: victim.accessToken });
    expectKnownError(promoted, 'RECENT_SIGN_IN_REQUIRED', 403);
    const channels = await project.server.get(`/contact-channels?user_id=${victim.userId}`);
    expect(channels.body.items.filter((c: any) => c.used_for_auth).map((c: any) => c.value)).toEqual([victim.email]);

    expect(await resetMailReaches(mailbox, project, attacker, victim.email)).toBe(false);
    expectKnownError(await project.client.post('/auth/password/sign-in', { email: attacker, password: victim.password }), 'EMAIL_PASSWORD_MISMATCH', 400);
    // The victim's own session keeps working, and the victim still signs in.
    expect((await project.client.post('/auth/sessions/current/refresh', {}, { refreshToken: victim.refreshToken })).status).toBe(200);
    expect((await project.client.post('/auth/password/sign-in', { email: victim.email, password: victim.password })).status).toBe(200);
  });

  test('turning MFA, OTP or passkey sign-in off, setting a first password and deleting the account need a recent sign-in', async () => {
    // An account without a password (created by the server) with a session of its own, for the first password
    // below: made before the victim, so that its session ages during the victim's wait (one wait instead of two).
    const created = await project.server.post('/users', { primary_email: uniqueEmail('nopass'), primary_email_auth_enabled: true });
    const session = await project.server.post('/auth/sessions', { user_id: created.body.id });
    const victim = await agedVictim();
    const secret = new OTPAuth.Secret({ size: 20 });
    expect((await project.server.patch(`/users/${victim.userId}`, { totp_secret_base64: Buffer.from(secret.bytes).toString('base64'), otp_auth_enabled: true })).status).toBe(200);
    const token = { accessToken: victim.accessToken };
    expectKnownError(await project.client.patch('/users/me', { totp_secret_base64: null }, token), 'RECENT_SIGN_IN_REQUIRED', 403);
    expectKnownError(await project.client.patch('/users/me', { totp_secret_base64: Buffer.from(new OTPAuth.Secret({ size: 20 }).bytes).toString('base64') }, token), 'RECENT_SIGN_IN_REQUIRED', 403);
    expectKnownError(await project.client.patch('/users/me', { otp_auth_enabled: false }, token), 'RECENT_SIGN_IN_REQUIRED', 403);
    expectKnownError(await project.client.delete('/users/me', token), 'RECENT_SIGN_IN_REQUIRED', 403);
    const after = await project.server.get(`/users/${victim.userId}`);
    expect({ mfa: after.body.requires_totp_mfa, otp: after.body.otp_auth_enabled }).toEqual({ mfa: true, otp: true });
    // What is not sensitive still works with the old session.
    expect((await project.client.patch('/users/me', { display_name: 'Still me' }, token)).status).toBe(200);
    // Server access is the project's backend: not restricted.
    expect((await project.server.patch(`/users/${victim.userId}`, { totp_secret_base64: null })).status).toBe(200);

    // A first password: the account without one, its session signed in longer ago than the window (made before the
    // victim's wait).
    const set = await project.client.post('/auth/password/set', { password: 'attacker-password-1' }, { accessToken: session.body.access_token });
    expectKnownError(set, 'RECENT_SIGN_IN_REQUIRED', 403);
    expect((await project.server.get(`/users/${created.body.id}`)).body.has_password).toBe(false);

    // Signing in again makes the same changes possible.
    const fresh = await project.client.post('/auth/password/sign-in', { email: victim.email, password: victim.password });
    expect((await project.client.patch('/users/me', { otp_auth_enabled: false }, { accessToken: fresh.body.access_token })).status).toBe(200);
    expect((await project.client.delete('/users/me', { accessToken: fresh.body.access_token })).status).toBe(200);
  });
});

describe('a fresh session', () => {
  test('adding a sign-in email succeeds, but it signs in and receives codes only once verified; the owner is told', async () => {
    const victim = await victimIn(p);
    const attacker = uniqueEmail('attacker');
    const t0 = Date.now();
    const added = await addSignInEmail(p, victim.accessToken, attacker);
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ value: attacker, used_for_auth: true, is_verified: false });
    const notice = await svc.mailbox.waitForMail((m) => m.to.includes(victim.email) && m.receivedAt >= t0 && m.subject.startsWith('A sign-in email was added'));
    expect(notice.text).toContain(attacker);

    // The reset code never goes to the unverified address; the sign-up address still gets its own.
    expect(await resetMailReaches(svc.mailbox, p, attacker, victim.email)).toBe(false);
    expectKnownError(await p.client.post('/auth/password/sign-in', { email: attacker, password: victim.password }), 'EMAIL_PASSWORD_MISMATCH', 400);
    // Nobody else can claim the address meanwhile, and the victim's session is untouched.
    expectKnownError(await p.client.post('/auth/password/sign-up', { email: attacker, password: 'attacker-password-1' }), 'USER_EMAIL_ALREADY_EXISTS', 409);
    expect((await p.client.post('/auth/sessions/current/refresh', {}, { refreshToken: victim.refreshToken })).status).toBe(200);

    // The owner's own new address, once verified through the emailed link, is a sign-in and recovery address.
    const mine = uniqueEmail('second');
    const second = await addSignInEmail(p, victim.accessToken, mine);
    const t1 = Date.now();
    expect((await p.client.post(`/contact-channels/me/${second.body.id}/send-verification-code`, { callback_url: CALLBACK }, { accessToken: victim.accessToken })).status).toBe(200);
    const verifyMail = await svc.mailbox.waitForMail((m) => m.to.includes(mine) && m.receivedAt >= t1 && m.subject.startsWith('Verify'));
    expect((await p.client.post('/contact-channels/verify', { code: extractCode(verifyMail) })).status).toBe(200);
    expect((await p.client.post('/auth/password/sign-in', { email: mine, password: victim.password })).status).toBe(200);
    expect(await resetMailReaches(svc.mailbox, p, mine, victim.email)).toBe(true);
  });

  test('an unverified address a client made a sign-in address (PATCH) receives no codes either', async () => {
    const project = await newProject(svc, { config: { magic_link_enabled: true } });
    const victim = await victimIn(project);
    const attacker = uniqueEmail('attacker');
    const plain = await project.client.post('/contact-channels', { user_id: 'me', value: uniqueEmail('plain'), type: 'email', used_for_auth: false }, { accessToken: victim.accessToken });
    const patched = await project.client.patch(`/contact-channels/me/${plain.body.id}`, { value: attacker, used_for_auth: true }, { accessToken: victim.accessToken });
    expect(patched.status).toBe(200);
    expect(await resetMailReaches(svc.mailbox, project, attacker, victim.email)).toBe(false);
    // Answered as any address is (issue 30 §4: a 409 told that the address has an account), but nothing is sent.
    const otp = await project.client.post('/auth/otp/send-sign-in-code', { email: attacker, callback_url: CALLBACK });
    expect(otp.status).toBe(200);
    expect(otp.body.nonce).toHaveLength(39);
    await Bun.sleep(300);
    expect(svc.mailbox.messages.some((m) => m.to.includes(attacker))).toBe(false);
  });
});

describe('notifications to the verified addresses', () => {
  const since = (t0: number, to: string, subject: string) => (m: ReceivedMail) => m.to.includes(to) && m.receivedAt >= t0 && m.subject.startsWith(subject);

  test('password reset and change, MFA off, sign-in email removed', async () => {
    const victim = await victimIn(p);
    let t0 = Date.now();
    expect((await p.client.post('/auth/password/update', { old_password: victim.password, new_password: 'second-password-1' }, { accessToken: victim.accessToken })).status).toBe(200);
    const changed = await svc.mailbox.waitForMail(since(t0, victim.email, 'Your password at Test project was changed'));
    expect(changed.text).toContain('changed or reset');
    expect(changed.html).not.toContain('href=');

    t0 = Date.now();
    await p.client.post('/auth/password/send-reset-code', { email: victim.email, callback_url: CALLBACK });
    const reset = await svc.mailbox.waitForMail(since(t0, victim.email, 'Reset your password'));
    expect((await p.client.post('/auth/password/reset', { code: extractCode(reset), password: 'third-password-1' })).status).toBe(200);
    await svc.mailbox.waitForMail(since(t0, victim.email, 'Your password at Test project was changed'));

    const signedIn = await p.client.post('/auth/password/sign-in', { email: victim.email, password: 'third-password-1' });
    const token = { accessToken: signedIn.body.access_token as string };
    const secret = Buffer.from(new OTPAuth.Secret({ size: 20 }).bytes).toString('base64');
    expect((await p.client.patch('/users/me', { totp_secret_base64: secret }, token)).status).toBe(200);
    t0 = Date.now();
    expect((await p.client.patch('/users/me', { totp_secret_base64: null }, token)).status).toBe(200);
    await svc.mailbox.waitForMail(since(t0, victim.email, 'Two-factor authentication was turned off'));

    const other = uniqueEmail('other');
    const ch = await p.server.post('/contact-channels', { user_id: victim.userId, value: other, type: 'email', used_for_auth: true, is_verified: true });
    expect(ch.status).toBe(201);
    t0 = Date.now();
    expect((await p.client.delete(`/contact-channels/me/${ch.body.id}`, token)).status).toBe(200);
    // Both verified addresses hear of it, the removed one included.
    for (const to of [victim.email, other]) {
      expect((await svc.mailbox.waitForMail(since(t0, to, 'A sign-in email was removed'))).text).toContain(other);
    }
  });

  test('passkey added and removed', async () => {
    const project = await newProject(svc, { config: { passkey_enabled: true } });
    const victim = await victimIn(project);
    const token = { accessToken: victim.accessToken };
    const init = await project.client.post('/auth/passkey/initiate-passkey-registration', {}, token);
    expect(init.status).toBe(200);
    // The SDK puts the page's hostname in place of the RP id placeholder.
    const optionsJSON = { ...init.body.options_json, rp: { ...init.body.options_json.rp, id: 'localhost' } };
    const credential = await softAuthenticator('http://localhost:4321').startRegistration({ optionsJSON } as never);
    let t0 = Date.now();
    expect((await project.client.post('/auth/passkey/register', { credential, code: init.body.code }, token)).status).toBe(200);
    await svc.mailbox.waitForMail(since(t0, victim.email, 'A passkey was added'));
    t0 = Date.now();
    expect((await project.client.patch('/users/me', { passkey_auth_enabled: false }, token)).status).toBe(200);
    await svc.mailbox.waitForMail(since(t0, victim.email, 'A passkey was removed'));
  });
});

test('GATEHOUSE_RECENT_SIGN_IN_SECONDS: 15 minutes by default; a bad value stops the start', () => {
  expect(loadConfig({}).recentSignInSeconds).toBe(900);
  expect(loadConfig({ GATEHOUSE_RECENT_SIGN_IN_SECONDS: '60' }).recentSignInSeconds).toBe(60);
  for (const bad of ['0', '-5', '1.5', 'soon']) {
    expect(() => loadConfig({ GATEHOUSE_RECENT_SIGN_IN_SECONDS: bad })).toThrow(/GATEHOUSE_RECENT_SIGN_IN_SECONDS/);
  }
});
