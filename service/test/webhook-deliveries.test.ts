// An endpoint's deliveries through the admin API: the list (status, attempts, next retry, response code), a
// signed test event for one endpoint, "retry now" for a pending, failed or delivered delivery, and the errors
// (unknown ids, a disabled endpoint, an attempt in flight, other projects, non-admin access).
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { expectKnownError, startService, type RunningService } from './support/service';
import { newProject, type TestProject } from './support/projects';
import { isolatedDatabase } from './support/isolated-database';
import { WebhookReceiver } from './support/webhook-receiver';

setDefaultTimeout(60_000);

let svc: RunningService;
let db: Awaited<ReturnType<typeof isolatedDatabase>> | undefined;
beforeAll(async () => {
  // A database of its own (no other instance's worker takes these rows); a long back-off, so an automatic retry
  // never comes during a test and every second attempt is the one "retry now" asked for; two attempts at most.
  db = await isolatedDatabase();
  svc = await startService({ env: {
    GATEHOUSE_WEBHOOK_RETRY_BASE_MS: '120000', GATEHOUSE_WEBHOOK_RETRY_CAP_MS: '120000', GATEHOUSE_WEBHOOK_POLL_MS: '100',
    GATEHOUSE_WEBHOOK_MAX_ATTEMPTS: '2',
    ...(db.url ? { DATABASE_URL: db.url } : {}),
  } });
}, 60_000);
afterAll(async () => { await svc?.stop(); await db?.drop(); });

async function withEndpoint(p: TestProject, receiver: WebhookReceiver, extra: Record<string, unknown> = {}) {
  const res = await p.admin.post('/webhooks/endpoints', { url: receiver.url, description: 'receiver', ...extra });
  expect(res.status).toBe(201);
  receiver.secret = res.body.secret;
  return res.body as { id: string };
}

async function deliveries(p: TestProject, endpointId: string) {
  const res = await p.admin.get(`/webhooks/endpoints/${endpointId}/deliveries`);
  expect(res.status).toBe(200);
  expect(res.body.is_paginated).toBe(false);
  return res.body.items as any[];
}

