// Webhook endpoints: Gatehouse's own admin API (Stack Auth delegates endpoints to Svix; see POST /webhooks/svix-token).
import { Type, type Static } from '@sinclair/typebox';
import { Millis, Nullable, Strict, Uuid, List } from './common.ts';

export const WEBHOOK_EVENT_TYPES = [
  'user.created', 'user.updated', 'user.deleted',
  'team.created', 'team.updated', 'team.deleted',
  'team_membership.created', 'team_membership.deleted',
  'team_permission.created', 'team_permission.deleted',
  'project_permission.created', 'project_permission.deleted',
] as const;
export const WebhookEventType = Type.Union(WEBHOOK_EVENT_TYPES.map((t) => Type.Literal(t)));
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

const EndpointUrl = () => Type.String({ format: 'url', pattern: '^https?://', patternMessage: 'must be an http:// or https:// URL', maxLength: 2048 });

export const WebhookEndpoint = Strict({
  id: Uuid(),
  url: Type.String(),
  description: Nullable(Type.String()),
  enabled: Type.Boolean(),
  /** Event types delivered to this endpoint; null = every event. */
  event_types: Nullable(Type.Array(WebhookEventType)),
  created_at_millis: Millis(),
});
export const WebhookEndpointList = List(WebhookEndpoint);
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

/** Creation response: the endpoint plus its signing secret (`whsec_…`), shown only this once. */
export const WebhookEndpointFirstView = Strict({ ...WebhookEndpoint.properties, secret: Type.String() });

export const WebhookEndpointCreate = Strict({
  url: EndpointUrl(),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  enabled: Type.Optional(Type.Boolean()),
  event_types: Type.Optional(Nullable(Type.Array(WebhookEventType))),
});
export type WebhookEndpointCreate = Static<typeof WebhookEndpointCreate>;

export const WebhookEndpointUpdate = Strict({
  url: Type.Optional(EndpointUrl()),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  enabled: Type.Optional(Type.Boolean()),
  event_types: Type.Optional(Nullable(Type.Array(WebhookEventType))),
});
export type WebhookEndpointUpdate = Static<typeof WebhookEndpointUpdate>;

/** The event type of "send test event": delivered to one endpoint, whatever its event_types filter. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** One event on its way to one endpoint (the outbox row), as the console lists it. */
export const WebhookDelivery = Strict({
  id: Uuid(),
  endpoint_id: Uuid(),
  /** A WebhookEventType, or `webhook.test`. */
  event_type: Type.String(),
  status: Type.Union(WEBHOOK_DELIVERY_STATUSES.map((s) => Type.Literal(s))),
  attempts: Type.Integer(),
  /** When the next attempt is due; null unless the status is `pending`. */
  next_attempt_at_millis: Nullable(Millis()),
  last_attempt_at_millis: Nullable(Millis()),
  /** HTTP status of the last attempt; null when none was made or no response came. */
  last_response_status: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  delivered_at_millis: Nullable(Millis()),
  created_at_millis: Millis(),
});
export const WebhookDeliveryList = List(WebhookDelivery);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WebhookEndpointParams = Strict({ endpoint_id: Uuid() });

/** The deliveries list's filters: one event type (or the test event), one status. */
export const WebhookDeliveryListQuery = Strict({
  event_type: Type.Optional(Type.Union([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE].map((t) => Type.Literal(t)))),
  status: Type.Optional(Type.Union(WEBHOOK_DELIVERY_STATUSES.map((s) => Type.Literal(s)))),
});
export type WebhookDeliveryListQuery = Static<typeof WebhookDeliveryListQuery>;
export const WebhookDeliveryParams = Strict({ endpoint_id: Uuid(), delivery_id: Uuid() });
