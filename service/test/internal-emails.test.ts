// POST /internal/send-test-email and GET /internal/emails (protocol-resources §12.2, §12.3) against real SMTP servers.
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { createServer } from 'node:net';
import { Api, expectKnownError, sharedService, uniqueEmail, type SharedService } from './support/service';
import { newInternalUser, newProject } from './support/projects';
import { startSmtpFixture, type SmtpFixture } from './support/smtp';

// The machine may be busy (several suites at once): allow slow service round-trips.
setDefaultTimeout(60_000);

let svc: SharedService;
let smtp: SmtpFixture;
let authSmtp: SmtpFixture;
beforeAll(async () => {
  svc = await sharedService();
  smtp = await startSmtpFixture();
  authSmtp = await startSmtpFixture({ auth: { username: 'right', password: 'right-password' } });
}, 60_000);
afterAll(async () => { await smtp?.stop(); await authSmtp?.stop(); });

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const configFor = (port: number, o: Partial<Record<string, unknown>> = {}) => ({
  host: '127.0.0.1', port, username: 'someone', password: 'secret-password', sender_name: 'Tester', sender_email: 'tester@example.com', ...o,
});

describe('POST /internal/send-test-email', () => {
  test('delivers to a working server and is logged', async () => {
    const p = await newProject(svc);
    const to = uniqueEmail('test-mail');
    const res = await p.admin.post('/internal/send-test-email', { recipient_email: to, email_config: configFor(smtp.port) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const mail = await smtp.waitForMail((m) => m.to.includes(to));
    expect(mail.subject).toBe('Test Email from Stack Auth');
    expect(mail.from).toContain('tester@example.com');

    const list = await p.admin.get('/internal/emails');
    expect(list.status).toBe(200);
    expect(list.body.is_paginated).toBe(false);
    expect(list.body.items).toEqual([{
      id: expect.any(String), to: [to], subject: 'Test Email from Stack Auth', sent_at_millis: expect.any(Number), error: null,
      sender_config: { type: 'standard', host: '127.0.0.1', port: smtp.port, username: 'someone', sender_name: 'Tester', sender_email: 'tester@example.com' },
    }]);
    expect(list.text).not.toContain('secret-password');
  });

  test('a closed port answers success:false with the connection message, logged with its error', async () => {
    const p = await newProject(svc);
    const res = await p.admin.post('/internal/send-test-email', { recipient_email: uniqueEmail(), email_config: configFor(await closedPort()) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: false, error_message: 'Failed to connect to the email host. Please make sure the email host configuration is correct.' });
    const list = await p.admin.get('/internal/emails');
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0].error).toMatchObject({ errorType: 'CONNECTION_FAILED', canRetry: expect.any(Boolean), message: expect.any(String) });
  });

  test('wrong credentials answer the authentication message', async () => {
    const p = await newProject(svc);
    const res = await p.admin.post('/internal/send-test-email', { recipient_email: uniqueEmail(), email_config: configFor(authSmtp.port, { username: 'right', password: 'wrong' }) });
    expect(res.body).toEqual({ success: false, error_message: 'Failed to authenticate with the email server. Please check your email credentials configuration.' });
    const ok = await p.admin.post('/internal/send-test-email', { recipient_email: uniqueEmail(), email_config: configFor(authSmtp.port, { username: 'right', password: 'right-password' }) });
    expect(ok.body).toEqual({ success: true });
  });

  test('request validation', async () => {
    const p = await newProject(svc);
    let res = await p.admin.post('/internal/send-test-email', { recipient_email: 'not-an-email', email_config: configFor(smtp.port) });
    expectKnownError(res, 'SCHEMA_ERROR', 400);
    expect(res.body.error).toContain('body.recipient_email must be a valid email');
    const { password: _omit, ...noPassword } = configFor(smtp.port);
    res = await p.admin.post('/internal/send-test-email', { recipient_email: uniqueEmail(), email_config: noPassword });
    expectKnownError(res, 'SCHEMA_ERROR', 400);
    expect(res.body.error).toContain('body.email_config.password must be defined');
    expect((await p.admin.get('/internal/emails')).body.items).toEqual([]);
  });
});

describe('GET /internal/emails', () => {
  test('lists the mail the flows sent (shared config), newest first, per project', async () => {
    const a = await newProject(svc, { displayName: 'Flow mail' });
    const b = await newProject(svc);
    const first = uniqueEmail('flow1');
    const second = uniqueEmail('flow2');
    for (const email of [first, second]) {
      expect((await a.client.post('/auth/password/sign-up', { email, password: 'correct-horse-1', verification_callback_url: 'http://localhost:3000/verify' })).status).toBe(200);
      await svc.mailbox.waitForMail((m) => m.to.includes(email));
    }
    const list = await a.admin.get('/internal/emails');
    expect(list.body.items.map((i: any) => i.to)).toEqual([[second], [first]]);
    expect(list.body.items[0]).toMatchObject({ subject: 'Verify your email at Flow mail', error: null, sender_config: { type: 'shared', sender_name: 'Flow mail' } });
    expect((await b.admin.get('/internal/emails')).body.items).toEqual([]);
  });

  test('admin only; owners pass with their token, other users do not', async () => {
    const p = await newProject(svc);
    for (const api of [p.client, p.server]) {
      expectKnownError(await api.get('/internal/emails'), 'INSUFFICIENT_ACCESS_TYPE', 401);
      expectKnownError(await api.post('/internal/send-test-email', { recipient_email: uniqueEmail(), email_config: configFor(smtp.port) }), 'INSUFFICIENT_ACCESS_TYPE', 401);
    }
    expect((await p.ownerAdmin.get('/internal/emails')).status).toBe(200);
    const stranger = await newInternalUser(svc);
    const strangerAdmin = new Api(svc.url, { 'x-stack-project-id': p.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': stranger.accessToken });
    expectKnownError(await strangerAdmin.get('/internal/emails'), 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401);
    expectKnownError(await strangerAdmin.post('/internal/send-test-email', { recipient_email: uniqueEmail(), email_config: configFor(smtp.port) }), 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401);
  });
});