/** Polls the list until the delivery satisfies `pred` (the worker records outcomes after the receiver answered). */
async function waitForDelivery(p: TestProject, endpointId: string, pred: (d: any) => boolean, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = (await deliveries(p, endpointId)).find(pred);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no matching delivery within ${timeoutMs} ms: ${JSON.stringify(await deliveries(p, endpointId))}`);
    await Bun.sleep(50);
  }
}

describe('the deliveries list', () => {
  test("a delivered user.created: status, one attempt, the receiver's response code, no next retry", async () => {
    const receiver = new WebhookReceiver().start();
    try {
      const p = await newProject(svc);
      const ep = await withEndpoint(p, receiver);
      expect(await deliveries(p, ep.id)).toEqual([]);
      const user = (await p.server.post('/users', { display_name: 'Listed' })).body;
      const got = await receiver.waitFor((r) => r.json?.type === 'user.created');
      expect(got.verified).toBe(true);
      const d = await waitForDelivery(p, ep.id, (x) => x.status === 'delivered');
      expect(d).toEqual({
        id: got.id, endpoint_id: ep.id, event_type: 'user.created', status: 'delivered', attempts: 1,
        next_attempt_at_millis: null, last_attempt_at_millis: expect.any(Number), last_response_status: 204, last_error: null,
        delivered_at_millis: expect.any(Number), created_at_millis: expect.any(Number),
      });
      expect(got.json.data.id).toBe(user.id);
      expect(d.created_at_millis).toBeLessThanOrEqual(d.delivered_at_millis);
    } finally { receiver.stop(); }
  });

  test('newest first; unknown, malformed and foreign endpoint ids refused; admin access only', async () => {
    const receiver = new WebhookReceiver().start();
    try {
      const p = await newProject(svc);
      const ep = await withEndpoint(p, receiver);
      await p.server.post('/teams', { display_name: 'First' });
      await receiver.waitFor((r) => r.json?.type === 'team.created');
      await p.server.post('/users', {});
      await receiver.waitFor((r) => r.json?.type === 'user.created');
      expect((await deliveries(p, ep.id)).map((d) => d.event_type)).toEqual(['user.created', 'team.created']);

      const missing = await p.admin.get(`/webhooks/endpoints/${crypto.randomUUID()}/deliveries`);
      expect({ status: missing.status, text: missing.text }).toEqual({ status: 404, text: 'Webhook endpoint not found' });
      expectKnownError(await p.admin.get('/webhooks/endpoints/nope/deliveries'), 'SCHEMA_ERROR', 400);
      const other = await newProject(svc);
      expect((await other.admin.get(`/webhooks/endpoints/${ep.id}/deliveries`)).status).toBe(404);
      expect((await other.admin.post(`/webhooks/endpoints/${ep.id}/test`, {})).status).toBe(404);
      for (const api of [p.client, p.server]) {
        expectKnownError(await api.get(`/webhooks/endpoints/${ep.id}/deliveries`), 'INSUFFICIENT_ACCESS_TYPE', 401);
        expectKnownError(await api.post(`/webhooks/endpoints/${ep.id}/test`, {}), 'INSUFFICIENT_ACCESS_TYPE', 401);
      }
      expect((await p.ownerAdmin.get(`/webhooks/endpoints/${ep.id}/deliveries`)).status).toBe(200);
    } finally { receiver.stop(); }
  });
});

describe('the deliveries list, filtered', () => {
  test('by event type, by status, by both; an unknown type or status is a schema error', async () => {
    const receiver = new WebhookReceiver().start();
    try {
      const p = await newProject(svc);
      const ep = await withEndpoint(p, receiver);
      await p.server.post('/teams', { display_name: 'Filtered' });
      await p.server.post('/users', {});
      await receiver.waitFor((r) => r.json?.type === 'user.created');
      await receiver.waitFor((r) => r.json?.type === 'team.created');
      await waitForDelivery(p, ep.id, (d) => d.event_type === 'user.created' && d.status === 'delivered');
      await waitForDelivery(p, ep.id, (d) => d.event_type === 'team.created' && d.status === 'delivered');
      // A test event the receiver refuses: a failed-then-pending one of another type and status.
      receiver.respond = () => 500;
      const test = (await p.admin.post(`/webhooks/endpoints/${ep.id}/test`, {})).body;
      // Its first attempt's outcome recorded: attempts counts an attempt when it starts (status sending), so wait for the
      // refusal to put it back to pending (seen listed as sending under load).
      await waitForDelivery(p, ep.id, (d) => d.id === test.id && d.attempts === 1 && d.status === 'pending');
      const list = async (q: string) => {
        const res = await p.admin.get(`/webhooks/endpoints/${ep.id}/deliveries?${q}`);
        expect(res.status).toBe(200);
        return (res.body.items as any[]).map((d) => `${d.event_type}:${d.status}`);
      };
      expect(await list('event_type=user.created')).toEqual(['user.created:delivered']);
      expect(await list('event_type=webhook.test')).toEqual(['webhook.test:pending']);
      expect(await list('status=delivered')).toEqual(['user.created:delivered', 'team.created:delivered']);
      expect(await list('status=pending')).toEqual(['webhook.test:pending']);
      expect(await list('event_type=team.created&status=delivered')).toEqual(['team.created:delivered']);
      expect(await list('event_type=team.created&status=failed')).toEqual([]);
      expect(await list('event_type=team.deleted')).toEqual([]);
      expectKnownError(await p.admin.get(`/webhooks/endpoints/${ep.id}/deliveries?event_type=user.exploded`), 'SCHEMA_ERROR', 400);
      expectKnownError(await p.admin.get(`/webhooks/endpoints/${ep.id}/deliveries?status=lost`), 'SCHEMA_ERROR', 400);
    } finally { receiver.stop(); }
  });
});

describe('send test event', () => {
  test('a signed webhook.test goes to that endpoint only, whatever its event types', async () => {
    const target = new WebhookReceiver().start();
    const bystander = new WebhookReceiver().start();
    try {
      const p = await newProject(svc);
      const ep = await withEndpoint(p, target, { event_types: ['team.deleted'] });
      await withEndpoint(p, bystander);
      const sent = await p.admin.post(`/webhooks/endpoints/${ep.id}/test`, {});
      expect(sent.status).toBe(201);
      expect(sent.body).toMatchObject({ endpoint_id: ep.id, event_type: 'webhook.test', status: 'pending', attempts: 0, last_response_status: null });
      const got = await target.waitFor((r) => r.json?.type === 'webhook.test');
      expect(got.verified).toBe(true);
      expect(got.id).toBe(sent.body.id);
      expect(got.json).toEqual({ type: 'webhook.test', data: { endpoint_id: ep.id, sent_at_millis: expect.any(Number) } });
      await waitForDelivery(p, ep.id, (d) => d.id === sent.body.id && d.status === 'delivered' && d.last_response_status === 204);
      // Without a body too.
      expect((await p.admin.post(`/webhooks/endpoints/${ep.id}/test`)).status).toBe(201);
      await Bun.sleep(500);
      expect(bystander.received).toEqual([]);
    } finally { target.stop(); bystander.stop(); }
  });

  test('a disabled endpoint is refused; unknown fields are a schema error; nothing is queued', async () => {
    const receiver = new WebhookReceiver().start();
    try {
      const p = await newProject(svc);
      const ep = await withEndpoint(p, receiver, { enabled: false });
      const res = await p.admin.post(`/webhooks/endpoints/${ep.id}/test`, {});
      expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: 'This webhook endpoint is disabled. Enable it to send events to it.' });
      expectKnownError(await p.admin.post(`/webhooks/endpoints/${ep.id}/test`, { event_type: 'user.created' }), 'SCHEMA_ERROR', 400);
      const missing = await p.admin.post(`/webhooks/endpoints/${crypto.randomUUID()}/test`, {});
      expect({ status: missing.status, text: missing.text }).toEqual({ status: 404, text: 'Webhook endpoint not found' });
      expect(await deliveries(p, ep.id)).toEqual([]);
    } finally { receiver.stop(); }
  });
});

describe('retry now', () => {
  test('pending (waiting out its back-off) → attempted now; failed (out of attempts) → once more; same webhook-id each time', async () => {
    const receiver = new WebhookReceiver().start();
    let answer = 500;
    receiver.respond = () => answer;
    try {
      const p = await newProject(svc);
      const ep = await withEndpoint(p, receiver);
      await p.server.post('/users', {});
      const first = await receiver.waitFor((r) => r.json?.type === 'user.created');
      const pending = await waitForDelivery(p, ep.id, (d) => d.status === 'pending' && d.attempts === 1);
      expect(pending).toMatchObject({ last_response_status: 500, last_error: 'HTTP 500' });
      // The back-off is at least a minute: the next attempt is far off.
      expect(pending.next_attempt_at_millis - Date.now()).toBeGreaterThan(30_000);

      const retried = await p.admin.post(`/webhooks/endpoints/${ep.id}/deliveries/${pending.id}/retry`, {});
      expect(retried.status).toBe(200);
      expect(retried.body).toMatchObject({ id: pending.id, status: 'pending', attempts: 1 });
      expect(retried.body.next_attempt_at_millis).toBeLessThanOrEqual(Date.now() + 1_000);
      await receiver.waitFor((r) => r !== first && r.id === first.id, 10_000);
      // Second of two attempts failed: given up.
      const failed = await waitForDelivery(p, ep.id, (d) => d.status === 'failed');
      expect(failed).toMatchObject({ attempts: 2, next_attempt_at_millis: null, last_response_status: 500 });

      answer = 200;
      expect((await p.admin.post(`/webhooks/endpoints/${ep.id}/deliveries/${pending.id}/retry`)).status).toBe(200);
      const delivered = await waitForDelivery(p, ep.id, (d) => d.status === 'delivered');
      expect(delivered).toMatchObject({ attempts: 3, last_response_status: 200, last_error: null });
      const attempts = receiver.events('user.created');
      expect(attempts).toHaveLength(3);
      expect(attempts.every((a) => a.verified && a.id === first.id)).toBe(true);

      // A delivered one can be sent again (a receiver that lost it).
      expect((await p.admin.post(`/webhooks/endpoints/${ep.id}/deliveries/${pending.id}/retry`, {})).status).toBe(200);
      await waitForDelivery(p, ep.id, (d) => d.status === 'delivered' && d.attempts === 4);
      expect(receiver.events('user.created')).toHaveLength(4);
    } finally { receiver.stop(); }
  });

  test('an attempt in flight is not doubled (409); unknown, foreign and disabled are refused', async () => {
    const receiver = new WebhookReceiver().start();
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    receiver.respond = async () => { await held; return 204; };
    try {
      const p = await newProject(svc);
      const ep = await withEndpoint(p, receiver);
      const sent = (await p.admin.post(`/webhooks/endpoints/${ep.id}/test`, {})).body;
      await receiver.waitFor((r) => r.id === sent.id);
      const inFlight = await p.admin.post(`/webhooks/endpoints/${ep.id}/deliveries/${sent.id}/retry`, {});
      expect({ status: inFlight.status, text: inFlight.text }).toEqual({ status: 409, text: 'This delivery is being attempted right now. Try again when the attempt has finished.' });
      release();
      await waitForDelivery(p, ep.id, (d) => d.id === sent.id && d.status === 'delivered' && d.attempts === 1);

      const missing = await p.admin.post(`/webhooks/endpoints/${ep.id}/deliveries/${crypto.randomUUID()}/retry`, {});
      expect({ status: missing.status, text: missing.text }).toEqual({ status: 404, text: 'Webhook delivery not found' });
      expectKnownError(await p.admin.post(`/webhooks/endpoints/${ep.id}/deliveries/x/retry`, {}), 'SCHEMA_ERROR', 400);
      const other = await newProject(svc);
      const otherEp = (await other.admin.post('/webhooks/endpoints', { url: 'https://hooks.example.com/other' })).body;
      // Another project's endpoint, or this delivery under another endpoint: not found.
      expect((await other.admin.post(`/webhooks/endpoints/${ep.id}/deliveries/${sent.id}/retry`, {})).status).toBe(404);
      expect((await other.admin.post(`/webhooks/endpoints/${otherEp.id}/deliveries/${sent.id}/retry`, {})).status).toBe(404);
      expectKnownError(await p.server.post(`/webhooks/endpoints/${ep.id}/deliveries/${sent.id}/retry`, {}), 'INSUFFICIENT_ACCESS_TYPE', 401);

      expect((await p.admin.patch(`/webhooks/endpoints/${ep.id}`, { enabled: false })).status).toBe(200);
      const disabled = await p.admin.post(`/webhooks/endpoints/${ep.id}/deliveries/${sent.id}/retry`, {});
      expect({ status: disabled.status, text: disabled.text }).toEqual({ status: 400, text: 'This webhook endpoint is disabled. Enable it to send events to it.' });
      await Bun.sleep(500);
      expect(receiver.received).toHaveLength(1);
      expect((await deliveries(p, ep.id))[0]).toMatchObject({ status: 'delivered', attempts: 1 });
    } finally { receiver.stop(); }
  });
});
