// A project's security settings (issue 30): `/internal/security-settings` (admin only), apart from the protocol's
// project config, whose admin view stays as Stack's clients know it.
import { describe, expect, test } from 'bun:test';
import { expectKnownError } from './support/service';
import { newProject, signUp } from './support/projects';
import { extractCode } from './support/smtp';
import { setupSuite } from './support/suite';

const { svc } = await setupSuite();

describe('/internal/security-settings', () => {
  test("defaults keep Stack's behaviour (the new-device notice is on); admins change what they name, within bounds", async () => {
    const p = await newProject(svc);
    expect((await p.admin.get('/internal/security-settings')).body).toEqual({
      new_device_sign_in_notice_enabled: true, password_min_length: 8, session_lifetime_seconds: 31_536_000, session_idle_timeout_seconds: null,
    });
    const set = { new_device_sign_in_notice_enabled: false, password_min_length: 12, session_lifetime_seconds: 86_400, session_idle_timeout_seconds: 3_600 };
    const res = await p.ownerAdmin.patch('/internal/security-settings', set);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(set);
    expect((await p.admin.patch('/internal/security-settings', { session_idle_timeout_seconds: null })).body).toEqual({ ...set, session_idle_timeout_seconds: null });
    // A project config change leaves them alone, and the admin view of the project does not show them.
    const project = await p.admin.patch('/projects/current', { config: { sign_up_enabled: false } });
    expect(project.body.config).not.toHaveProperty('password_min_length');
    expect((await p.admin.get('/internal/security-settings')).body.password_min_length).toBe(12);
    for (const body of [{ password_min_length: 7 }, { password_min_length: 71 }, { session_lifetime_seconds: 10 }, { session_idle_timeout_seconds: 0 }, { other: 1 }]) {
      expectKnownError(await p.admin.patch('/internal/security-settings', body), 'SCHEMA_ERROR', 400);
    }
  });

  test('client and server access are refused; another project is untouched', async () => {
    const p = await newProject(svc);
    const other = await newProject(svc);
    const u = await signUp(p);
    expectKnownError(await p.client.get('/internal/security-settings', { accessToken: u.accessToken }), 'INSUFFICIENT_ACCESS_TYPE', 401);
    expectKnownError(await p.server.patch('/internal/security-settings', { password_min_length: 20 }), 'INSUFFICIENT_ACCESS_TYPE', 401);
    await p.admin.patch('/internal/security-settings', { password_min_length: 20 });
    expect((await other.admin.get('/internal/security-settings')).body.password_min_length).toBe(8);
  });
});

describe('minimum password length (ASVS 2.1.1)', () => {
  const tooShort = (min: number) => ({ code: 'PASSWORD_TOO_SHORT', details: { min_length: min }, error: `Password too short. Minimum length is ${min}.` });

  test('a project asking for 12 refuses shorter passwords at sign-up, set, update and reset with PASSWORD_TOO_SHORT', async () => {
    const p = await newProject(svc);
    expect((await p.admin.patch('/internal/security-settings', { password_min_length: 12 })).status).toBe(200);
    const email = `min-${crypto.randomUUID()}@example.com`;
    const short = await p.client.post('/auth/password/sign-up', { email, password: 'eleven-char' });
    expect(short.status).toBe(400);
    expect(short.body).toEqual(tooShort(12));
    const u = await signUp(p, { email, password: 'twelve-chars' });

    const update = await p.client.post('/auth/password/update', { old_password: u.password, new_password: 'short-pass1' }, { accessToken: u.accessToken });
    expect(update.body).toEqual(tooShort(12));
    expect((await p.client.post('/auth/password/update', { old_password: u.password, new_password: 'long-enough-1' }, { accessToken: u.accessToken })).status).toBe(200);

    // A user without a password (made by the server) sets a first one.
    const bare = await p.server.post('/users', { primary_email: `bare-${crypto.randomUUID()}@example.com` });
    const session = await p.server.post('/auth/sessions', { user_id: bare.body.id, expires_in_millis: 60_000 });
    expect((await p.client.post('/auth/password/set', { password: 'short-pass1' }, { accessToken: session.body.access_token })).body).toEqual(tooShort(12));

    const t0 = Date.now();
    expect((await p.client.post('/auth/password/send-reset-code', { email, callback_url: 'http://localhost:12345/cb' })).status).toBe(200);
    const mail = await svc.mailbox.waitForMail((m) => m.to.includes(email) && m.receivedAt >= t0 && m.subject.startsWith('Reset'));
    const code = extractCode(mail)!;
    expect((await p.client.post('/auth/password/reset', { code, password: 'short-pass1' })).body).toEqual(tooShort(12));
    // The code was not spent on the refused password.
    expect((await p.client.post('/auth/password/reset', { code, password: 'a-long-new-password' })).status).toBe(200);
  });

  test("the default is Stack's 8", async () => {
    const p = await newProject(svc);
    expect((await p.client.post('/auth/password/sign-up', { email: `d-${crypto.randomUUID()}@example.com`, password: 'seven-7' })).body).toEqual(tooShort(8));
    expect((await p.client.post('/auth/password/sign-up', { email: `d-${crypto.randomUUID()}@example.com`, password: 'eight-88' })).status).toBe(200);
  });
});
