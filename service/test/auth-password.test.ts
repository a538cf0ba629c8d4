// Password sign-up, sign-in, update and set (protocol-auth §3.1).
import { describe, expect, test } from 'bun:test';
import { expectKnownError, uniqueEmail } from './support/service';
import { newProject, signUp } from './support/projects';
import { setupSuite } from './support/suite';

const { svc, p } = await setupSuite();

const schemaLine = (res: { body: any }) => res.body.error.split('\n').slice(1);

describe('POST /auth/password/sign-up', () => {
  test('creates the user and a session: {access_token, refresh_token, user_id}', async () => {
    const email = uniqueEmail();
    const res = await p.client.post('/auth/password/sign-up', { email, password: 'password-123', verification_callback_url: 'https://untrusted.example.com/verify' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'refresh_token', 'user_id']);
    expect(res.body.refresh_token).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
    const me = await p.server.get(`/users/${res.body.user_id}`);
    expect(me.body).toMatchObject({ primary_email: email, primary_email_verified: false, primary_email_auth_enabled: true, has_password: true });
    // Sign-up works with every access type.
    expect((await p.server.post('/auth/password/sign-up', { email: uniqueEmail(), password: 'password-123' })).status).toBe(200);
    expect((await p.admin.post('/auth/password/sign-up', { email: uniqueEmail(), password: 'password-123' })).status).toBe(200);
  });

  test('PASSWORD_TOO_SHORT with min_length; more than 70 characters is a schema error', async () => {
    const short = await p.client.post('/auth/password/sign-up', { email: uniqueEmail(), password: '1234567' });
    expectKnownError(short, 'PASSWORD_TOO_SHORT', 400);
    expect(short.body).toEqual({ code: 'PASSWORD_TOO_SHORT', details: { min_length: 8 }, error: 'Password too short. Minimum length is 8.' });
    expect((await p.client.post('/auth/password/sign-up', { email: uniqueEmail(), password: 'q7#kR2!m' })).status).toBe(200); // 8 characters (12345678 is refused as common, issue 17 §5)
    expect((await p.client.post('/auth/password/sign-up', { email: uniqueEmail(), password: 'x'.repeat(70) })).status).toBe(200);
    const long = await p.client.post('/auth/password/sign-up', { email: uniqueEmail(), password: 'x'.repeat(71) });
    expectKnownError(long, 'SCHEMA_ERROR', 400);
    expect(schemaLine(long)).toEqual(['  - body.password must be at most 70 characters']);
  });

  test('a password of 70 characters but many UTF-8 bytes works (no bcrypt 72-byte limit)', async () => {
    const email = uniqueEmail();
    const password = 'ü'.repeat(70);
    expect((await p.client.post('/auth/password/sign-up', { email, password })).status).toBe(200);
    expect((await p.client.post('/auth/password/sign-in', { email, password })).status).toBe(200);
    expectKnownError(await p.client.post('/auth/password/sign-in', { email, password: 'ü'.repeat(69) + 'u' }), 'EMAIL_PASSWORD_MISMATCH', 400);
  });

  test('strict email: dot after @, last label ≥ 2 characters, no leading dot', async () => {
    for (const email of ['plain', 'a@b', 'a@b.c', '.a@b.com', 'a b@c.com', '']) {
      const res = await p.client.post('/auth/password/sign-up', { email, password: 'password-123' });
      expectKnownError(res, 'SCHEMA_ERROR', 400);
      expect(schemaLine(res)).toEqual(['  - body.email must be a valid email']);
    }
    expect((await p.client.post('/auth/password/sign-up', { email: `x.y+tag-${crypto.randomUUID().slice(0, 6)}@sub.example.co`, password: 'password-123' })).status).toBe(200);
  });

  test('order of checks: password auth → too short → sign-up enabled → email exists', async () => {
    const noPassword = await newProject(svc, { config: { credential_enabled: false, sign_up_enabled: false } });
    const res = await noPassword.client.post('/auth/password/sign-up', { email: uniqueEmail(), password: '1' });
    expectKnownError(res, 'PASSWORD_AUTHENTICATION_NOT_ENABLED', 400);
    expect(res.body.error).toBe('Password authentication is not enabled for this project.');

    const noSignUp = await newProject(svc, { config: { sign_up_enabled: false } });
    expectKnownError(await noSignUp.client.post('/auth/password/sign-up', { email: uniqueEmail(), password: '1' }), 'PASSWORD_TOO_SHORT', 400);
    const closed = await noSignUp.client.post('/auth/password/sign-up', { email: uniqueEmail(), password: 'password-123' });
    expectKnownError(closed, 'SIGN_UP_NOT_ENABLED', 400);
    expect(closed.body.error).toBe('Creation of new accounts is not enabled for this project. Please ask the project owner to enable it.');
    // Servers can still create users there.
    expect((await noSignUp.server.post('/users', { primary_email: uniqueEmail(), primary_email_auth_enabled: true })).status).toBe(201);

    const u = await signUp(p);
    expectKnownError(await p.client.post('/auth/password/sign-up', { email: u.email, password: '1' }), 'PASSWORD_TOO_SHORT', 400);
    const exists = await p.client.post('/auth/password/sign-up', { email: u.email, password: 'password-123' });
    expectKnownError(exists, 'USER_EMAIL_ALREADY_EXISTS', 409);
    expect(exists.body.details).toEqual({ email: u.email });
    expect(exists.body.error).toBe(`A user with email "${u.email}" already exists.`);
  });

  test('emails are compared exactly (no case folding)', async () => {
    const u = await signUp(p, { email: `Case-${crypto.randomUUID().slice(0, 6)}@Example.com` });
    const lower = await p.client.post('/auth/password/sign-up', { email: u.email.toLowerCase(), password: 'password-123' });
    expect(lower.status).toBe(200);
    expect(lower.body.user_id).not.toBe(u.userId);
  });

  test('an email used only as a non-auth contact does not conflict', async () => {
    const email = uniqueEmail();
    expect((await p.server.post('/users', { primary_email: email, primary_email_auth_enabled: false })).status).toBe(201);
    expect((await p.client.post('/auth/password/sign-up', { email, password: 'password-123' })).status).toBe(200);
  });

  test('20 parallel sign-ups with the same email: exactly one succeeds, the rest USER_EMAIL_ALREADY_EXISTS', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all(Array.from({ length: 20 }, () => p.client.post('/auth/password/sign-up', { email, password: 'password-123' })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expectKnownError(r, 'USER_EMAIL_ALREADY_EXISTS', 409);
    const list = await p.server.get(`/users?query=${encodeURIComponent(email)}`);
    expect(list.body.items).toHaveLength(1);
  });
});

describe('POST /auth/password/sign-in', () => {
  test('signs in with a new session each time', async () => {
    const u = await signUp(p);
    const res = await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'refresh_token', 'user_id']);
    expect(res.body.user_id).toBe(u.userId);
    expect(res.body.refresh_token).not.toBe(u.refreshToken);
    const sessions = await p.client.get('/auth/sessions?user_id=me', { accessToken: res.body.access_token });
    expect(sessions.body.items).toHaveLength(2);
  });

  test('unknown email, wrong password and a user without password ⇒ EMAIL_PASSWORD_MISMATCH', async () => {
    const u = await signUp(p);
    const noPassword = uniqueEmail();
    await p.server.post('/users', { primary_email: noPassword, primary_email_auth_enabled: true });
    const notForAuth = uniqueEmail();
    await p.server.post('/users', { primary_email: notForAuth, password: 'password-123' });
    for (const body of [
      { email: uniqueEmail(), password: 'password-123' },
      { email: u.email, password: 'wrong-password' },
      { email: noPassword, password: 'password-123' },
      { email: notForAuth, password: 'password-123' },
    ]) {
      const res = await p.client.post('/auth/password/sign-in', body);
      expectKnownError(res, 'EMAIL_PASSWORD_MISMATCH', 400);
      expect(res.body.error).toBe('Wrong e-mail or password.');
    }
  });

  test('password auth disabled ⇒ PASSWORD_AUTHENTICATION_NOT_ENABLED', async () => {
    const off = await newProject(svc, { config: { credential_enabled: false } });
    expectKnownError(await off.client.post('/auth/password/sign-in', { email: uniqueEmail(), password: 'password-123' }), 'PASSWORD_AUTHENTICATION_NOT_ENABLED', 400);
  });

  test('a plain email check on sign-in, and the password length limit', async () => {
    const res = await p.client.post('/auth/password/sign-in', { email: 'nope', password: 'x'.repeat(71) });
    expectKnownError(res, 'SCHEMA_ERROR', 400);
    expect(schemaLine(res).sort()).toEqual(['  - body.email must be a valid email', '  - body.password must be at most 70 characters']);
  });
});

