// Issue 30 (ASVS 2.5.5, 2.2.3): the account's verified addresses hear when TOTP is turned on (or its app replaced),
// when sign-in codes are turned off, and (a project setting, on by default) of a sign-in from a device the account
// never signed in from. Mail goes through the shared service's real SMTP server.
import { describe, expect, test } from 'bun:test';
import * as OTPAuth from 'otpauth';
import { newProject, signUp, type TestProject } from './support/projects';
import { setupSuite } from './support/suite';
import type { ReceivedMail } from './support/smtp';

const { svc, p } = await setupSuite();
const since = (t0: number, to: string, subject: string) => (m: ReceivedMail) => m.to.includes(to) && m.receivedAt >= t0 && m.subject.startsWith(subject);
const FIREFOX_LINUX = (v: string) => `Mozilla/5.0 (X11; Linux x86_64; rv:${v}) Gecko/20100101 Firefox/${v}`;
const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A user whose sign-up address is verified (notices go to verified addresses only). */
async function verifiedUser(project: TestProject) {
  const u = await signUp(project);
  expect((await project.server.patch(`/users/${u.userId}`, { primary_email_verified: true })).status).toBe(200);
  return u;
}

async function signInWith(project: TestProject, u: { email: string; password: string }, userAgent: string) {
  const res = await project.client.post('/auth/password/sign-in', { email: u.email, password: u.password }, { headers: { 'user-agent': userAgent } });
  expect(res.status).toBe(200);
  return res.body.access_token as string;
}

/** No mail matching `match` within the activity flush (1 s) plus the outbox's round. */
async function noMailWithin(match: (m: ReceivedMail) => boolean, ms = 3_000) {
  await Bun.sleep(ms);
  expect(svc.mailbox.messages.filter(match).map((m) => m.text)).toEqual([]);
}

describe('TOTP and sign-in codes', () => {
  test('TOTP turned on, its app replaced, and sign-in codes turned off are each noticed', async () => {
    const project = await newProject(svc, { config: { magic_link_enabled: true } });
    const u = await verifiedUser(project);
    const token = { accessToken: u.accessToken };
    const secret = () => Buffer.from(new OTPAuth.Secret({ size: 20 }).bytes).toString('base64');
    let t0 = Date.now();
    expect((await project.client.patch('/users/me', { totp_secret_base64: secret() }, token)).status).toBe(200);
    const on = await svc.mailbox.waitForMail(since(t0, u.email, 'Two-factor authentication was turned on'));
    expect(on.text).toContain('was turned on for your Test project account');
    expect(on.html).not.toContain('href=');
    t0 = Date.now();
    expect((await project.client.patch('/users/me', { totp_secret_base64: secret() }, token)).status).toBe(200);
    await svc.mailbox.waitForMail(since(t0, u.email, 'Two-factor authentication was turned on'));

    expect((await project.server.patch(`/users/${u.userId}`, { otp_auth_enabled: true })).status).toBe(200);
    t0 = Date.now();
    expect((await project.client.patch('/users/me', { otp_auth_enabled: false }, token)).status).toBe(200);
    const off = await svc.mailbox.waitForMail(since(t0, u.email, 'Sign-in codes were turned off'));
    expect(off.text).toContain('Signing in with a code sent by email was turned off');
  });

  test('a change that turns nothing on or off sends nothing', async () => {
    const u = await verifiedUser(p);
    const t0 = Date.now();
    expect((await p.client.patch('/users/me', { display_name: 'Quiet', otp_auth_enabled: false }, { accessToken: u.accessToken })).status).toBe(200);
    await noMailWithin((m) => m.to.includes(u.email) && m.receivedAt >= t0, 1_500);
  });
});

describe('sign-in from a new device', () => {
  test('noticed with the browser, system and address; the same browser after an update is no new device', async () => {
    const project = await newProject(svc);
    const u = await verifiedUser(project);
    // The sign-up's device (the test client's) is the account's first: known from then on, never noticed.
    await signInWith(project, u, FIREFOX_LINUX('128.0'));
    const notice = await svc.mailbox.waitForMail(since(Date.now() - 5_000, u.email, 'New sign-in to your Test project account'));
    expect(notice.text).toContain('Firefox on Linux');
    expect(notice.text).toMatch(/IP address (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)/);
    expect(svc.mailbox.messages.filter(since(0, u.email, 'New sign-in'))).toHaveLength(1);

    await signInWith(project, u, FIREFOX_LINUX('133.0'));
    await Bun.sleep(3_000);
    expect(svc.mailbox.messages.filter(since(0, u.email, 'New sign-in'))).toHaveLength(1);
  });

  test("a session the project's server makes for the user is no sign-in from a new device", async () => {
    const project = await newProject(svc);
    const u = await verifiedUser(project);
    const made = await project.server.post('/auth/sessions', { user_id: u.userId, expires_in_millis: 60_000 }, { headers: { 'user-agent': CHROME_WINDOWS } });
    expect(made.status).toBe(200);
    await noMailWithin(since(0, u.email, 'New sign-in'));
  });

  test('a project that turns the notice off sends none', async () => {
    const project = await newProject(svc);
    expect((await project.admin.patch('/internal/security-settings', { new_device_sign_in_notice_enabled: false })).status).toBe(200);
    const u = await verifiedUser(project);
    const t0 = Date.now();
    await signInWith(project, u, CHROME_WINDOWS);
    await noMailWithin(since(t0, u.email, 'New sign-in'));
  });
});
