// Webhooks (admin). Stack Auth hands endpoint management to Svix (POST /webhooks/svix-token); Gatehouse delivers
// events itself, so endpoints are managed here (webhooks/endpoints.ts): GET/POST /webhooks/endpoints, GET/PATCH/DELETE
// /webhooks/endpoints/{id}. Events are signed per Standard Webhooks with the endpoint's `whsec_…` secret, which
// is returned only by the create call.
import { StatusError } from '@gatehouse/shared/known-errors';
import { OptionalEmptyBody, Success } from '@gatehouse/shared/schemas/common';
import { WebhookEndpoint, WebhookEndpointCreate, WebhookEndpointFirstView, WebhookEndpointParams, WebhookEndpointUpdate, WebhookEndpointList } from '@gatehouse/shared/schemas/webhooks';
import { route } from '../http/route';
import { addEndpoint, getEndpoint, listEndpoints, removeEndpoint, updateEndpoint } from '../webhooks/endpoints';
import { endpointView } from '../presenters/webhooks';

const TAGS = ['Webhooks'];

export const SVIX_TOKEN_MESSAGE =
  'Gatehouse does not use Svix: webhooks are delivered by Gatehouse itself and signed per the Standard Webhooks spec. '
  + 'Manage endpoints with the admin API: GET/POST /api/v1/webhooks/endpoints and GET/PATCH/DELETE /api/v1/webhooks/endpoints/{endpoint_id}.';

export const webhookRoutes = [
  route({
    method: 'POST', path: '/webhooks/svix-token', summary: 'Not available: Gatehouse manages webhook endpoints itself (see /webhooks/endpoints)', tags: TAGS,
    access: ['admin'], body: OptionalEmptyBody,
    async handler() {
      throw new StatusError(400, SVIX_TOKEN_MESSAGE);
    },
  }),
  route({
    method: 'GET', path: '/webhooks/endpoints', summary: "[Gatehouse] List the project's webhook endpoints", tags: TAGS,
    access: ['admin'], response: WebhookEndpointList,
    async handler({ services, auth }) {
      return { items: (await listEndpoints(services, { projectId: auth.project.id })).map(endpointView), is_paginated: false as const };
    },
  }),
  route({
    method: 'POST', path: '/webhooks/endpoints', summary: '[Gatehouse] Add a webhook endpoint; the response holds its signing secret (whsec_…), shown only this once', tags: TAGS,
    access: ['admin'], body: WebhookEndpointCreate, response: WebhookEndpointFirstView, status: 201,
    async handler({ services, auth, body }) {
      const { row, secret } = await addEndpoint(services, {
        projectId: auth.project.id, fields: { url: body.url, description: body.description, enabled: body.enabled, eventTypes: body.event_types },
      });
      return { ...endpointView(row), secret };
    },
  }),
  route({
    method: 'GET', path: '/webhooks/endpoints/:endpoint_id', summary: '[Gatehouse] Get a webhook endpoint', tags: TAGS,
    access: ['admin'], params: WebhookEndpointParams, response: WebhookEndpoint,
    async handler({ services, auth, params }) {
      return endpointView(await getEndpoint(services, { projectId: auth.project.id, endpointId: params.endpoint_id }));
    },
  }),
  route({
    method: 'PATCH', path: '/webhooks/endpoints/:endpoint_id', summary: '[Gatehouse] Change, enable or disable a webhook endpoint', tags: TAGS,
    access: ['admin'], params: WebhookEndpointParams, body: WebhookEndpointUpdate, response: WebhookEndpoint,
    async handler({ services, auth, params, body }) {
      const row = await updateEndpoint(services, {
        projectId: auth.project.id, endpointId: params.endpoint_id,
        fields: { url: body.url, description: body.description, enabled: body.enabled, eventTypes: body.event_types },
      });
      return endpointView(row);
    },
  }),
  route({
    method: 'DELETE', path: '/webhooks/endpoints/:endpoint_id', summary: '[Gatehouse] Remove a webhook endpoint (its undelivered events are dropped)', tags: TAGS,
    access: ['admin'], params: WebhookEndpointParams, response: Success,
    async handler({ services, auth, params }) {
      await removeEndpoint(services, { projectId: auth.project.id, endpointId: params.endpoint_id });
      return { success: true as const };
    },
  }),
];
