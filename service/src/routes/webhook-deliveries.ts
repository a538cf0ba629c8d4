// An endpoint's deliveries (admin; Gatehouse's own API, next to /webhooks/endpoints; webhooks/deliveries.ts): the
// recent ones with their state, a test event sent to that endpoint alone, and "retry now" for one delivery.
import { OptionalEmptyBody } from '@gatehouse/shared/schemas/common';
import { WEBHOOK_TEST_EVENT_TYPE, WebhookDelivery, WebhookDeliveryListQuery, WebhookDeliveryParams, WebhookEndpointParams, WebhookDeliveryList } from '@gatehouse/shared/schemas/webhooks';
import { route } from '../http/route';
import { listDeliveries, RECENT_DELIVERIES, retryDelivery, sendTestEvent } from '../webhooks/deliveries';
import { deliveryView } from '../presenters/webhooks';

const TAGS = ['Webhooks'];

export const webhookDeliveryRoutes = [
  route({
    method: 'GET', path: '/webhooks/endpoints/:endpoint_id/deliveries', summary: `[Gatehouse] The endpoint's last ${RECENT_DELIVERIES} deliveries, newest first (of one event type and/or status when asked)`, tags: TAGS,
    access: ['admin'], params: WebhookEndpointParams, query: WebhookDeliveryListQuery, response: WebhookDeliveryList,
    async handler({ services, auth, params, query }) {
      const filter = { eventType: query.event_type, status: query.status };
      return { items: (await listDeliveries(services, { projectId: auth.project.id, endpointId: params.endpoint_id, filter })).map(deliveryView), is_paginated: false as const };
    },
  }),
  route({
    method: 'POST', path: '/webhooks/endpoints/:endpoint_id/test', summary: `[Gatehouse] Send a \`${WEBHOOK_TEST_EVENT_TYPE}\` event to this endpoint (whatever its event types), signed like every event`, tags: TAGS,
    access: ['admin'], params: WebhookEndpointParams, body: OptionalEmptyBody, response: WebhookDelivery, status: 201,
    async handler({ services, auth, params }) {
      return deliveryView(await sendTestEvent(services, { projectId: auth.project.id, endpointId: params.endpoint_id }));
    },
  }),
  route({
    method: 'POST', path: '/webhooks/endpoints/:endpoint_id/deliveries/:delivery_id/retry', summary: '[Gatehouse] Attempt a delivery now: a pending one without waiting for its back-off, a failed or delivered one once more (same webhook-id)', tags: TAGS,
    access: ['admin'], params: WebhookDeliveryParams, body: OptionalEmptyBody, response: WebhookDelivery,
    async handler({ services, auth, params }) {
      return deliveryView(await retryDelivery(services, { projectId: auth.project.id, endpointId: params.endpoint_id, deliveryId: params.delivery_id }));
    },
  }),
];
