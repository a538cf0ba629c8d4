// The Webhooks screen as an owner uses it, against a local HTTP receiver started here that verifies each request
// the way Standard Webhooks receivers do (with the secret the console showed once): add an endpoint, get the
// user.created of a user created through the API, see the delivery listed, send a test event, retry a failed
// delivery now, disable and delete the endpoint.
import { afterAll, describe, expect, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { adminApi, serverApi } from '../../service/test/support/service';
import { isolatedDatabase } from '../../service/test/support/isolated-database';
import { WebhookReceiver } from '../../service/test/support/webhook-receiver';
import {
  checkLooks, checkLooksAtBothWidths, createAllKeys, createProject, notification, openConsole, openScreen, selectOption, setChecked, setupConsoleSuite, signUpOwner, uniqueEmail, type ShownKeys,
} from './support/console';

// A back-off of at least half a minute: a failed delivery's next automatic attempt is far off, so the attempt
// that follows "Retry now" is the one it asked for. Under DATABASE_URL, a database of its own (no other
// service's worker takes these deliveries).
const db = process.env.DATABASE_URL ? await isolatedDatabase() : undefined;
const { svc } = await setupConsoleSuite({ env: { GATEHOUSE_WEBHOOK_RETRY_BASE_MS: '60000', ...(db?.url ? { DATABASE_URL: db.url } : {}) } });
const receiver = new WebhookReceiver().start();
let context: BrowserContext;
let page: Page;
let projectId: string;
let keys: ShownKeys;
let endpointId: string;
const admin = () => adminApi(svc.url, projectId, keys.superSecretAdminKey);
const server = () => serverApi(svc.url, projectId, keys.secretServerKey);

afterAll(async () => { receiver.stop(); await context?.close(); await db?.drop(); });

const rows = (p: Page) => p.getByTestId('webhook-delivery');
const row = (p: Page, deliveryId: string) => p.locator(`[data-testid="webhook-delivery"][data-delivery-id="${deliveryId}"]`);

/** Waits until the delivery's row (the list reads itself again) is in `state`. */
async function rowInState(p: Page, deliveryId: string, state: string) {
  await p.locator(`[data-testid="webhook-delivery"][data-delivery-id="${deliveryId}"][data-state="${state}"]`).waitFor({ timeout: 30_000 });
  return row(p, deliveryId);
}

async function apiDelivery(deliveryId: string) {
  const items = (await admin().get(`/webhooks/endpoints/${endpointId}/deliveries`)).body.items as any[];
  return items.find((d) => d.id === deliveryId);
}

describe('webhooks', () => {
  test('setup: an owner with a project and its keys; no endpoints yet', async () => {
    ({ context, page } = await openConsole(svc));
    await signUpOwner(page);
    projectId = await createProject(page, 'Hooks');
    keys = await createAllKeys(page, 'Tests');
    await openScreen(page, 'Webhooks');
    await page.getByRole('main').getByTestId('empty-state').waitFor();
    await checkLooks(page, 'webhooks-empty', (p) => p.getByRole('main').getByTestId('empty-state').waitFor());
  });

  test('add an endpoint: the URL is checked, the signing secret is shown once', async () => {
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await dialog.getByText('Required').waitFor();
    await dialog.getByLabel('Endpoint URL').fill('ftp://files.example.com/hook');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await dialog.getByText('Enter an http:// or https:// URL').waitFor();
    expect((await admin().get('/webhooks/endpoints')).body.items).toEqual([]);

    await dialog.getByLabel('Endpoint URL').fill(receiver.url);
    await dialog.getByLabel('Description').fill('Local receiver');
    await checkLooks(page, 'webhooks-add', (p) => p.getByRole('dialog').waitFor());
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByRole('dialog', { name: 'Copy the signing secret now' });
    await shown.waitFor();
    receiver.secret = (await shown.getByTestId('webhook-secret').textContent())!;
    expect(receiver.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    await checkLooks(page, 'webhooks-secret', (p) => p.getByRole('dialog', { name: 'Copy the signing secret now' }).waitFor());
    // The dialog stays until the owner says they copied the secret.
    expect(await shown.getByRole('button', { name: 'Close' }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await shown.isVisible()).toBe(true);
    await setChecked(shown.getByRole('checkbox', { name: 'I have copied the secret' }), true);
    await shown.getByRole('button', { name: 'Close' }).click();
    await shown.waitFor({ state: 'hidden' });

    const listed = (await admin().get('/webhooks/endpoints')).body.items;
    expect(listed).toEqual([expect.objectContaining({ url: receiver.url, description: 'Local receiver', enabled: true, event_types: null })]);
    endpointId = listed[0].id;
    // Shown once: neither the list nor the endpoint carries the secret afterwards.
    expect(JSON.stringify(listed)).not.toContain(receiver.secret);
    expect(await page.getByText(receiver.secret).count()).toBe(0);
    await page.getByTestId('webhook-endpoint').filter({ hasText: 'Local receiver' }).waitFor();
    await page.getByTestId('webhook-deliveries').getByTestId('empty-state').waitFor();
  });

  test("a user created through the API: user.created reaches the receiver, signed with the secret shown, and is listed", async () => {
    const created = await server().post('/users', { display_name: 'Hooked Hana', primary_email: uniqueEmail('hooked') });
    expect(created.status).toBe(201);
    const got = await receiver.waitFor((r) => r.json?.type === 'user.created');
    expect(got.verified).toBe(true);
    expect(got.json).toEqual({ type: 'user.created', data: created.body });

    const listed = await rowInState(page, got.id, 'delivered');
    expect(await listed.locator('td').first().textContent()).toContain('user.created');
    expect(await listed.textContent()).toContain('Delivered');
    expect(await listed.getByTestId('delivery-attempts').textContent()).toBe('1');
    expect(await listed.getByTestId('delivery-response').textContent()).toBe('204');
    expect(await listed.getByTestId('delivery-next-retry').textContent()).toBe('—');
    expect(await apiDelivery(got.id)).toMatchObject({ event_type: 'user.created', status: 'delivered', attempts: 1, last_response_status: 204 });
  });

  test('send test event: a signed webhook.test arrives and shows as delivered', async () => {
    await page.getByRole('button', { name: 'Send test event' }).click();
    await notification(page, 'Test event queued');
    const got = await receiver.waitFor((r) => r.json?.type === 'webhook.test');
    expect(got.verified).toBe(true);
    expect(got.json.data.endpoint_id).toBe(endpointId);
    await rowInState(page, got.id, 'delivered');
    // Newest first.
    expect(await rows(page).first().getAttribute('data-delivery-id')).toBe(got.id);
  });

  test('a refused delivery is retrying with its response code and next retry; "Retry now" sends it at once', async () => {
    receiver.respond = () => 503;
    const created = await server().post('/users', { display_name: 'Refused Rui' });
    expect(created.status).toBe(201);
    const first = await receiver.waitFor((r) => r.json?.type === 'user.created' && r.json.data.id === created.body.id);
    const listed = await rowInState(page, first.id, 'retrying');
    expect(await listed.getByTestId('delivery-response').textContent()).toBe('503');
    expect(await listed.textContent()).toContain('HTTP 503');
    expect(await listed.getByTestId('delivery-next-retry').textContent()).not.toBe('—');
    const pending = await apiDelivery(first.id);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, last_response_status: 503 });
    // The next automatic attempt is at least 30 s away.
    expect(pending.next_attempt_at_millis - Date.now()).toBeGreaterThan(20_000);
    await checkLooks(page, 'webhooks', (p) => p.locator(`[data-delivery-id="${first.id}"][data-state="retrying"]`).waitFor());
    await checkLooksAtBothWidths(page, 'webhooks', (p) => p.locator(`[data-delivery-id="${first.id}"][data-state="retrying"]`).waitFor());

    receiver.respond = () => 200;
    const clicked = Date.now();
    await listed.getByRole('button', { name: /^Retry now/ }).click();
    await notification(page, 'Delivery queued to be sent now');
    const again = await receiver.waitFor((r) => r !== first && r.id === first.id, 15_000);
    expect(again.at).toBeLessThan(pending.next_attempt_at_millis);
    expect(again.at - clicked).toBeLessThan(15_000);
    expect(again.verified).toBe(true);
    const done = await rowInState(page, first.id, 'delivered');
    expect(await done.getByTestId('delivery-attempts').textContent()).toBe('2');
    expect(await done.getByTestId('delivery-response').textContent()).toBe('200');
    expect(receiver.received.filter((r) => r.id === first.id)).toHaveLength(2);
  });

  test('events: the endpoint is edited to receive team.created and user.deleted only; the list is filtered by event type and status', async () => {
    const card = page.getByTestId('webhook-endpoint').filter({ hasText: 'Local receiver' });
    await expect(card.getByTestId('endpoint-events').textContent()).resolves.toBe('All events');
    await card.getByRole('button', { name: /^Edit/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the webhook endpoint' });
    expect(await dialog.getByLabel('Endpoint URL').inputValue()).toBe(receiver.url);
    await setChecked(dialog.getByRole('checkbox', { name: 'Every event, also types added later' }), false);
    // The list of the event types that exist, none ticked: saving asks for one.
    const boxes = await dialog.getByRole('group', { name: 'Events to send' }).getByRole('checkbox').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    expect(boxes).toEqual([
      'user.created', 'user.updated', 'user.deleted', 'team.created', 'team.updated', 'team.deleted', 'team_membership.created',
      'team_membership.deleted', 'team_permission.created', 'team_permission.deleted', 'project_permission.created', 'project_permission.deleted',
    ]);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Choose at least one event, or send every event').waitFor();
    await setChecked(dialog.getByRole('checkbox', { name: 'team.created' }), true);
    await setChecked(dialog.getByRole('checkbox', { name: 'user.deleted' }), true);
    await checkLooksAtBothWidths(page, 'webhooks-edit-events', (p) => p.getByRole('dialog', { name: 'Edit the webhook endpoint' }).getByRole('checkbox', { name: 'team.created' }).waitFor());
    await dialog.getByRole('button', { name: 'Save' }).click();
    await notification(page, 'Endpoint saved');
    expect((await admin().get(`/webhooks/endpoints/${endpointId}`)).body.event_types).toEqual(['user.deleted', 'team.created']);
    await card.getByTestId('endpoint-events').filter({ hasText: 'team.created' }).waitFor();

    // A new user is not sent to it any more; a new team is.
    const before = receiver.received.length;
    const user = (await server().post('/users', {})).body;
    const team = (await server().post('/teams', { display_name: 'Subscribed' })).body;
    const got = await receiver.waitFor((r) => r.json?.type === 'team.created' && r.json.data.id === team.id);
    await rowInState(page, got.id, 'delivered');
    expect(receiver.received.slice(before).some((r) => r.json?.data?.id === user.id)).toBe(false);

    // Filtered by the service: one event type, then a type and a status, then a status nothing has.
    await selectOption(page, 'Event type', 'team.created');
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="webhook-delivery"]')].every((r) => r.textContent!.includes('team.created')));
    expect(await rows(page).count()).toBe(1);
    await selectOption(page, 'Event type', 'user.created');
    await selectOption(page, 'Status', 'Delivered');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="webhook-delivery"]').length === 2);
    expect(await rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))).toEqual(['delivered', 'delivered']);
    await checkLooksAtBothWidths(page, 'webhooks-filtered', (p) => p.getByTestId('delivery-filters').waitFor());
    await selectOption(page, 'Status', 'Failed');
    await page.getByTestId('webhook-deliveries').getByText('No recent delivery of this event type and status.').waitFor();
    await selectOption(page, 'Event type', 'Any event');
    await selectOption(page, 'Status', 'Any status');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="webhook-delivery"]').length >= 4);
  });

  test('disable (nothing is sent, no test events), enable again, then delete behind a confirmation', async () => {
    const card = page.getByTestId('webhook-endpoint').filter({ hasText: 'Local receiver' });
    await setChecked(card.getByRole('switch'), false);
    await notification(page, 'Endpoint disabled');
    expect((await admin().get(`/webhooks/endpoints/${endpointId}`)).body.enabled).toBe(false);
    expect(await page.getByRole('button', { name: 'Send test event' }).isDisabled()).toBe(true);
    const before = receiver.received.length;
    expect((await server().post('/users', {})).status).toBe(201);
    await Bun.sleep(1_500);
    expect(receiver.received).toHaveLength(before);

    await setChecked(card.getByRole('switch'), true);
    await notification(page, 'Endpoint enabled');
    expect((await admin().get(`/webhooks/endpoints/${endpointId}`)).body.enabled).toBe(true);

    await card.getByRole('button', { name: /^Delete/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this endpoint?' });
    await confirm.waitFor();
    await checkLooks(page, 'webhooks-delete', (p) => p.getByRole('dialog').waitFor());
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await notification(page, 'Endpoint deleted');
    await page.getByRole('main').getByTestId('empty-state').waitFor();
    expect((await admin().get('/webhooks/endpoints')).body.items).toEqual([]);
  });
});
