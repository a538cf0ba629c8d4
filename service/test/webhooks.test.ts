// Webhooks end to end: endpoints managed through the admin API, events from the user routes delivered to a real
// HTTP receiver (Bun.serve) that verifies Standard Webhooks signatures, retries while the receiver fails or is down.
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { createHmac } from 'node:crypto';
import { Api, expectKnownError, startService, uniqueEmail, type RunningService } from './support/service';
import { newInternalUser, newProject, signUp, type TestProject } from './support/projects';
import { isolatedDatabase } from './support/isolated-database';
import { extractCode, startSmtpFixture, type SmtpFixture } from './support/smtp';

setDefaultTimeout(60_000);

let svc: RunningService;
let db: Awaited<ReturnType<typeof isolatedDatabase>> | undefined;
/** Mail of the flows whose events are tested (password reset). */
let smtp: SmtpFixture;
beforeAll(async () => {
  smtp = await startSmtpFixture();
  // On PostgreSQL a database of its own: other instances' workers (with the default, slow back-off) must not
  // take these deliveries, and this instance's outbox worker must not drain the shared service's emails.
  db = await isolatedDatabase();
  // Short back-off so retries happen within a test.
  svc = await startService({ env: {
    GATEHOUSE_WEBHOOK_RETRY_BASE_MS: '300', GATEHOUSE_WEBHOOK_RETRY_CAP_MS: '1000', GATEHOUSE_WEBHOOK_POLL_MS: '100',
    SMTP_URL: smtp.url,
    ...(db.url ? { DATABASE_URL: db.url } : {}),
  } });
}, 60_000);
afterAll(async () => { await svc?.stop(); await db?.drop(); await smtp?.stop(); });

interface Received { id: string; timestamp: number; signature: string; body: string; json: any; verified: boolean; at: number }

/** An HTTP receiver that checks every request's signature with the endpoint secret, independently of the service code. */
class Receiver {
  server!: ReturnType<typeof Bun.serve>;
  port = 0;
  secret = '';
  received: Received[] = [];
  /** Status to answer per request (default 204); lets a test fail the first attempts. */
  respond: (r: Received) => number = () => 204;