describe('POST /auth/password/update', () => {
  test('changes the password and ends every other session', async () => {
    const u = await signUp(p);
    const other = await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password });
    const res = await p.client.post('/auth/password/update', { old_password: u.password, new_password: 'new-password-1' }, { accessToken: u.accessToken, refreshToken: u.refreshToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await p.client.post('/auth/sessions/current/refresh', undefined, { refreshToken: u.refreshToken })).status).toBe(200);
    expectKnownError(await p.client.post('/auth/sessions/current/refresh', undefined, { refreshToken: other.body.refresh_token }), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    expectKnownError(await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password }), 'EMAIL_PASSWORD_MISMATCH', 400);
    expect((await p.client.post('/auth/password/sign-in', { email: u.email, password: 'new-password-1' })).status).toBe(200);
  });

  test('without x-stack-refresh-token every session ends, the current one too', async () => {
    const u = await signUp(p);
    const res = await p.client.post('/auth/password/update', { old_password: u.password, new_password: 'new-password-1' }, { accessToken: u.accessToken });
    expect(res.status).toBe(200);
    expectKnownError(await p.client.post('/auth/sessions/current/refresh', undefined, { refreshToken: u.refreshToken }), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
  });

  test("another user's refresh token does not spare anything", async () => {
    const u = await signUp(p);
    const v = await signUp(p);
    await p.client.post('/auth/password/update', { old_password: u.password, new_password: 'new-password-1' }, { accessToken: u.accessToken, refreshToken: v.refreshToken });
    expectKnownError(await p.client.post('/auth/sessions/current/refresh', undefined, { refreshToken: u.refreshToken }), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    expect((await p.client.post('/auth/sessions/current/refresh', undefined, { refreshToken: v.refreshToken })).status).toBe(200);
  });

  test('order of checks: user → too short → has password → old password', async () => {
    const noUser = await p.client.post('/auth/password/update', { old_password: 'x', new_password: 'y' });
    expectKnownError(noUser, 'SCHEMA_ERROR', 400);
    expect(noUser.body.error).toBe('Request validation failed on POST /api/v1/auth/password/update:\n  - auth.user must be defined');

    const u = await signUp(p);
    const short = await p.client.post('/auth/password/update', { old_password: 'wrong', new_password: 'short' }, { accessToken: u.accessToken });
    expectKnownError(short, 'PASSWORD_TOO_SHORT', 400);
    const mismatch = await p.client.post('/auth/password/update', { old_password: 'wrong-password', new_password: 'new-password-1' }, { accessToken: u.accessToken });
    expectKnownError(mismatch, 'PASSWORD_CONFIRMATION_MISMATCH', 400);
    expect(mismatch.body.error).toBe('Passwords do not match.');

    const created = await p.server.post('/users', { primary_email: uniqueEmail(), primary_email_auth_enabled: true });
    const session = await p.server.post('/auth/sessions', { user_id: created.body.id });
    const none = await p.client.post('/auth/password/update', { old_password: 'anything', new_password: 'new-password-1' }, { accessToken: session.body.access_token });
    expectKnownError(none, 'USER_DOES_NOT_HAVE_PASSWORD', 400);
    expect(none.body.error).toBe('This user does not have password authentication enabled.');
  });
});

