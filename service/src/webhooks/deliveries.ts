// An endpoint's deliveries (admin): the recent ones with their state, a test event sent to that endpoint alone, and
// "retry now" for one delivery. Deliveries are made by the webhook worker (webhooks/worker.ts); these only write
// outbox rows and wake the worker.
import { StatusError } from '@gatehouse/shared/known-errors';
import { WEBHOOK_TEST_EVENT_TYPE } from '@gatehouse/shared/schemas/webhooks';
import type { Services } from '../services';
import * as webhooks from '../repo/webhooks';
import { endpointNotFound } from './endpoints';

/** How many deliveries the list shows: the recent history, not an archive. */
export const RECENT_DELIVERIES = 100;

const deliveryNotFound = () => new StatusError(404, 'Webhook delivery not found');
const endpointDisabled = () => new StatusError(400, 'This webhook endpoint is disabled. Enable it to send events to it.');
const deliveryInFlight = () => new StatusError(409, 'This delivery is being attempted right now. Try again when the attempt has finished.');

async function enabledEndpoint(services: Services, projectId: string, endpointId: string) {
  const endpoint = await webhooks.findEndpoint(services.db, projectId, endpointId);
  if (!endpoint) throw endpointNotFound();
  if (!endpoint.enabled) throw endpointDisabled();
  return endpoint;
}

/** The endpoint's last deliveries (of one event type and/or status when asked), newest first. */
export async function listDeliveries(services: Services, input: { projectId: string; endpointId: string; filter?: webhooks.DeliveryFilter }): Promise<webhooks.DeliveryRow[]> {
  if (!(await webhooks.findEndpoint(services.db, input.projectId, input.endpointId))) throw endpointNotFound();
  return webhooks.listDeliveries(services.db, input.projectId, input.endpointId, RECENT_DELIVERIES, input.filter);
}

/** A test event for this endpoint alone (whatever its event types), signed like every event. */
export async function sendTestEvent(services: Services, input: { projectId: string; endpointId: string }): Promise<webhooks.DeliveryRow> {
  const endpoint = await enabledEndpoint(services, input.projectId, input.endpointId);
  const row = await webhooks.insertDelivery(services.db, {
    projectId: input.projectId, endpointId: endpoint.id, eventType: WEBHOOK_TEST_EVENT_TYPE,
    payload: { type: WEBHOOK_TEST_EVENT_TYPE, data: { endpoint_id: endpoint.id, sent_at_millis: Date.now() } },
  });
  services.webhookWorkers.wake();
  return row;
}

/** A delivery attempted now: a pending one without waiting for its back-off, a done one once more (same webhook-id). */
export async function retryDelivery(services: Services, input: { projectId: string; endpointId: string; deliveryId: string }): Promise<webhooks.DeliveryRow> {
  const { projectId, endpointId, deliveryId } = input;
  await enabledEndpoint(services, projectId, endpointId);
  const row = await webhooks.makeDueNow(services.db, projectId, endpointId, deliveryId);
  if (!row) throw (await webhooks.findDelivery(services.db, projectId, endpointId, deliveryId)) ? deliveryInFlight() : deliveryNotFound();
  services.webhookWorkers.wake();
  return row;
}