  start(port = 0) {
    this.server = Bun.serve({
      port, hostname: '127.0.0.1',
      fetch: async (req) => {
        const body = await req.text();
        const id = req.headers.get('webhook-id') ?? '';
        const timestamp = Number(req.headers.get('webhook-timestamp'));
        const signature = req.headers.get('webhook-signature') ?? '';
        const key = Buffer.from(this.secret.replace(/^whsec_/, ''), 'base64');
        const expected = `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
        const verified = signature.split(' ').includes(expected) && Math.abs(Date.now() / 1000 - timestamp) < 300
          && req.headers.get('content-type') === 'application/json';
        const r: Received = { id, timestamp, signature, body, json: JSON.parse(body), verified, at: Date.now() };
        this.received.push(r);
        return new Response(null, { status: this.respond(r) });
      },
    });
    this.port = this.server.port!;
    return this;
  }
  get url() { return `http://127.0.0.1:${this.port}/hook`; }
  stop() { this.server.stop(true); }
  events(type?: string) { return this.received.filter((r) => !type || r.json.type === type); }
  async waitFor(pred: (r: Received) => boolean, timeoutMs = 20_000): Promise<Received> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(pred);
      if (found) return found;
      if (Date.now() > until) throw new Error(`no matching webhook within ${timeoutMs} ms; got ${JSON.stringify(this.received.map((r) => r.json.type))}`);
      await Bun.sleep(25);
    }
  }
}

async function withEndpoint(p: TestProject, receiver: Receiver, extra: Record<string, unknown> = {}) {
  const res = await p.admin.post('/webhooks/endpoints', { url: receiver.url, description: 'test receiver', ...extra });
  expect(res.status).toBe(201);
  receiver.secret = res.body.secret;
  return res.body;
}

describe('endpoint management', () => {
  test('create (secret once), list, get, patch, delete', async () => {
    const p = await newProject(svc);
    const created = await p.admin.post('/webhooks/endpoints', { url: 'https://hooks.example.com/a', event_types: ['user.created', 'user.created', 'team.deleted'] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String), url: 'https://hooks.example.com/a', description: null, enabled: true,
      event_types: ['user.created', 'team.deleted'], created_at_millis: expect.any(Number), secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    const { secret, ...view } = created.body;
    expect((await p.admin.get('/webhooks/endpoints')).body).toEqual({ items: [view], is_paginated: false });
    const got = await p.admin.get(`/webhooks/endpoints/${view.id}`);
    expect(got.body).toEqual(view);
    expect(got.text).not.toContain(secret);

    const patched = await p.admin.patch(`/webhooks/endpoints/${view.id}`, { enabled: false, description: 'off', event_types: null });
    expect(patched.body).toEqual({ ...view, enabled: false, description: 'off', event_types: null });
    expect((await p.admin.delete(`/webhooks/endpoints/${view.id}`)).body).toEqual({ success: true });
    const gone = await p.admin.get(`/webhooks/endpoints/${view.id}`);
    expect({ status: gone.status, text: gone.text }).toEqual({ status: 404, text: 'Webhook endpoint not found' });
    expect((await p.admin.delete(`/webhooks/endpoints/${view.id}`)).status).toBe(404);
    expect((await p.admin.patch(`/webhooks/endpoints/${view.id}`, { enabled: true })).status).toBe(404);
  });

  test('validation', async () => {
    const p = await newProject(svc);
    for (const body of [{ url: 'ftp://x.example.com' }, { url: 'not a url' }, {}, { url: 'https://x.example.com', event_types: ['user.exploded'] }, { url: 'https://x.example.com', secret: 'mine' }]) {
      expectKnownError(await p.admin.post('/webhooks/endpoints', body), 'SCHEMA_ERROR', 400);
    }
    expectKnownError(await p.admin.get('/webhooks/endpoints/not-a-uuid'), 'SCHEMA_ERROR', 400);
    expect((await p.admin.get('/webhooks/endpoints')).body.items).toEqual([]);
  });

  test('POST /webhooks/svix-token answers a clear error pointing to /webhooks/endpoints', async () => {
    const p = await newProject(svc);
    const res = await p.admin.post('/webhooks/svix-token', {});
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.text).toContain('/webhooks/endpoints');
    expectKnownError(await p.client.post('/webhooks/svix-token', {}), 'INSUFFICIENT_ACCESS_TYPE', 401);
  });

  test('access matrix: client/server refused; owner token works; other users refused', async () => {
    const p = await newProject(svc);
    for (const api of [p.client, p.server]) {
      expectKnownError(await api.get('/webhooks/endpoints'), 'INSUFFICIENT_ACCESS_TYPE', 401);
      expectKnownError(await api.post('/webhooks/endpoints', { url: 'https://x.example.com' }), 'INSUFFICIENT_ACCESS_TYPE', 401);
      expectKnownError(await api.patch(`/webhooks/endpoints/${crypto.randomUUID()}`, {}), 'INSUFFICIENT_ACCESS_TYPE', 401);
      expectKnownError(await api.delete(`/webhooks/endpoints/${crypto.randomUUID()}`), 'INSUFFICIENT_ACCESS_TYPE', 401);
    }
    const created = await p.ownerAdmin.post('/webhooks/endpoints', { url: 'https://x.example.com' });
    expect(created.status).toBe(201);
    const stranger = await newInternalUser(svc);
    const strangerAdmin = new Api(svc.url, { 'x-stack-project-id': p.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': stranger.accessToken });
    expectKnownError(await strangerAdmin.get('/webhooks/endpoints'), 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401);
    // Another project's admin cannot see or touch this endpoint.
    const other = await newProject(svc);
    expect((await other.admin.get('/webhooks/endpoints')).body.items).toEqual([]);
    expect((await other.admin.delete(`/webhooks/endpoints/${created.body.id}`)).status).toBe(404);
    expect((await p.admin.get(`/webhooks/endpoints/${created.body.id}`)).status).toBe(200);
  });
});

describe('delivery', () => {
  test('user.created / user.updated / user.deleted from the user routes, signed', async () => {
    const receiver = new Receiver().start();
    try {
      const p = await newProject(svc);
      await withEndpoint(p, receiver);
      const created = await p.server.post('/users', { display_name: 'Hooked', primary_email: uniqueEmail('hook') });
      expect(created.status).toBe(201);
      const c = await receiver.waitFor((r) => r.json.type === 'user.created');
      expect(c.verified).toBe(true);
      expect(c.json).toEqual({ type: 'user.created', data: created.body });

      const updated = await p.server.patch(`/users/${created.body.id}`, { display_name: 'Renamed' });
      const u = await receiver.waitFor((r) => r.json.type === 'user.updated');
      expect(u.verified).toBe(true);
      expect(u.json.data).toEqual({ ...updated.body, last_active_at_millis: u.json.data.last_active_at_millis });
      expect(u.json.data.display_name).toBe('Renamed');

      expect((await p.server.delete(`/users/${created.body.id}`)).status).toBe(200);
      const d = await receiver.waitFor((r) => r.json.type === 'user.deleted');
      expect(d.verified).toBe(true);
      expect(d.json).toEqual({ type: 'user.deleted', data: { id: created.body.id, teams: [] } });
      expect(new Set(receiver.received.map((r) => r.id)).size).toBe(receiver.received.length);

      // Password sign-up emits user.created too.
      const s = await signUp(p);
      const signedUp = await receiver.waitFor((r) => r.json.type === 'user.created' && r.json.data.id === s.userId);
      expect(signedUp.verified).toBe(true);
      expect(signedUp.json.data.primary_email).toBe(s.email);
    } finally { receiver.stop(); }
  });

  test('password reset emits user.updated with the user as it is after the reset', async () => {
    const receiver = new Receiver().start();
    try {
      const p = await newProject(svc);
      await withEndpoint(p, receiver);
      // A user without a password: the reset creates it, so the event shows has_password turning true.
      const email = uniqueEmail('reset-hook');
      const created = await p.server.post('/users', { primary_email: email, primary_email_auth_enabled: true });
      expect(created.status).toBe(201);
      expect(created.body.has_password).toBe(false);
      await receiver.waitFor((r) => r.json.type === 'user.created' && r.json.data.id === created.body.id);

      const callback = 'http://localhost:12345/reset';
      expect((await p.client.post('/auth/password/send-reset-code', { email, callback_url: callback })).status).toBe(200);
      const code = extractCode(await smtp.waitForMail((m) => m.to.includes(email)))!;
      // A refused reset (password too short) changes nothing and emits nothing.
      expectKnownError(await p.client.post('/auth/password/reset', { code, password: 'short' }), 'PASSWORD_TOO_SHORT', 400);
      expect((await p.client.post('/auth/password/reset', { code, password: 'a-new-password-1' })).status).toBe(200);

      const u = await receiver.waitFor((r) => r.json.type === 'user.updated' && r.json.data.id === created.body.id);
      expect(u.verified).toBe(true);
      const now = (await p.server.get(`/users/${created.body.id}`)).body;
      expect(u.json.data).toEqual({ ...now, last_active_at_millis: u.json.data.last_active_at_millis });
      expect(u.json.data.has_password).toBe(true);
      await Bun.sleep(1_000);
      expect(receiver.events('user.updated')).toHaveLength(1);
    } finally { receiver.stop(); }
  });

  test('disabled endpoints and unsubscribed event types get nothing; other projects never leak', async () => {
    const all = new Receiver().start();
    const createdOnly = new Receiver().start();
    const disabled = new Receiver().start();
    const otherProject = new Receiver().start();
    try {
      const p = await newProject(svc);
      const q = await newProject(svc);
      await withEndpoint(p, all);
      await withEndpoint(p, createdOnly, { event_types: ['user.created'] });
      const dis = await withEndpoint(p, disabled);
      expect((await p.admin.patch(`/webhooks/endpoints/${dis.id}`, { enabled: false })).status).toBe(200);
      await withEndpoint(q, otherProject);

      const user = (await p.server.post('/users', {})).body;
      await p.server.patch(`/users/${user.id}`, { display_name: 'x' });
      // Both of `all`'s deliveries may go out in one round, concurrently: wait for each, then a little longer
      // for unexpected extras.
      await all.waitFor((r) => r.json.type === 'user.created');
      await all.waitFor((r) => r.json.type === 'user.updated');
      await createdOnly.waitFor((r) => r.json.type === 'user.created');
      await Bun.sleep(1_000);
      expect(all.received.map((r) => r.json.type).sort()).toEqual(['user.created', 'user.updated']);
      expect(createdOnly.received.map((r) => r.json.type)).toEqual(['user.created']);
      expect(disabled.received).toEqual([]);
      expect(otherProject.received).toEqual([]);
      expect([...all.received, ...createdOnly.received].every((r) => r.verified)).toBe(true);
    } finally { for (const r of [all, createdOnly, disabled, otherProject]) r.stop(); }
  });

  test('failed attempts are retried, signed each time, with the same webhook-id', async () => {
    const receiver = new Receiver().start();
    let calls = 0;
    receiver.respond = () => (++calls <= 2 ? 500 : 200);
    try {
      const p = await newProject(svc);
      await withEndpoint(p, receiver);
      const user = (await p.server.post('/users', {})).body;
      await receiver.waitFor(() => calls >= 3, 15_000);
      const attempts = receiver.events('user.created');
      expect(attempts).toHaveLength(3);
      expect(new Set(attempts.map((a) => a.id)).size).toBe(1);
      expect(attempts.every((a) => a.verified && a.json.data.id === user.id)).toBe(true);
      // Back-off between attempts.
      expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(100);
      await Bun.sleep(1_000);
      expect(receiver.events('user.created')).toHaveLength(3); // delivered: no more attempts
    } finally { receiver.stop(); }
  });

  test('receiver down, then up: the event is delivered later', async () => {
    const receiver = new Receiver().start();
    const port = receiver.port;
    const p = await newProject(svc);
    await withEndpoint(p, receiver);
    receiver.stop();
    const user = (await p.server.post('/users', { display_name: 'While down' })).body;
    // At least one failed attempt (connection refused): the worker logs it once its outcome is recorded.
    const failedAttempt = `[webhooks] attempt 1 of user.created to http://127.0.0.1:${port}/hook failed`;
    const end = Date.now() + 20_000;
    while (!svc.output().includes(failedAttempt) && Date.now() < end) await Bun.sleep(50);
    expect(receiver.received).toEqual([]);
    expect(svc.output()).toContain(failedAttempt);
    receiver.start(port);
    try {
      const r = await receiver.waitFor((x) => x.json.type === 'user.created', 15_000);
      expect(r.verified).toBe(true);
      expect(r.json.data.id).toBe(user.id);
    } finally { receiver.stop(); }
  });

  test('a deleted endpoint receives nothing more', async () => {
    const receiver = new Receiver().start();
    try {
      const p = await newProject(svc);
      const ep = await withEndpoint(p, receiver);
      await p.server.post('/users', {});
      await receiver.waitFor((r) => r.json.type === 'user.created');
      await p.admin.delete(`/webhooks/endpoints/${ep.id}`);
      await p.server.post('/users', {});
      await Bun.sleep(1_000);
      expect(receiver.events('user.created')).toHaveLength(1);
    } finally { receiver.stop(); }
  });
});
