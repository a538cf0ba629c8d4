// The admin app's webhook calls against the real service: endpoints (create with the secret once, update,
// delete, the cached list), an endpoint's deliveries, a test event a local receiver verifies, retry now.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sharedService, type RunningService } from '../../../service/test/support/service.ts';
import { newProject, type TestProject } from '../../../service/test/support/projects.ts';
import { WebhookReceiver } from '../../../service/test/support/webhook-receiver.ts';
import type { GatehouseAdminApp, WebhookDelivery } from '../../src/client/index.ts';
import { adminFor } from './service-helpers.ts';

setDefaultTimeout(90_000);
let svc: RunningService;
let project: TestProject;
const receiver = new WebhookReceiver();

beforeAll(async () => {
  svc = await sharedService();
  project = await newProject(svc);
  receiver.start();
}, 180_000);
afterAll(() => receiver.stop());

async function until(app: GatehouseAdminApp, endpointId: string, pred: (d: WebhookDelivery) => boolean): Promise<WebhookDelivery> {
  for (let i = 0; ; i++) {
    const found = (await app.listWebhookDeliveries(endpointId)).find(pred);
    if (found) return found;
    if (i > 200) throw new Error('no matching delivery');
    await Bun.sleep(50);
  }
}

describe('admin app: webhooks', () => {
  test('create shows the secret once; the list, update and delete keep the cached list current', async () => {
    const app = adminFor(project);
    const read = app.adminReads.webhookEndpoints();
    expect(await read.get()).toEqual([]);
    const created = await app.createWebhookEndpoint({ url: 'https://hooks.example.com/a', description: 'Billing', eventTypes: ['user.created'] });
    expect(created).toMatchObject({ url: 'https://hooks.example.com/a', description: 'Billing', enabled: true, eventTypes: ['user.created'] });
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.createdAt).toBeInstanceOf(Date);
    // The create call refreshed the cached list; the list never carries the secret.
    const snap = read.peek();
    expect(snap.status === 'ok' && snap.value.map((e) => e.id)).toEqual([created.id]);
    expect(JSON.stringify(await app.listWebhookEndpoints())).not.toContain(created.secret);

    const updated = await app.updateWebhookEndpoint(created.id, { enabled: false, description: null, eventTypes: null });
    expect(updated).toMatchObject({ id: created.id, enabled: false, description: null, eventTypes: null });
    expect((await app.listWebhookEndpoints())[0]!.enabled).toBe(false);
    await app.deleteWebhookEndpoint(created.id);
    const after = read.peek();
    expect(after.status === 'ok' && after.value).toEqual([]);
    await expect(app.deleteWebhookEndpoint(created.id)).rejects.toThrow();
  });

  test('a test event reaches a local receiver signed; its delivery is listed; retry sends it again', async () => {
    const app = adminFor(project);
    const endpoint = await app.createWebhookEndpoint({ url: receiver.url });
    receiver.secret = endpoint.secret;
    const queued = await app.sendTestWebhookEvent(endpoint.id);
    expect(queued).toMatchObject({ endpointId: endpoint.id, eventType: 'webhook.test', status: 'pending', attempts: 0, lastResponseStatus: null });
    const got = await receiver.waitFor((r) => r.id === queued.id);
    expect(got.verified).toBe(true);

    const delivered = await until(app, endpoint.id, (d) => d.id === queued.id && d.status === 'delivered');
    expect(delivered).toMatchObject({ attempts: 1, lastResponseStatus: 204, lastError: null, nextAttemptAt: null });
    expect(delivered.deliveredAt).toBeInstanceOf(Date);
    expect(delivered.createdAt).toBeInstanceOf(Date);

    const retried = await app.retryWebhookDelivery(endpoint.id, queued.id);
    expect(retried).toMatchObject({ id: queued.id, status: 'pending' });
    expect(retried.nextAttemptAt).toBeInstanceOf(Date);
    await until(app, endpoint.id, (d) => d.id === queued.id && d.status === 'delivered' && d.attempts === 2);
    expect(receiver.received.filter((r) => r.id === queued.id)).toHaveLength(2);
  });
});
