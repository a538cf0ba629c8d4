// Webhook endpoints: Gatehouse's own admin API (Stack Auth delegates endpoints to Svix; see POST /webhooks/svix-token).
import { Type, type Static } from '@sinclair/typebox';
import { Millis, Nullable, Strict, Uuid } from './common.ts';

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
