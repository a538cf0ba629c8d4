// Contact channels CRUD (protocol-resources §9.2) and email verification (protocol-auth §3.3) over HTTP, with the
// verification links read from mail received by a real SMTP server.
import { describe, expect, test } from 'bun:test';
import { expectKnownError, uniqueEmail } from './support/service';
import { signUp } from './support/projects';
import { setupSuite } from './support/suite';
import { extractCode } from './support/smtp';

const CALLBACK = 'http://stack-test.localhost/some-callback-url';
const { svc, p } = await setupSuite();

async function codeFromMail(email: string, after = 0) {
  const mail = await svc.mailbox.waitForMail((m) => m.to.includes(email) && m.receivedAt >= after && m.subject.startsWith('Verify your email'));
  return extractCode(mail)!;
}

describe('CRUD', () => {
  test('client creates, lists, reads, updates and deletes its own channels', async () => {
    const u = await signUp(p);
    const value = uniqueEmail('second');
    const created = await p.client.post('/contact-channels', { user_id: 'me', type: 'email', value, used_for_auth: false }, { accessToken: u.accessToken });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ user_id: u.userId, id: expect.any(String), value, type: 'email', used_for_auth: false, is_verified: false, is_primary: false });

    const list = await p.client.get('/contact-channels?user_id=me', { accessToken: u.accessToken });
    expect(list.status).toBe(200);
    expect(list.body.is_paginated).toBe(false);
    expect(list.body.items.map((c: any) => c.value)).toEqual([u.email, value]);
    expect(list.body.items[0]).toMatchObject({ is_primary: true, used_for_auth: true, is_verified: false });

    const path = `/contact-channels/me/${created.body.id}`;
    expect((await p.client.get(path, { accessToken: u.accessToken })).body).toEqual(created.body);
    const byId = await p.client.get(`/contact-channels?user_id=${u.userId}&contact_channel_id=${created.body.id}`, { accessToken: u.accessToken });
    expect(byId.body.items).toEqual([created.body]);

    // Making it primary demotes the old primary; the user's primary_email follows.
    const patched = await p.client.patch(path, { is_primary: true, used_for_auth: true }, { accessToken: u.accessToken });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ is_primary: true, used_for_auth: true });
    const me = await p.client.get('/users/me', { accessToken: u.accessToken });
    expect(me.body.primary_email).toBe(value);
    const after = await p.client.get('/contact-channels?user_id=me', { accessToken: u.accessToken });
    expect(after.body.items.filter((c: any) => c.is_primary).map((c: any) => c.value)).toEqual([value]);

    expect((await p.client.patch(path, { is_primary: false }, { accessToken: u.accessToken })).body.is_primary).toBe(false);
    expect((await p.client.get('/users/me', { accessToken: u.accessToken })).body.primary_email).toBeNull();

    const del = await p.client.delete(path, { accessToken: u.accessToken });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    const gone = await p.client.get(path, { accessToken: u.accessToken });
    expect(gone.status).toBe(404);
    expect(gone.text).toBe('Contact channel not found.');
    for (const res of [await p.client.delete(path, { accessToken: u.accessToken }), await p.client.patch(path, { is_primary: true }, { accessToken: u.accessToken })]) {
      expect(res.status).toBe(400);
      expect(res.text).toBe('Contact channel not found');
    }
  });

  test('changing the value resets verification unless a server sets it; server may set is_verified, client may not', async () => {
    const u = await signUp(p);
    const created = await p.server.post('/contact-channels', { user_id: u.userId, type: 'email', value: uniqueEmail(), used_for_auth: false, is_verified: true });
    expect(created.body.is_verified).toBe(true);
    const path = `/contact-channels/${u.userId}/${created.body.id}`;
    const changed = await p.server.patch(path, { value: uniqueEmail('changed') });
    expect(changed.body.is_verified).toBe(false);
    expect((await p.server.patch(path, { value: uniqueEmail('again'), is_verified: true })).body.is_verified).toBe(true);

    const clientCreate = await p.client.post('/contact-channels', { user_id: 'me', type: 'email', value: uniqueEmail(), used_for_auth: false, is_verified: true }, { accessToken: u.accessToken });
    expectKnownError(clientCreate, 'SCHEMA_ERROR', 400);
    expect(clientCreate.body.error).toContain('body contains unknown properties: is_verified');
    expectKnownError(await p.client.patch(`/contact-channels/me/${created.body.id}`, { is_verified: true }, { accessToken: u.accessToken }), 'SCHEMA_ERROR', 400);
  });

  test('client rules: own user only, me needs a session', async () => {
    const a = await signUp(p);
    const b = await signUp(p);
    const [bChannel] = (await p.server.get(`/contact-channels?user_id=${b.userId}`)).body.items;
    const cases: [Promise<any>, number, string][] = [
      [p.client.post('/contact-channels', { user_id: b.userId, type: 'email', value: uniqueEmail(), used_for_auth: false }, { accessToken: a.accessToken }), 403, 'Client can only create contact channels for their own user.'],
      [p.client.get(`/contact-channels?user_id=${b.userId}`, { accessToken: a.accessToken }), 403, 'Client can only list contact channels for their own user.'],
      [p.client.get('/contact-channels', { accessToken: a.accessToken }), 403, 'Client can only list contact channels for their own user.'],
      [p.client.get(`/contact-channels/${b.userId}/${bChannel.id}`, { accessToken: a.accessToken }), 403, 'Client can only read contact channels for their own user.'],
      [p.client.patch(`/contact-channels/${b.userId}/${bChannel.id}`, { is_primary: false }, { accessToken: a.accessToken }), 403, 'Client can only update contact channels for their own user.'],
      [p.client.delete(`/contact-channels/${b.userId}/${bChannel.id}`, { accessToken: a.accessToken }), 403, 'Client can only delete contact channels for their own user.'],
    ];
    for (const [promise, status, text] of cases) {
      const res = await promise;
      expect({ status: res.status, text: res.text }).toEqual({ status, text });
    }
    expectKnownError(await p.client.get('/contact-channels?user_id=me'), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    expectKnownError(await p.client.post('/contact-channels', { user_id: 'me', type: 'email', value: uniqueEmail(), used_for_auth: false }), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    const bad = await p.server.get('/contact-channels/not-a-uuid/also-not');
    expectKnownError(bad, 'SCHEMA_ERROR', 400);
    expect(bad.body.error).toContain('params.user_id must be a valid UUID');
    // Server lists any user's channels, and all of them without user_id.
    const all = await p.server.get('/contact-channels');
    expect(all.body.items.map((c: any) => c.user_id)).toEqual(expect.arrayContaining([a.userId, b.userId]));
    expectKnownError(await p.server.post('/contact-channels', { user_id: crypto.randomUUID(), type: 'email', value: uniqueEmail(), used_for_auth: false }), 'USER_ID_DOES_NOT_EXIST', 400);
  });

  test('duplicates and used-for-auth uniqueness', async () => {
    const a = await signUp(p);
    const b = await signUp(p);
    const dup = await p.server.post('/contact-channels', { user_id: a.userId, type: 'email', value: a.email, used_for_auth: false });
    expect({ status: dup.status, text: dup.text }).toEqual({ status: 400, text: 'Contact channel already exists' });

    const taken = await p.server.post('/contact-channels', { user_id: b.userId, type: 'email', value: a.email, used_for_auth: true });
    expectKnownError(taken, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', 409);
    expect(taken.body.details).toEqual({ type: 'email', contact_channel_value: a.email });
    expect(taken.body.error).toBe(`The email (${a.email}) is already used for authentication by another account.`);

    // Not for auth: allowed; switching it to auth later conflicts (no value in the details on update).
    const shared = await p.server.post('/contact-channels', { user_id: b.userId, type: 'email', value: a.email, used_for_auth: false });
    expect(shared.status).toBe(201);
    const upd = await p.server.patch(`/contact-channels/${b.userId}/${shared.body.id}`, { used_for_auth: true });
    expectKnownError(upd, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', 409);
    expect(upd.body.details).toEqual({ type: 'email', contact_channel_value: null });
    expect(upd.body.error).toBe('This email is already used for authentication by another account.');

    // Two users claiming one new sign-in email at the same moment: exactly one wins.
    const contested = uniqueEmail('contested');
    const users = await Promise.all(Array.from({ length: 5 }, () => signUp(p)));
    const results = await Promise.all(users.map((u) => p.server.post('/contact-channels', { user_id: u.userId, type: 'email', value: contested, used_for_auth: true })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) expectKnownError(r, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', 409);
  });
});

describe('email verification', () => {
  test('per-channel send-verification-code, check-code, verify; several outstanding codes each work once', async () => {
    const u = await signUp(p);
    const [primary] = (await p.client.get('/contact-channels?user_id=me', { accessToken: u.accessToken })).body.items;
    const path = `/contact-channels/me/${primary.id}/send-verification-code`;
    const t0 = Date.now();
    const sent = await p.client.post(path, { callback_url: CALLBACK }, { accessToken: u.accessToken });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ success: true });
    const first = await codeFromMail(u.email, t0);
    const t1 = Date.now();
    expect((await p.server.post(`/contact-channels/${u.userId}/${primary.id}/send-verification-code`, { callback_url: CALLBACK })).status).toBe(200);
    let second = await codeFromMail(u.email, t1);
    if (second === first) second = extractCode((await svc.mailbox.waitForMail((m) => m.to.includes(u.email) && extractCode(m) !== first)))!;

    expect((await p.client.post('/contact-channels/verify/check-code', { code: first })).body).toEqual({ is_code_valid: true });
    const verified = await p.client.post('/contact-channels/verify', { code: first });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ success: true });
    expect((await p.client.get('/users/me', { accessToken: u.accessToken })).body.primary_email_verified).toBe(true);
    expectKnownError(await p.client.post('/contact-channels/verify', { code: first }), 'VERIFICATION_CODE_ALREADY_USED', 409);
    expect((await p.client.post('/contact-channels/verify', { code: second })).status).toBe(200);
    expectKnownError(await p.client.post(path, { callback_url: CALLBACK }, { accessToken: u.accessToken }), 'EMAIL_ALREADY_VERIFIED', 409);
  });

  test('per-channel errors', async () => {
    const a = await signUp(p);
    const b = await signUp(p);
    const [ch] = (await p.server.get(`/contact-channels?user_id=${a.userId}`)).body.items;
    const body = { callback_url: CALLBACK };
    expectKnownError(await p.client.post(`/contact-channels/${a.userId}/${ch.id}/send-verification-code`, body), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    const other = await p.client.post(`/contact-channels/${a.userId}/${ch.id}/send-verification-code`, body, { accessToken: b.accessToken });
    expect({ status: other.status, text: other.text }).toEqual({ status: 400, text: 'Can only send verification code for your own user' });
    const missing = await p.client.post(`/contact-channels/me/${crypto.randomUUID()}/send-verification-code`, body, { accessToken: a.accessToken });
    expect({ status: missing.status, text: missing.text }).toEqual({ status: 404, text: 'Contact channel not found' });
    const unknownUser = crypto.randomUUID();
    const noUser = await p.server.post(`/contact-channels/${unknownUser}/${ch.id}/send-verification-code`, body);
    expectKnownError(noUser, 'USER_ID_DOES_NOT_EXIST', 400);
    expect(noUser.body.details).toEqual({ user_id: unknownUser });
    expectKnownError(await p.client.post(`/contact-channels/me/${ch.id}/send-verification-code`, { callback_url: 'http://evil-website.example.com' }, { accessToken: a.accessToken }), 'REDIRECT_URL_NOT_WHITELISTED', 400);
    expectKnownError(await p.client.post('/contact-channels/verify', { code: 'x'.repeat(45) }), 'VERIFICATION_CODE_NOT_FOUND', 404);
    expectKnownError(await p.client.post('/contact-channels/verify/check-code', { code: 'short' }), 'SCHEMA_ERROR', 400);
  });

  test('legacy send-verification-code: primary email only', async () => {
    const u = await signUp(p);
    const url = '/contact-channels/send-verification-code';
    const noUser = await p.client.post(url, { email: u.email, callback_url: CALLBACK });
    expectKnownError(noUser, 'SCHEMA_ERROR', 400);
    expect(noUser.body.error).toContain('auth.user must be defined');
    const other = uniqueEmail('notprimary');
    const wrong = await p.client.post(url, { email: other, callback_url: CALLBACK }, { accessToken: u.accessToken });
    expectKnownError(wrong, 'EMAIL_IS_NOT_PRIMARY_EMAIL', 400);
    expect(wrong.body.details).toEqual({ email: other, primary_email: u.email });
    expectKnownError(await p.client.post(url, { email: u.email, callback_url: 'http://evil-website.example.com' }, { accessToken: u.accessToken }), 'REDIRECT_URL_NOT_WHITELISTED', 400);
    const t0 = Date.now();
    const ok = await p.client.post(url, { email: u.email, callback_url: CALLBACK }, { accessToken: u.accessToken });
    expect(ok.body).toEqual({ success: true });
    const code = await codeFromMail(u.email, t0);
    expect((await p.client.post('/contact-channels/verify', { code })).status).toBe(200);
    expectKnownError(await p.client.post(url, { email: u.email, callback_url: CALLBACK }, { accessToken: u.accessToken }), 'EMAIL_ALREADY_VERIFIED', 409);
  });

  test('password sign-up sends the verification mail when a callback is given; an untrusted one is ignored', async () => {
    const email = uniqueEmail('signup');
    const res = await p.client.post('/auth/password/sign-up', { email, password: 'correct-horse-1', verification_callback_url: CALLBACK });
    expect(res.status).toBe(200);
    const mail = await svc.mailbox.waitForMail((m) => m.to.includes(email));
    expect(mail.subject).toBe('Verify your email at Test project');
    expect((await p.client.post('/contact-channels/verify', { code: extractCode(mail)! })).status).toBe(200);
    const me = await p.client.get('/users/me', { accessToken: res.body.access_token });
    expect(me.body.primary_email_verified).toBe(true);

    const untrusted = await p.client.post('/auth/password/sign-up', { email: uniqueEmail(), password: 'correct-horse-1', verification_callback_url: 'http://evil-website.example.com' });
    expect(untrusted.status).toBe(200);
  });

  test('a code whose channel was deleted verifies nothing', async () => {
    const u = await signUp(p);
    const value = uniqueEmail('deleted');
    const ch = await p.server.post('/contact-channels', { user_id: u.userId, type: 'email', value, used_for_auth: false });
    expect((await p.server.post(`/contact-channels/${u.userId}/${ch.body.id}/send-verification-code`, { callback_url: CALLBACK })).status).toBe(200);
    const code = await codeFromMail(value);
    expect((await p.server.delete(`/contact-channels/${u.userId}/${ch.body.id}`)).status).toBe(200);
    expectKnownError(await p.client.post('/contact-channels/verify', { code }), 'VERIFICATION_CODE_NOT_FOUND', 404);
  });

  test('the same verification code submitted 20 times at once succeeds exactly once', async () => {
    const u = await signUp(p);
    const [ch] = (await p.server.get(`/contact-channels?user_id=${u.userId}`)).body.items;
    await p.server.post(`/contact-channels/${u.userId}/${ch.id}/send-verification-code`, { callback_url: CALLBACK });
    const code = await codeFromMail(u.email);
    const results = await Promise.all(Array.from({ length: 20 }, () => p.client.post('/contact-channels/verify', { code })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expectKnownError(r, 'VERIFICATION_CODE_ALREADY_USED', 409);
  });
});
