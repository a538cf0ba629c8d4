// The Webhooks screen's rules: the add form's validation (the service's schema), what a delivery's state is
// called and coloured, what its response column says, whether "retry now" applies, and how often the list is
// read again while deliveries are on their way.
import { WebhookEndpointCreate } from '@gatehouse/shared/schemas/webhooks';
import type { WebhookDelivery, WebhookEndpointCreateOptions } from '@gatehouse/shared/client';
import { schemaProblems } from './schema-check';

export interface EndpointFormValues {
  url: string;
  description: string;
}

export function endpointCreateOptions(v: EndpointFormValues): WebhookEndpointCreateOptions {
  const description = v.description.trim();
  return { url: v.url.trim(), description: description || null };
}

export function validateEndpointForm(v: EndpointFormValues, messages: { required: string; url: string; description: string }): Record<string, string> {
  const o = endpointCreateOptions(v);
  if (!o.url) return { url: messages.required };
  const errors: Record<string, string> = {};
  for (const p of schemaProblems(WebhookEndpointCreate, { url: o.url, description: o.description })) {
    if (p.path === '/url') errors.url ??= messages.url;
    else if (p.path.startsWith('/description')) errors.description ??= messages.description;
  }
  return errors;
}

/** What the status column says: a pending delivery that was tried already is retrying, not queued. */
export type DeliveryState = 'queued' | 'retrying' | 'sending' | 'delivered' | 'failed';

export function deliveryState(d: Pick<WebhookDelivery, 'status' | 'attempts'>): DeliveryState {
  if (d.status === 'pending') return d.attempts > 0 ? 'retrying' : 'queued';
  return d.status;
}

export const DELIVERY_STATE_COLOR: Record<DeliveryState, string> = {
  queued: 'gray', retrying: 'orange', sending: 'blue', delivered: 'green', failed: 'red',
};

/** The response column: the receiver's HTTP status, else why there was none, else nothing yet. */
export function responseSummary(d: Pick<WebhookDelivery, 'lastResponseStatus' | 'lastError' | 'attempts'>): { code: number | null; error: string | null } {
  if (d.lastResponseStatus !== null) return { code: d.lastResponseStatus, error: d.lastResponseStatus >= 300 ? d.lastError : null };
  return { code: null, error: d.attempts > 0 ? d.lastError : null };
}

/** An attempt under way records its own outcome; the service refuses to start a second one meanwhile. */
export function canRetryNow(d: Pick<WebhookDelivery, 'status'>): boolean {
  return d.status !== 'sending';
}

/**
 * How soon to read the list again: quickly while a delivery is being sent or due within a minute (its outcome
 * is about to change), slowly otherwise (new events may arrive at any time).
 */
export function deliveriesPollMs(list: readonly Pick<WebhookDelivery, 'status' | 'nextAttemptAt'>[], now = Date.now()): number {
  const soon = list.some((d) => d.status === 'sending' || (d.status === 'pending' && (d.nextAttemptAt?.getTime() ?? now) - now < 60_000));
  return soon ? 1_000 : 5_000;
}
