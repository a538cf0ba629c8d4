// Webhook endpoints and deliveries as the admin API shows them (the signing secret never: only its creation answers it).
import type { WebhookDelivery, WebhookEndpoint } from '@gatehouse/shared/schemas/webhooks';
import type { DeliveryRow, EndpointRow } from '../repo/webhooks';

export function endpointView(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id, url: row.url, description: row.description, enabled: row.enabled,
    event_types: row.eventTypes as never, created_at_millis: row.createdAt.getTime(),
  };
}

export function deliveryView(row: DeliveryRow): WebhookDelivery {
  const millis = (t: Date | null) => (t ? t.getTime() : null);
  return {
    id: row.id, endpoint_id: row.endpointId, event_type: row.eventType, status: row.status as never, attempts: row.attempts,
    next_attempt_at_millis: row.status === 'pending' ? row.nextAttemptAt.getTime() : null,
    last_attempt_at_millis: millis(row.lastAttemptAt), last_response_status: row.lastResponseStatus, last_error: row.lastError,
    delivered_at_millis: millis(row.deliveredAt), created_at_millis: row.createdAt.getTime(),
  };
}
