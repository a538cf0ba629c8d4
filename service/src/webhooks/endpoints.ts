// A project's webhook endpoints (admin; Gatehouse's own API, Stack Auth hands them to Svix). Each endpoint's signing
// secret (`whsec_…`, Standard Webhooks) is stored encrypted, as the worker must sign with it, and shown only by the
// answer that created it.
import { StatusError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as webhooks from '../repo/webhooks';
import { encryptString } from '../tokens/encryption';
import { generateWebhookSecret } from './signing';
import { WEBHOOK_SECRET_PURPOSE } from './worker';

const MAX_ENDPOINTS = 50;
export const endpointNotFound = () => new StatusError(404, 'Webhook endpoint not found');

export interface EndpointFields { url?: string; description?: string | null; enabled?: boolean; eventTypes?: string[] | null }

/** Event types once each; null: every type. */
const distinct = (types: string[] | null | undefined) => (types ? [...new Set(types)] : types);

export async function listEndpoints(services: Services, input: { projectId: string }): Promise<webhooks.EndpointRow[]> {
  return webhooks.listEndpoints(services.db, input.projectId);
}

/** The new endpoint and its signing secret (shown only now). */
export async function addEndpoint(services: Services, input: { projectId: string; fields: EndpointFields & { url: string } }): Promise<{ row: webhooks.EndpointRow; secret: string }> {
  const { projectId, fields } = input;
  if ((await webhooks.listEndpoints(services.db, projectId)).length >= MAX_ENDPOINTS) {
    throw new StatusError(400, `A project can have at most ${MAX_ENDPOINTS} webhook endpoints.`);
  }
  const secret = generateWebhookSecret();
  const row = await webhooks.insertEndpoint(services.db, {
    projectId, url: fields.url, description: fields.description ?? null, enabled: fields.enabled ?? true,
    eventTypes: distinct(fields.eventTypes) ?? null,
    secretEncrypted: encryptString(services.secret, WEBHOOK_SECRET_PURPOSE, secret),
  });
  return { row, secret };
}

export async function getEndpoint(services: Services, input: { projectId: string; endpointId: string }): Promise<webhooks.EndpointRow> {
  const row = await webhooks.findEndpoint(services.db, input.projectId, input.endpointId);
  if (!row) throw endpointNotFound();
  return row;
}

export async function updateEndpoint(services: Services, input: { projectId: string; endpointId: string; fields: EndpointFields }): Promise<webhooks.EndpointRow> {
  const { fields } = input;
  const row = await webhooks.updateEndpoint(services.db, input.projectId, input.endpointId, {
    url: fields.url, description: fields.description, enabled: fields.enabled, eventTypes: distinct(fields.eventTypes),
  });
  if (!row) throw endpointNotFound();
  return row;
}

/** Removes the endpoint; its undelivered events are dropped with it. */
export async function removeEndpoint(services: Services, input: { projectId: string; endpointId: string }): Promise<void> {
  if (!(await webhooks.deleteEndpoint(services.db, input.projectId, input.endpointId))) throw endpointNotFound();
}
