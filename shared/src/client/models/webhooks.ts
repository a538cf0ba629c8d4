// Webhook endpoints and their deliveries as the admin app returns them (Gatehouse's own admin API: Stack Auth
// hands endpoints to Svix, see POST /webhooks/svix-token). Wire → model, and model options → request bodies.
import { compact } from './common.ts';
import type { WebhookDeliveryJson, WebhookEndpointCreateBody, WebhookEndpointFirstViewJson, WebhookEndpointJson, WebhookEndpointUpdateBody } from '../wire.ts';
import type { WebhookEventType } from '../../schemas/webhooks.ts';

export type WebhookDeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed';

export interface WebhookEndpoint {
  readonly id: string;
  readonly url: string;
  readonly description: string | null;
  readonly enabled: boolean;
  /** Event types delivered to this endpoint; null = every event. */
  readonly eventTypes: readonly string[] | null;
  readonly createdAt: Date;
}

/** The create call's answer: the endpoint and its signing secret (`whsec_…`), which is never shown again. */
export interface WebhookEndpointFirstView extends WebhookEndpoint {
  readonly secret: string;
}

export interface WebhookDelivery {
  /** Also the `webhook-id` header of every attempt, so receivers can drop duplicates. */
  readonly id: string;
  readonly endpointId: string;
  readonly eventType: string;
  readonly status: WebhookDeliveryStatus;
  readonly attempts: number;
  /** When the next attempt is due (pending deliveries only). */
  readonly nextAttemptAt: Date | null;
  readonly lastAttemptAt: Date | null;
  /** HTTP status of the last attempt; null when none was made or no response came. */
  readonly lastResponseStatus: number | null;
  readonly lastError: string | null;
  readonly deliveredAt: Date | null;
  readonly createdAt: Date;
}

export type WebhookEndpointCreateOptions = { url: string; description?: string | null; enabled?: boolean; eventTypes?: WebhookEventType[] | null };
export type WebhookEndpointUpdateOptions = Partial<WebhookEndpointCreateOptions>;
/** The deliveries list's filters: one event type (or `webhook.test`), one status. */
export type WebhookDeliveryFilter = { eventType?: WebhookEventType | 'webhook.test'; status?: WebhookDeliveryStatus };

const date = (ms: number | null | undefined) => (typeof ms === 'number' ? new Date(ms) : null);

export function webhookEndpointFromJson(json: WebhookEndpointJson): WebhookEndpoint {
  return Object.freeze({
    id: json.id, url: json.url, description: json.description ?? null, enabled: json.enabled,
    eventTypes: json.event_types ? Object.freeze([...json.event_types]) : null, createdAt: new Date(json.created_at_millis),
  });
}

export function webhookEndpointFirstViewFromJson(json: WebhookEndpointFirstViewJson): WebhookEndpointFirstView {
  return Object.freeze({ ...webhookEndpointFromJson(json), secret: json.secret });
}

export function webhookDeliveryFromJson(json: WebhookDeliveryJson): WebhookDelivery {
  return Object.freeze({
    id: json.id, endpointId: json.endpoint_id, eventType: json.event_type, status: json.status, attempts: json.attempts,
    nextAttemptAt: date(json.next_attempt_at_millis), lastAttemptAt: date(json.last_attempt_at_millis),
    lastResponseStatus: json.last_response_status ?? null, lastError: json.last_error ?? null,
    deliveredAt: date(json.delivered_at_millis), createdAt: new Date(json.created_at_millis),
  });
}

export function webhookEndpointCreateBody(o: WebhookEndpointCreateOptions): WebhookEndpointCreateBody {
  return compact({ url: o.url, description: o.description, enabled: o.enabled, event_types: o.eventTypes });
}

export function webhookEndpointUpdateBody(o: WebhookEndpointUpdateOptions): WebhookEndpointUpdateBody {
  return compact({ url: o.url, description: o.description, enabled: o.enabled, event_types: o.eventTypes });
}
