// An endpoint's deliveries (admin; Gatehouse's own API, next to /webhooks/endpoints): the recent ones with their
// state, a test event sent to that endpoint alone, and "retry now" for one delivery. Deliveries are made by the
// webhook worker (webhooks/worker.ts); these routes only write outbox rows and wake the worker.
import { StatusError } from '@gatehouse/shared/known-errors';
import { OptionalEmptyBody } from '@gatehouse/shared/schemas/common';
import { WEBHOOK_TEST_EVENT_TYPE, WebhookDelivery, WebhookDeliveryParams, WebhookEndpointParams, WebhookDeliveryList } from '@gatehouse/shared/schemas/webhooks';
import type { DB } from '../db';
import { route } from '../http/route';
import * as webhooks from '../repo/webhooks';
import { deliveryView } from '../presenters/webhooks';

const TAGS = ['Webhooks'];
/** How many deliveries the list shows: the recent history, not an archive. */
const RECENT_DELIVERIES = 100;

const endpointNotFound = () => new StatusError(404, 'Webhook endpoint not found');
const deliveryNotFound = () => new StatusError(404, 'Webhook delivery not found');
const endpointDisabled = () => new StatusError(400, 'This webhook endpoint is disabled. Enable it to send events to it.');
const deliveryInFlight = () => new StatusError(409, 'This delivery is being attempted right now. Try again when the attempt has finished.');

async function enabledEndpoint(db: DB, projectId: string, endpointId: string) {
  const endpoint = await webhooks.findEndpoint(db, projectId, endpointId);
  if (!endpoint) throw endpointNotFound();
  if (!endpoint.enabled) throw endpointDisabled();
  return endpoint;
}

export const webhookDeliveryRoutes = [
  route({
    method: 'GET', path: '/webhooks/endpoints/:endpoint_id/deliveries', summary: `[Gatehouse] The endpoint's last ${RECENT_DELIVERIES} deliveries, newest first`, tags: TAGS,
    access: ['admin'], params: WebhookEndpointParams, response: WebhookDeliveryList,
    async handler({ services, auth, params }) {
      const db = services.db;
      if (!(await webhooks.findEndpoint(db, auth.project.id, params.endpoint_id))) throw endpointNotFound();
      const rows = await webhooks.listDeliveries(db, auth.project.id, params.endpoint_id, RECENT_DELIVERIES);
      return { items: rows.map(deliveryView), is_paginated: false as const };
    },
  }),
  route({
    method: 'POST', path: '/webhooks/endpoints/:endpoint_id/test', summary: `[Gatehouse] Send a \`${WEBHOOK_TEST_EVENT_TYPE}\` event to this endpoint (whatever its event types), signed like every event`, tags: TAGS,
    access: ['admin'], params: WebhookEndpointParams, body: OptionalEmptyBody, response: WebhookDelivery, status: 201,
    async handler({ services, auth, params }) {
      const db = services.db;
      const endpoint = await enabledEndpoint(db, auth.project.id, params.endpoint_id);
      const row = await webhooks.insertDelivery(db, {
        projectId: auth.project.id, endpointId: endpoint.id, eventType: WEBHOOK_TEST_EVENT_TYPE,
        payload: { type: WEBHOOK_TEST_EVENT_TYPE, data: { endpoint_id: endpoint.id, sent_at_millis: Date.now() } },
      });
      services.webhookWorkers.wake();
      return deliveryView(row);
    },
  }),
  route({
    method: 'POST', path: '/webhooks/endpoints/:endpoint_id/deliveries/:delivery_id/retry', summary: '[Gatehouse] Attempt a delivery now: a pending one without waiting for its back-off, a failed or delivered one once more (same webhook-id)', tags: TAGS,
    access: ['admin'], params: WebhookDeliveryParams, body: OptionalEmptyBody, response: WebhookDelivery,
    async handler({ services, auth, params }) {
      const db = services.db;
      await enabledEndpoint(db, auth.project.id, params.endpoint_id);
      const row = await webhooks.makeDueNow(db, auth.project.id, params.endpoint_id, params.delivery_id);
      if (!row) {
        throw (await webhooks.findDelivery(db, auth.project.id, params.endpoint_id, params.delivery_id)) ? deliveryInFlight() : deliveryNotFound();
      }
      services.webhookWorkers.wake();
      return deliveryView(row);
    },
  }),
];