describe('POST /auth/password/set', () => {
  test('sets a password for a user without one; a second time ⇒ 400 text', async () => {
    const email = uniqueEmail();
    const created = await p.server.post('/users', { primary_email: email, primary_email_auth_enabled: true });
    const session = await p.server.post('/auth/sessions', { user_id: created.body.id });
    const token = session.body.access_token;

    expectKnownError(await p.client.post('/auth/password/set', { password: 'short' }, { accessToken: token }), 'PASSWORD_TOO_SHORT', 400);
    const res = await p.client.post('/auth/password/set', { password: 'first-password' }, { accessToken: token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await p.client.post('/auth/password/sign-in', { email, password: 'first-password' })).status).toBe(200);
    // No session was revoked.
    expect((await p.client.post('/auth/sessions/current/refresh', undefined, { refreshToken: session.body.refresh_token })).status).toBe(200);

    const again = await p.client.post('/auth/password/set', { password: 'second-password' }, { accessToken: token });
    expect(again.status).toBe(400);
    expect(again.headers.get('x-stack-known-error')).toBeNull();
    expect(again.text).toBe('User already has a password set.');
  });

  test('needs a signed-in user and enabled password auth', async () => {
    const res = await p.client.post('/auth/password/set', { password: 'first-password' });
    expect(res.body.error).toBe('Request validation failed on POST /api/v1/auth/password/set:\n  - auth.user must be defined');
    const off = await newProject(svc, { config: { credential_enabled: false } });
    const user = await off.server.post('/users', {});
    const session = await off.server.post('/auth/sessions', { user_id: user.body.id });
    expectKnownError(await off.client.post('/auth/password/set', { password: 'first-password' }, { accessToken: session.body.access_token }), 'PASSWORD_AUTHENTICATION_NOT_ENABLED', 400);
  });
});
