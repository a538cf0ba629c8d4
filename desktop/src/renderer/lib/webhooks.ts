// The Webhooks screen's rules: the add form's validation (the service's schema), what a delivery's state is
// called and coloured, what its response column says, whether "retry now" applies, and how often the list is
// read again while deliveries are on their way.
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE, WebhookEndpointCreate, type WebhookEventType } from '@gatehouse/shared/schemas/webhooks';
import type { WebhookDelivery, WebhookDeliveryFilter, WebhookEndpoint, WebhookEndpointCreateOptions } from '@gatehouse/shared/client';
import { schemaProblems } from './schema-check';

export interface EndpointFormValues {
  url: string;
  description: string;
  /** Every event (also types added later), or only `eventTypes`. Absent: every event. */
  allEvents?: boolean;
  eventTypes?: string[];
}

/** The event types an endpoint may subscribe to, in the protocol's order. */
export const EVENT_TYPES: readonly WebhookEventType[] = WEBHOOK_EVENT_TYPES;

const isEventType = (s: string): s is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(s);

export function endpointFormValues(e: WebhookEndpoint | null): Required<EndpointFormValues> {
  return { url: e?.url ?? '', description: e?.description ?? '', allEvents: !e?.eventTypes, eventTypes: [...(e?.eventTypes ?? [])] };
}

export function endpointCreateOptions(v: EndpointFormValues): WebhookEndpointCreateOptions {
  const description = v.description.trim();
  const all = v.allEvents ?? true;
  // The protocol's order, whatever order the boxes were ticked in.
  const eventTypes = all ? null : EVENT_TYPES.filter((type) => (v.eventTypes ?? []).includes(type));
  return { url: v.url.trim(), description: description || null, ...(v.allEvents === undefined ? {} : { eventTypes }) };
}

export function validateEndpointForm(v: EndpointFormValues, messages: { required: string; url: string; description: string; events?: string }): Record<string, string> {
  const o = endpointCreateOptions(v);
  const errors: Record<string, string> = {};
  if (v.allEvents === false && !(v.eventTypes ?? []).some(isEventType)) errors.eventTypes = messages.events ?? messages.required;
  if (!o.url) return { url: messages.required, ...errors };
  for (const p of schemaProblems(WebhookEndpointCreate, { url: o.url, description: o.description })) {
    if (p.path === '/url') errors.url ??= messages.url;
    else if (p.path.startsWith('/description')) errors.description ??= messages.description;
  }
  return errors;
}

/** The deliveries list's filter choices: every event type and the test event; the service's statuses. */
export const DELIVERY_FILTER_EVENTS: readonly string[] = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE];
export const DELIVERY_FILTER_STATUSES = WEBHOOK_DELIVERY_STATUSES;

/** The filter the list asks the service for; '' (the "any" choice) asks for no filter. */
export function deliveryFilter(eventType: string, status: string): WebhookDeliveryFilter {
  const filter: WebhookDeliveryFilter = {};
  if (DELIVERY_FILTER_EVENTS.includes(eventType)) filter.eventType = eventType as WebhookDeliveryFilter['eventType'];
  if ((WEBHOOK_DELIVERY_STATUSES as readonly string[]).includes(status)) filter.status = status as WebhookDeliveryFilter['status'];
  return filter;
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
