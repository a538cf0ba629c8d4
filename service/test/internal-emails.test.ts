// POST /internal/send-test-email and GET /internal/emails (protocol-resources §12.2, §12.3) against real SMTP servers.
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { createServer } from 'node:net';
import {
  Api, adminApi, clientApi, expectKnownError, sharedService, startService, uniqueEmail, type RunningService, type SharedService,
} from './support/service';
import { isolatedDatabase } from './support/isolated-database';
import { newInternalUser, newProject } from './support/projects';
import { startSmtpFixture, type SmtpFixture } from './support/smtp';
import { PRODUCTION_ENV } from './support/production';

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

/** Polls the project's sent-email list until `done` holds for it (or the time is up); returns the last list. */
async function listUntil(admin: Api, done: (items: any[]) => boolean, timeoutMs = 30_000): Promise<any[]> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const res = await admin.get('/internal/emails');
    expect(res.status).toBe(200);
    if (done(res.body.items) || Date.now() > end) return res.body.items;
    await Bun.sleep(200);
  }
}

describe('POST /internal/send-test-email', () => {
  test('delivers to a working server and is logged', async () => {
    const p = await newProject(svc, { displayName: 'Acme Books' });
    const to = uniqueEmail('test-mail');
    const res = await p.admin.post('/internal/send-test-email', { recipient_email: to, email_config: configFor(smtp.port) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const mail = await smtp.waitForMail((m) => m.to.includes(to));
    expect(mail.subject).toBe('Test email from Gatehouse for Acme Books');
    expect(mail.from).toContain('tester@example.com');

    const list = await p.admin.get('/internal/emails');
    expect(list.status).toBe(200);
    expect(list.body.is_paginated).toBe(false);
    expect(list.body.items).toEqual([{
      id: expect.any(String), to: [to], subject: 'Test email from Gatehouse for Acme Books', sent_at_millis: expect.any(Number), error: null,
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

describe('GET /internal/emails/{email_id}', () => {
  test('what a sign-in code mail said, with the code and the link token replaced by placeholders; 404 elsewhere', async () => {
    const p = await newProject(svc, { displayName: 'Code mail', config: { magic_link_enabled: true } });
    const other = await newProject(svc);
    const to = uniqueEmail('code-mail');
    const sent = await p.client.post('/auth/otp/send-sign-in-code', { email: to, callback_url: 'http://localhost:3000/magic' });
    expect(sent.status).toBe(200);
    const mail = await svc.mailbox.waitForMail((m) => m.to.includes(to));
    const code = new URL(mail.text.match(/https?:\/\/\S+/)![0]).searchParams.get('code')!;
    expect(code.length).toBeGreaterThan(20);
    const [item] = await listUntil(p.admin, (list) => list.length >= 1);
    const res = await p.admin.get(`/internal/emails/${item.id}`);
    expect(res.status).toBe(200);
    // (Compared by hand: bun's toMatchObject writes its asymmetric matchers into the received object.)
    const { html, text, ...entry } = res.body;
    expect(entry).toEqual(item);
    // The body the recipient read, in both forms, without what would sign them in.
    expect(text).toContain('Code mail');
    expect(text).toContain('[link]');
    expect(html).toContain('[link]');
    for (const secret of [code, code.slice(0, 6).toUpperCase()]) expect(res.text).not.toContain(secret);
    expect(res.body.subject).toContain('[code]');

    expect((await other.admin.get(`/internal/emails/${item.id}`)).status).toBe(404);
    expect((await p.admin.get('/internal/emails/not-a-uuid')).status).toBe(404);
    expect((await p.admin.get('/internal/emails/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await p.server.get(`/internal/emails/${item.id}`)).status).toBe(401);
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
    // The worker logs the attempt once the SMTP server has accepted the mail, so the entry may trail the mail a little.
    const items = await listUntil(a.admin, (list) => list.length >= 2);
    expect(items.map((i: any) => i.to)).toEqual([[second], [first]]);
    expect(items[0]).toMatchObject({ subject: 'Verify your email at Flow mail', error: null, sender_config: { type: 'shared', sender_name: 'Flow mail' } });
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

describe('GET /internal/emails: every delivery attempt is an entry', () => {
  test('a mail whose first attempts fail (SMTP down) lists each failed attempt, then the success, newest first', async () => {
    // A standard email config of its own: on PostgreSQL any instance's worker may deliver it, to this server all the same.
    const mailbox = await startSmtpFixture();
    try {
      const p = await newProject(svc, {
        displayName: 'Retry Co',
        config: {
          magic_link_enabled: true,
          email_config: { type: 'standard', host: '127.0.0.1', port: mailbox.port, username: 'mailer', password: 'smtp-secret-pw', sender_name: 'Retry Co', sender_email: 'retry@example.com' },
        },
      });
      await mailbox.stop();
      const email = uniqueEmail('retry');
      const res = await p.client.post('/auth/otp/send-sign-in-code', { email, callback_url: 'http://localhost:3000/magic' });
      expect(res.status).toBe(200);

      const failing = await listUntil(p.admin, (items) => items.length >= 2);
      expect(failing.length).toBeGreaterThanOrEqual(2);
      for (const item of failing) {
        expect(item).toMatchObject({ to: [email], error: { errorType: 'CONNECTION_FAILED', canRetry: true, message: expect.any(String), rawError: expect.any(Object) } });
      }
      expect(mailbox.messages).toHaveLength(0);

      await mailbox.start();
      const mail = await mailbox.waitForMail((m) => m.to.includes(email), 30_000);
      const list = await listUntil(p.admin, (items) => items[0]?.error === null);
      const sender = { type: 'standard', host: '127.0.0.1', port: mailbox.port, username: 'mailer', sender_name: 'Retry Co', sender_email: 'retry@example.com' };
      // The list shows the subject as recorded: the code replaced by a placeholder (issue 30 §1).
      const recorded = mail.subject.replace(/[0-9A-Z]{6}$/, '[code]');
      expect(recorded).toBe('Sign in to Retry Co: Your code is [code]');
      expect(list[0]).toEqual({ id: expect.any(String), to: [email], subject: recorded, sent_at_millis: expect.any(Number), error: null, sender_config: sender });
      const failures = list.slice(1);
      expect(failures.length).toBeGreaterThanOrEqual(failing.length);
      for (const item of failures) {
        expect(item).toEqual({
          id: expect.any(String), to: [email], subject: recorded, sent_at_millis: expect.any(Number), sender_config: sender,
          error: expect.objectContaining({ errorType: 'CONNECTION_FAILED', canRetry: true }),
        });
      }
      // The failed attempts seen earlier are still there, unchanged; each entry is one attempt.
      expect(failures.slice(-failing.length)).toEqual(failing);
      expect(new Set(list.map((i) => i.id)).size).toBe(list.length);
      expect(list.every((item, i) => i === 0 || item.sent_at_millis <= list[i - 1].sent_at_millis)).toBe(true);
      expect(JSON.stringify(list)).not.toContain('smtp-secret-pw');
      await Bun.sleep(300);
      expect(mailbox.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
    } finally {
      await mailbox.stop();
    }
  }, 120_000);
});

describe('production without SMTP_URL', () => {
  let prod: RunningService | undefined;
  let scratch: Awaited<ReturnType<typeof isolatedDatabase>> | undefined;
  afterAll(async () => { await prod?.stop(); await scratch?.drop(); });

  test('shared-config mail is never printed: each attempt fails with a clear error that the list shows; a warning at start', async () => {
    // A database of its own: production creates the internal project with random keys, printed once.
    scratch = await isolatedDatabase();
    prod = await startService({
      env: { ...PRODUCTION_ENV, SMTP_URL: '', SMTP_SENDER: 'noreply@prod.example.com', ...(scratch.url ? { DATABASE_URL: scratch.url } : {}) },
    });
    const svcProd = prod;
    // The keys go to stdout, the warning to stderr: two pipes, read independently, so wait for both.
    const started = () => /super secret admin key:/.test(svcProd.output()) && svcProd.output().includes('[email] warning: SMTP_URL is not set');
    const end = Date.now() + 30_000;
    while (!started() && Date.now() < end) await Bun.sleep(50);
    const key = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(svcProd.output())?.[1] ?? '';
    const client = clientApi(svcProd.url, 'internal', key('publishable client key'));
    const admin = adminApi(svcProd.url, 'internal', key('super secret admin key'));
    expect(svcProd.output()).toContain('[email] warning: SMTP_URL is not set');

    const email = uniqueEmail('prod');
    const res = await client.post('/auth/otp/send-sign-in-code', { email, callback_url: 'http://localhost:3000/magic' });
    expect(res.status).toBe(200);
    const items = await listUntil(admin, (list) => list.some((i) => i.to.includes(email)));
    const mine = items.filter((i) => i.to.includes(email));
    expect(mine).toEqual([{
      id: expect.any(String), to: [email], subject: 'Sign in to Gatehouse Console: Your code is [code]', sent_at_millis: expect.any(Number),
      error: expect.objectContaining({ errorType: 'NOT_CONFIGURED', canRetry: false, message: 'no SMTP server configured for the shared email config; set SMTP_URL' }),
      sender_config: { type: 'shared', host: '', port: 0, username: '', sender_name: 'Gatehouse Console', sender_email: 'noreply@prod.example.com' },
    }]);
    // The mail's link carries the code: the sign-in code's 6 characters, then the nonce the caller got.
    const nonce = res.body.nonce as string;
    expect(nonce).toHaveLength(39);

    // Nothing printed the mail, and the failure is permanent (no further attempt).
    await Bun.sleep(1_500);
    expect(svcProd.output()).not.toContain(nonce);
    expect(svcProd.output()).not.toContain('Your code is');
    expect(svcProd.output()).not.toContain('printing the mail');
    expect((await admin.get('/internal/emails')).body.items.filter((i: any) => i.to.includes(email))).toHaveLength(1);
  }, 120_000);
});
