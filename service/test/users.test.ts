// Users over HTTP (protocol-resources §1, protocol-auth §6.1–6.2): /users/me for every access type, the writable
// fields per access type, server user management, password_hash import, email uniqueness, listing.
import { beforeAll, describe, expect, test } from 'bun:test';
import bcrypt from 'bcryptjs';
import { expectKnownError, uniqueEmail } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { setupSuite } from './support/suite';

const CLIENT_KEYS = [
  'auth_with_email', 'client_metadata', 'client_read_only_metadata', 'display_name', 'has_password', 'id', 'is_anonymous',
  'oauth_providers', 'otp_auth_enabled', 'passkey_auth_enabled', 'primary_email', 'primary_email_verified', 'profile_image_url',
  'requires_totp_mfa', 'selected_team', 'selected_team_id', 'signed_up_at_millis',
];
const SERVER_KEYS = [...CLIENT_KEYS, 'last_active_at_millis', 'primary_email_auth_enabled', 'server_metadata'].sort();
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const { svc, p } = await setupSuite();

const schemaMessage = (method: string, path: string, ...lines: string[]) =>
  `Request validation failed on ${method} /api/v1${path}:\n${lines.map((l) => `  - ${l}`).join('\n')}`;

describe('/users/me', () => {
  test('client view: exactly the 17 keys, values after password sign-up', async () => {
    const before = Date.now();
    const u = await signUp(p);
    const res = await p.client.get('/users/me', { accessToken: u.accessToken });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([...CLIENT_KEYS].sort());
    expect(res.body).toEqual({
      auth_with_email: true, client_metadata: null, client_read_only_metadata: null, display_name: null,
      has_password: true, id: u.userId, is_anonymous: false, oauth_providers: [], otp_auth_enabled: false,
      passkey_auth_enabled: false, primary_email: u.email, primary_email_verified: false, profile_image_url: null,
      requires_totp_mfa: false, selected_team: null, selected_team_id: null, signed_up_at_millis: res.body.signed_up_at_millis,
    });
    expect(res.body.signed_up_at_millis).toBeGreaterThanOrEqual(before - 1000);
    expect(res.body.signed_up_at_millis).toBeLessThanOrEqual(Date.now() + 1000);
  });

  test('server and admin view: exactly the 20 keys', async () => {
    const u = await signUp(p);
    for (const api of [p.server, p.admin, p.ownerAdmin]) {
      const res = await api.get('/users/me', { accessToken: u.accessToken });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(SERVER_KEYS);
      expect(res.body.primary_email_auth_enabled).toBe(true);
      expect(res.body.server_metadata).toBeNull();
      expect(res.body.last_active_at_millis).toBeGreaterThanOrEqual(res.body.signed_up_at_millis);
    }
  });

  test('without a user ⇒ CANNOT_GET_OWN_USER_WITHOUT_USER; a refresh token alone is not enough', async () => {
    const u = await signUp(p);
    for (const api of [p.client, p.server, p.admin]) {
      const res = await api.get('/users/me', { refreshToken: u.refreshToken });
      expectKnownError(res, 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
      expect(res.body.error).toBe("You have specified 'me' as a userId, but did not provide authentication for a user.");
      expectKnownError(await api.patch('/users/me', { display_name: 'x' }), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
      expectKnownError(await api.delete('/users/me'), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    }
  });

  test('client PATCH: client-writable fields; display_name "" becomes null', async () => {
    const u = await signUp(p);
    const res = await p.client.patch('/users/me', {
      display_name: 'Ada', client_metadata: { theme: 'dark', list: [1, 2], nested: { a: null } }, profile_image_url: PNG,
    }, { accessToken: u.accessToken });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([...CLIENT_KEYS].sort());
    expect(res.body.display_name).toBe('Ada');
    expect(res.body.client_metadata).toEqual({ theme: 'dark', list: [1, 2], nested: { a: null } });
    expect(res.body.profile_image_url).toBe(PNG);

    const cleared = await p.client.patch('/users/me', { display_name: '', client_metadata: null }, { accessToken: u.accessToken });
    expect(cleared.body.display_name).toBeNull();
    expect(cleared.body.client_metadata).toBeNull();
    expect(cleared.body.profile_image_url).toBe(PNG);

    // Non-object JSON is metadata too.
    const scalar = await p.client.patch('/users/me', { client_metadata: 'just a string' }, { accessToken: u.accessToken });
    expect(scalar.body.client_metadata).toBe('just a string');
  });

  test('client sending server fields ⇒ SCHEMA_ERROR unknown properties', async () => {
    const u = await signUp(p);
    const res = await p.client.patch('/users/me', { display_name: 'x', client_read_only_metadata: {}, server_metadata: {} }, { accessToken: u.accessToken });
    expectKnownError(res, 'SCHEMA_ERROR', 400);
    expect(res.body.error).toBe(schemaMessage('PATCH', '/users/me', 'body contains unknown properties: client_read_only_metadata, server_metadata'));
    for (const field of ['primary_email', 'password', 'password_hash', 'primary_email_verified', 'is_anonymous']) {
      const r = await p.client.patch('/users/me', { [field]: null }, { accessToken: u.accessToken });
      expect(r.body.error).toBe(schemaMessage('PATCH', '/users/me', `body contains unknown properties: ${field}`));
    }
    // Nothing was written.
    expect((await p.client.get('/users/me', { accessToken: u.accessToken })).body.display_name).toBeNull();
  });

  test('server PATCH /users/me: server-writable fields and metadata tiers', async () => {
    const u = await signUp(p);
    const res = await p.server.patch('/users/me', {
      client_read_only_metadata: { plan: 'pro' }, server_metadata: { secret: 1 }, client_metadata: { c: true },
    }, { accessToken: u.accessToken });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(SERVER_KEYS);
    expect(res.body).toMatchObject({ client_read_only_metadata: { plan: 'pro' }, server_metadata: { secret: 1 }, client_metadata: { c: true } });

    const client = await p.client.get('/users/me', { accessToken: u.accessToken });
    expect(client.body.client_read_only_metadata).toEqual({ plan: 'pro' });
    expect(client.body.client_metadata).toEqual({ c: true });
    expect('server_metadata' in client.body).toBe(false);
  });

  test('profile image: clients may only store base64 image data URLs, up to 1,000,000 characters', async () => {
    const u = await signUp(p);
    for (const url of ['https://example.com/a.png', 'data:text/plain;base64,aGVsbG8=', 'data:image/svg+xml;base64,PHN2Zz4=']) {
      const res = await p.client.patch('/users/me', { profile_image_url: url }, { accessToken: u.accessToken });
      expect(res.status).toBe(400);
      expect(res.headers.get('x-stack-known-error')).toBeNull();
      expect(res.text).toBe('Invalid profile image URL');
    }
    for (const subtype of ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'webp']) {
      const res = await p.client.patch('/users/me', { profile_image_url: `data:image/${subtype};base64,AAAA` }, { accessToken: u.accessToken });
      expect(res.status).toBe(200);
    }
    const tooLong = await p.client.patch('/users/me', { profile_image_url: `data:image/png;base64,${'A'.repeat(1_000_000)}` }, { accessToken: u.accessToken });
    expectKnownError(tooLong, 'SCHEMA_ERROR', 400);
    expect(tooLong.body.error).toBe(schemaMessage('PATCH', '/users/me', 'body.profile_image_url must be at most 1000000 characters'));

    const atLimit = `data:image/png;base64,${'A'.repeat(1_000_000 - 22)}`;
    expect(atLimit.length).toBe(1_000_000);
    expect((await p.client.patch('/users/me', { profile_image_url: atLimit }, { accessToken: u.accessToken })).status).toBe(200);

    for (const [url, line] of [['', 'body.profile_image_url is not a valid URL'], ['not a url', 'body.profile_image_url contains spaces']] as const) {
      const bad = await p.client.patch('/users/me', { profile_image_url: url }, { accessToken: u.accessToken });
      expectKnownError(bad, 'SCHEMA_ERROR', 400);
      expect(bad.body.error.split('\n')).toContain(`  - ${line}`);
    }

    // Servers may store any URL; null clears.
    const server = await p.server.patch(`/users/${u.userId}`, { profile_image_url: 'https://example.com/a.png' });
    expect(server.body.profile_image_url).toBe('https://example.com/a.png');
    expect((await p.client.patch('/users/me', { profile_image_url: null }, { accessToken: u.accessToken })).body.profile_image_url).toBeNull();
  });

  test('totp_secret_base64: valid base64 enables TOTP MFA, null disables it, invalid is a schema error', async () => {
    const u = await signUp(p);
    const on = await p.client.patch('/users/me', { totp_secret_base64: Buffer.from('12345678901234567890').toString('base64') }, { accessToken: u.accessToken });
    expect(on.status).toBe(200);
    expect(on.body.requires_totp_mfa).toBe(true);
    // Sign-in now asks for the second factor.
    const signIn = await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password });
    expectKnownError(signIn, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400);
    expect(signIn.body.details.attempt_code).toHaveLength(45);

    const off = await p.client.patch('/users/me', { totp_secret_base64: null }, { accessToken: u.accessToken });
    expect(off.body.requires_totp_mfa).toBe(false);

    const bad = await p.client.patch('/users/me', { totp_secret_base64: 'not base64!' }, { accessToken: u.accessToken });
    expectKnownError(bad, 'SCHEMA_ERROR', 400);
    expect(bad.body.error).toBe(schemaMessage('PATCH', '/users/me', 'body.totp_secret_base64 is not valid base64'));
  });

  test('passkey_auth_enabled true ⇒ 400; otp_auth_enabled is a no-op without magic links', async () => {
    const u = await signUp(p);
    const res = await p.client.patch('/users/me', { passkey_auth_enabled: true }, { accessToken: u.accessToken });
    expect(res.status).toBe(400);
    expect(res.text).toBe('Cannot manually enable passkey auth, it is enabled iff there is a passkey auth method');
    const otp = await p.client.patch('/users/me', { otp_auth_enabled: true, passkey_auth_enabled: false }, { accessToken: u.accessToken });
    expect(otp.status).toBe(200);
    expect(otp.body.otp_auth_enabled).toBe(false);
  });

  test('selected_team_id must be a team of the user', async () => {
    const tp = await newProject(svc, { config: { create_team_on_sign_up: true } });
    const a = await signUp(tp);
    const b = await signUp(tp);
    const aMe = await tp.client.get('/users/me', { accessToken: a.accessToken });
    const bMe = await tp.client.get('/users/me', { accessToken: b.accessToken });
    expect(aMe.body.selected_team).toMatchObject({ id: aMe.body.selected_team_id, display_name: `${a.email}'s Team` });
    expect(Object.keys(aMe.body.selected_team).sort()).toEqual(['client_metadata', 'client_read_only_metadata', 'display_name', 'id', 'profile_image_url']);

    const res = await tp.client.patch('/users/me', { selected_team_id: bMe.body.selected_team_id }, { accessToken: a.accessToken });
    expectKnownError(res, 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    expectKnownError(await tp.client.patch('/users/me', { selected_team_id: crypto.randomUUID() }, { accessToken: a.accessToken }), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    expect((await tp.client.get('/users/me', { accessToken: a.accessToken })).body.selected_team_id).toBe(aMe.body.selected_team_id);

    const cleared = await tp.client.patch('/users/me', { selected_team_id: null }, { accessToken: a.accessToken });
    expect(cleared.body).toMatchObject({ selected_team_id: null, selected_team: null });
    const back = await tp.server.patch(`/users/${a.userId}`, { selected_team_id: aMe.body.selected_team_id });
    expect(back.body.selected_team_id).toBe(aMe.body.selected_team_id);
    expect(Object.keys(back.body.selected_team).sort()).toEqual(['client_metadata', 'client_read_only_metadata', 'created_at_millis', 'display_name', 'id', 'profile_image_url', 'server_metadata']);

    const bad = await tp.client.patch('/users/me', { selected_team_id: 'nope' }, { accessToken: a.accessToken });
    expect(bad.body.error).toBe(schemaMessage('PATCH', '/users/me', 'body.selected_team_id must be a valid UUID'));
  });

  test('DELETE /users/me: clients only when client user deletion is enabled', async () => {
    const u = await signUp(p);
    const res = await p.client.delete('/users/me', { accessToken: u.accessToken });
    expect(res.status).toBe(400);
    expect(res.text).toBe('Client user deletion is not enabled for this project');
    expect((await p.server.get(`/users/${u.userId}`)).status).toBe(200);

    const dp = await newProject(svc, { config: { client_user_deletion_enabled: true } });
    const d = await signUp(dp);
    const deleted = await dp.client.delete('/users/me', { accessToken: d.accessToken });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    expectKnownError(await dp.server.get(`/users/${d.userId}`), 'USER_NOT_FOUND', 404);
    // The sessions ended with the user: the access token is refused at once (issue 17 §2, revocation.test.ts).
    expectKnownError(await dp.client.get('/users/me', { accessToken: d.accessToken }), 'ACCESS_TOKEN_EXPIRED', 401);
    // Sessions went with the user.
    expectKnownError(await dp.client.post('/auth/sessions/current/refresh', undefined, { refreshToken: d.refreshToken }), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);

    // Server access may always delete the signed-in user.
    const s = await signUp(p);
    expect((await p.server.delete('/users/me', { accessToken: s.accessToken })).body).toEqual({ success: true });
    expectKnownError(await p.server.get(`/users/${s.userId}`), 'USER_NOT_FOUND', 404);
  });
});

describe('server user management', () => {
  test('POST /users ⇒ 201 server view; GET, PATCH, DELETE by id and by me', async () => {
    const email = uniqueEmail();
    const created = await p.server.post('/users', {
      display_name: 'Grace', primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true,
      client_metadata: { a: 1 }, client_read_only_metadata: { b: 2 }, server_metadata: { c: 3 }, profile_image_url: 'https://example.com/g.png',
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(SERVER_KEYS);
    expect(created.body).toMatchObject({
      display_name: 'Grace', primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true,
      client_metadata: { a: 1 }, client_read_only_metadata: { b: 2 }, server_metadata: { c: 3 }, has_password: false,
      auth_with_email: false, is_anonymous: false, oauth_providers: [], last_active_at_millis: created.body.signed_up_at_millis,
    });
    const id = created.body.id as string;

    const got = await p.server.get(`/users/${id}`);
    expect(got.body).toEqual(created.body);

    const patched = await p.admin.patch(`/users/${id}`, { display_name: 'Grace H.', server_metadata: null, primary_email_verified: false });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ display_name: 'Grace H.', server_metadata: null, primary_email_verified: false, client_read_only_metadata: { b: 2 } });

    const session = await p.server.post('/auth/sessions', { user_id: id });
    const me = await p.server.get('/users/me', { accessToken: session.body.access_token });
    expect(me.body.id).toBe(id);
    const meById = await p.server.get('/users/me', { accessToken: session.body.access_token });
    expect(meById.body.id).toBe(id);
    expect((await p.server.patch('/users/me', { display_name: 'Via me' }, { accessToken: session.body.access_token })).body.display_name).toBe('Via me');
    expectKnownError(await p.server.get('/users/me'), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);

    expect((await p.server.delete(`/users/${id}`)).body).toEqual({ success: true });
    expectKnownError(await p.server.get(`/users/${id}`), 'USER_NOT_FOUND', 404);
  });

  test('me as the user id in the path', async () => {
    const u = await signUp(p);
    const res = await p.server.get('/users/me', { accessToken: u.accessToken });
    expect(res.body.id).toBe(u.userId);
    const byParam = await p.admin.patch('/users/me', { server_metadata: { via: 'me' } }, { accessToken: u.accessToken });
    expect(byParam.body.server_metadata).toEqual({ via: 'me' });
  });

  test('POST /users with no body or an empty body creates an empty user', async () => {
    for (const body of [undefined, {}]) {
      const res = await p.server.post('/users', body);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ primary_email: null, primary_email_verified: false, primary_email_auth_enabled: false, display_name: null, has_password: false });
    }
  });

  test('USER_NOT_FOUND for unknown ids on GET, PATCH and DELETE', async () => {
    for (const id of [crypto.randomUUID(), 'not-a-uuid']) {
      expectKnownError(await p.server.get(`/users/${id}`), 'USER_NOT_FOUND', 404);
      expectKnownError(await p.server.patch(`/users/${id}`, { display_name: 'x' }), 'USER_NOT_FOUND', 404);
      expectKnownError(await p.server.delete(`/users/${id}`), 'USER_NOT_FOUND', 404);
    }
    const res = await p.server.get(`/users/${crypto.randomUUID()}`);
    expect(res.body).toEqual({ code: 'USER_NOT_FOUND', error: 'User not found.' });
  });

  test('password_hash import (bcrypt): the user signs in with that password', async () => {
    const email = uniqueEmail();
    const hash = bcrypt.hashSync('imported-pass-1', 10);
    const res = await p.server.post('/users', { primary_email: email, primary_email_auth_enabled: true, password_hash: hash });
    expect(res.status).toBe(201);
    expect(res.body.has_password).toBe(true);
    const signIn = await p.client.post('/auth/password/sign-in', { email, password: 'imported-pass-1' });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user_id).toBe(res.body.id);
    expectKnownError(await p.client.post('/auth/password/sign-in', { email, password: 'imported-pass-2' }), 'EMAIL_PASSWORD_MISMATCH', 400);

    // Also through PATCH, with a $2a$ hash.
    const other = bcrypt.hashSync('another-pass-1', 4).replace(/^\$2b\$/, '$2a$');
    expect((await p.server.patch(`/users/${res.body.id}`, { password_hash: other })).status).toBe(200);
    expect((await p.client.post('/auth/password/sign-in', { email, password: 'another-pass-1' })).status).toBe(200);
  });

  test('password and password_hash together, or an invalid hash ⇒ 400 text', async () => {
    const both = await p.server.post('/users', { password: 'abcdefgh1', password_hash: bcrypt.hashSync('x', 4) });
    expect(both.status).toBe(400);
    expect(both.text).toBe('Cannot set both password and password_hash at the same time.');
    for (const hash of ['', 'plain', '$argon2id$v=19$m=65536,t=2,p=1$abc$def', '$2b$10$short']) {
      const res = await p.server.post('/users', { password_hash: hash });
      expect(res.status).toBe(400);
      expect(res.text).toBe("Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.");
    }
  });

  test('server passwords: no minimum length; null removes the password', async () => {
    const email = uniqueEmail();
    const res = await p.server.post('/users', { primary_email: email, primary_email_auth_enabled: true, password: 'seven77' });
    expect(res.status).toBe(201);
    expect((await p.client.post('/auth/password/sign-in', { email, password: 'seven77' })).status).toBe(200);
    const removed = await p.server.patch(`/users/${res.body.id}`, { password: null });
    expect(removed.body.has_password).toBe(false);
    expectKnownError(await p.client.post('/auth/password/sign-in', { email, password: 'seven77' }), 'EMAIL_PASSWORD_MISMATCH', 400);
  });

  test('primary email rules: auth emails are unique, flags need an email, "" is rejected', async () => {
    const email = uniqueEmail();
    const first = await p.server.post('/users', { primary_email: email, primary_email_auth_enabled: true });
    expect(first.status).toBe(201);
    const dup = await p.server.post('/users', { primary_email: email, primary_email_auth_enabled: true });
    expectKnownError(dup, 'USER_EMAIL_ALREADY_EXISTS', 409);
    expect(dup.body.details).toEqual({ email });
    expect(dup.body.error).toBe(`A user with email "${email}" already exists.`);
    // The same address without auth is fine.
    const noAuth = await p.server.post('/users', { primary_email: email });
    expect(noAuth.status).toBe(201);
    // Taking it for auth later conflicts.
    const taken = await p.server.patch(`/users/${noAuth.body.id}`, { primary_email: email, primary_email_auth_enabled: true });
    expectKnownError(taken, 'USER_EMAIL_ALREADY_EXISTS', 409);
    const signedUp = await signUp(p);
    expectKnownError(await p.server.patch(`/users/${signedUp.userId}`, { primary_email: email }), 'USER_EMAIL_ALREADY_EXISTS', 409);
    // Sign-up with it conflicts too.
    expectKnownError(await p.client.post('/auth/password/sign-up', { email, password: 'password-123' }), 'USER_EMAIL_ALREADY_EXISTS', 409);

    const verified = await p.server.post('/users', { primary_email_verified: true });
    expect(verified.status).toBe(400);
    expect(verified.text).toBe('primary_email_verified cannot be true without primary_email');
    const authEnabled = await p.server.post('/users', { primary_email_auth_enabled: true });
    expect(authEnabled.text).toBe('primary_email_auth_enabled cannot be true without primary_email');

    const empty = await p.server.post('/users', { primary_email: '' });
    expect(empty.body.error).toBe(schemaMessage('POST', '/users', 'body.primary_email must not be empty'));
    // A lenient email check on the server.
    expect((await p.server.post('/users', { primary_email: 'invalid_email@gmai' })).status).toBe(201);
    expect((await p.server.post('/users', { primary_email: 'no-at-sign' })).status).toBe(400);

    // Changing the primary email of a user; null removes it.
    const changed = await p.server.patch(`/users/${signedUp.userId}`, { primary_email: uniqueEmail('changed') });
    expect(changed.body.primary_email).toStartWith('changed-');
    const removed = await p.server.patch(`/users/${signedUp.userId}`, { primary_email: null });
    expect(removed.body).toMatchObject({ primary_email: null, primary_email_verified: false, primary_email_auth_enabled: false });
  });

  test('POST /users with oauth_providers; an account already linked ⇒ OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER', async () => {
    const accountId = crypto.randomUUID();
    const first = await p.server.post('/users', { oauth_providers: [{ id: 'github', account_id: accountId, email: 'gh@example.com' }] });
    expect(first.status).toBe(201);
    expect(first.body.oauth_providers).toEqual([{ id: 'github', account_id: accountId, email: 'gh@example.com' }]);
    expect(first.body.auth_with_email).toBe(false);
    const dup = await p.server.post('/users', { display_name: 'second', oauth_providers: [{ id: 'github', account_id: accountId }] });
    expectKnownError(dup, 'OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER', 409);
    // Nothing of the second user was kept.
    expect((await p.server.get('/users?query=second')).body.items).toEqual([]);
  });

  test('is_anonymous: POST accepts any boolean, PATCH only false', async () => {
    const anon = await p.server.post('/users', { is_anonymous: true });
    expect(anon.body.is_anonymous).toBe(true);
    const bad = await p.server.patch(`/users/${anon.body.id}`, { is_anonymous: true });
    expect(bad.body.error).toBe(schemaMessage('PATCH', `/users/${anon.body.id}`, 'body.is_anonymous must be one of the following values: false'));
    expect((await p.server.patch(`/users/${anon.body.id}`, { is_anonymous: false })).body.is_anonymous).toBe(false);
  });

  test('a password change by the server ends all sessions', async () => {
    const u = await signUp(p);
    const second = await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password });
    expect((await p.server.patch(`/users/${u.userId}`, { password: 'brand-new-pass' })).status).toBe(200);
    for (const refreshToken of [u.refreshToken, second.body.refresh_token]) {
      expectKnownError(await p.client.post('/auth/sessions/current/refresh', undefined, { refreshToken }), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    }
    expect((await p.client.post('/auth/password/sign-in', { email: u.email, password: 'brand-new-pass' })).status).toBe(200);
    // Other updates keep sessions.
    const s = await p.client.post('/auth/password/sign-in', { email: u.email, password: 'brand-new-pass' });
    await p.server.patch(`/users/${u.userId}`, { display_name: 'still signed in' });
    expect((await p.client.post('/auth/sessions/current/refresh', undefined, { refreshToken: s.body.refresh_token })).status).toBe(200);
  });

  test('access-type matrix: clients may not manage users', async () => {
    const u = await signUp(p);
    const calls = [
      () => p.client.get('/users'),
      () => p.client.post('/users', {}),
      () => p.client.get(`/users/${u.userId}`),
      () => p.client.patch(`/users/${u.userId}`, {}),
      () => p.client.delete(`/users/${u.userId}`),
    ];
    for (const call of calls) {
      const res = await call();
      expectKnownError(res, 'INSUFFICIENT_ACCESS_TYPE', 401);
      expect(res.body.details).toEqual({ actual_access_type: 'client', allowed_access_types: ['server', 'admin'] });
    }
    for (const api of [p.server, p.admin, p.ownerAdmin]) {
      expect((await api.get('/users')).status).toBe(200);
      expect((await api.get(`/users/${u.userId}`)).status).toBe(200);
    }
  });
});

describe('GET /users (listing)', () => {
  let lp: TestProject;
  let ids: string[];
  let teamUser: { userId: string; teamId: string };

  beforeAll(async () => {
    lp = await newProject(svc, { config: { create_team_on_sign_up: true } });
    ids = [];
    const names = ['Alice Apple', 'Bob Banana', 'Carol Cherry', 'Dave Date', 'Eve Elder'];
    for (const name of names) {
      const res = await lp.server.post('/users', { display_name: name, primary_email: `${name.split(' ')[0].toLowerCase()}-${crypto.randomUUID().slice(0, 6)}@fruit.test` });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const t = await signUp(lp, { email: uniqueEmail('teamed') });
    const me = await lp.server.get(`/users/${t.userId}`);
    teamUser = { userId: t.userId, teamId: me.body.selected_team_id };
    ids.push(t.userId);
  }, 60_000);

  const listIds = async (query: string) => {
    const res = await lp.server.get(`/users${query}`);
    expect(res.status).toBe(200);
    return res;
  };

  test('everything, oldest first, in one page', async () => {
    const res = await listIds('');
    expect(res.body.is_paginated).toBe(true);
    expect(res.body.pagination).toEqual({ next_cursor: null });
    expect(res.body.items.map((u: any) => u.id)).toEqual(ids);
    expect(Object.keys(res.body.items[0]).sort()).toEqual(SERVER_KEYS);
    expect(Object.keys(res.body).sort()).toEqual(['is_paginated', 'items', 'pagination']);
  });

  test('limit and an inclusive cursor walk the pages', async () => {
    const page1 = await listIds('?limit=2');
    expect(page1.body.items.map((u: any) => u.id)).toEqual(ids.slice(0, 2));
    expect(page1.body.pagination.next_cursor).toBe(ids[2]);
    const page2 = await listIds(`?limit=2&cursor=${page1.body.pagination.next_cursor}`);
    expect(page2.body.items.map((u: any) => u.id)).toEqual(ids.slice(2, 4));
    const page3 = await listIds(`?limit=2&cursor=${page2.body.pagination.next_cursor}`);
    expect(page3.body.items.map((u: any) => u.id)).toEqual(ids.slice(4, 6));
    expect(page3.body.pagination.next_cursor).toBeNull();
    const exact = await listIds(`?limit=6`);
    expect(exact.body.pagination.next_cursor).toBeNull();
    expect((await listIds(`?cursor=${ids[3]}`)).body.items.map((u: any) => u.id)).toEqual(ids.slice(3));
  });

  test('desc, with and without cursor; order_by signed_up_at', async () => {
    const reversed = [...ids].reverse();
    expect((await listIds('?desc=true')).body.items.map((u: any) => u.id)).toEqual(reversed);
    const page = await listIds('?desc=true&limit=4&order_by=signed_up_at');
    expect(page.body.items.map((u: any) => u.id)).toEqual(reversed.slice(0, 4));
    expect(page.body.pagination.next_cursor).toBe(reversed[4]);
    expect((await listIds(`?desc=true&cursor=${reversed[4]}`)).body.items.map((u: any) => u.id)).toEqual(reversed.slice(4));
    expect((await listIds('?desc=false')).body.items.map((u: any) => u.id)).toEqual(ids);
  });

  test('query: case-insensitive substring of name or email, or an exact id', async () => {
    expect((await listIds('?query=cherry')).body.items.map((u: any) => u.id)).toEqual([ids[2]]);
    expect((await listIds('?query=AN')).body.items.map((u: any) => u.id)).toEqual([ids[1]]);
    expect((await listIds('?query=dave-')).body.items.map((u: any) => u.id)).toEqual([ids[3]]);
    expect((await listIds('?query=fruit.test')).body.items).toHaveLength(5);
    expect((await listIds(`?query=${ids[4]}`)).body.items.map((u: any) => u.id)).toEqual([ids[4]]);
    expect((await listIds(`?query=${encodeURIComponent(`  ${ids[4]} `)}`)).body.items.map((u: any) => u.id)).toEqual([ids[4]]);
    expect((await listIds('?query=%25')).body.items).toHaveLength(0);
    expect((await listIds('?query=_')).body.items).toHaveLength(0);
    expect((await listIds('?query=nobody-here')).body.items).toEqual([]);
  });

  test('team_id: only members', async () => {
    expect((await listIds(`?team_id=${teamUser.teamId}`)).body.items.map((u: any) => u.id)).toEqual([teamUser.userId]);
    expect((await listIds(`?team_id=${crypto.randomUUID()}`)).body.items).toEqual([]);
  });

  test('invalid parameters ⇒ SCHEMA_ERROR', async () => {
    const cases: [string, string][] = [
      ['?limit=0', 'query.limit must be greater than or equal to 1'],
      ['?cursor=nope', 'query.cursor must be a valid UUID'],
      ['?order_by=name', 'query.order_by must be one of the following values: signed_up_at'],
      ['?team_id=x', 'query.team_id must be a valid UUID'],
    ];
    for (const [q, line] of cases) {
      const res = await lp.server.get(`/users${q}`);
      expectKnownError(res, 'SCHEMA_ERROR', 400);
      expect(res.body.error).toBe(schemaMessage('GET', '/users', line));
    }
    expectKnownError(await lp.server.get('/users?limit=abc'), 'SCHEMA_ERROR', 400);
    expectKnownError(await lp.server.get('/users?desc=maybe'), 'SCHEMA_ERROR', 400);
  });

  test("an unknown cursor or another project's cursor yields an empty page, not an error", async () => {
    const res = await listIds(`?cursor=${crypto.randomUUID()}`);
    expect(res.body.items).toEqual([]);
    const foreign = await signUp(p);
    expect((await listIds(`?cursor=${foreign.userId}`)).body.items).toEqual([]);
  });
});
