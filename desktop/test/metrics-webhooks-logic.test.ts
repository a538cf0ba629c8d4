// The Metrics and Webhooks screens' rules outside any component: the metrics shaped for charts and lists, the
// add-endpoint form's validation, what a delivery's state and response are called, and the list's poll pace.
import { describe, expect, test } from 'bun:test';
import { FormatRegistry } from '@sinclair/typebox';
import type { WebhookDelivery } from '@gatehouse/shared/client';
import {
  countryRows, dailyRows, isQuietSeries, latestValue, methodRows, recentUserRows, seriesTotal, unlocatedUsers,
} from '../src/renderer/lib/metrics-charts';
import {
  canRetryNow, deliveriesPollMs, deliveryFilter, deliveryState, DELIVERY_FILTER_EVENTS, DELIVERY_STATE_COLOR, endpointCreateOptions, endpointFormValues, responseSummary, validateEndpointForm,
} from '../src/renderer/lib/webhooks';
import { en } from '../src/renderer/messages/en';

const days = (values: number[]) => values.map((activity, i) => ({ date: `2026-10-${String(i + 1).padStart(2, '0')}`, activity }));

describe('metrics shaping', () => {
  test('daily rows keep the API figures and label days in UTC', () => {
    const rows = dailyRows([{ date: '2026-11-01', activity: 3 }, { date: '2026-11-02', activity: 0 }], 'en-US');
    expect(rows).toEqual([{ date: '2026-11-01', label: 'Nov 1', value: 3 }, { date: '2026-11-02', label: 'Nov 2', value: 0 }]);
    expect(dailyRows(undefined)).toEqual([]);
  });

  test('totals, the latest day and the empty state of a series', () => {
    const series = days([0, 2, 0, 5]);
    expect(seriesTotal(series)).toBe(7);
    expect(latestValue(series)).toBe(5);
    expect(latestValue([])).toBe(0);
    expect(isQuietSeries(days(new Array(31).fill(0)))).toBe(true);
    expect(isQuietSeries(series)).toBe(false);
    expect(isQuietSeries(undefined)).toBe(true);
  });

  test('methods: most used first, built-ins by kind, providers by their names, unknown providers as given, zeros dropped', () => {
    const rows = methodRows([
      { method: 'github', count: 2 }, { method: 'password', count: 5 }, { method: 'otp', count: 2 },
      { method: 'acme-sso', count: 1 }, { method: 'passkey', count: 0 },
    ]);
    expect(rows).toEqual([
      { method: 'password', kind: 'password', providerName: null, count: 5 },
      { method: 'github', kind: 'oauth', providerName: 'GitHub', count: 2 },
      { method: 'otp', kind: 'otp', providerName: null, count: 2 },
      { method: 'acme-sso', kind: 'oauth', providerName: 'acme-sso', count: 1 },
    ]);
    // Every built-in kind has a label in the catalogue.
    for (const kind of ['password', 'otp', 'passkey', 'other'] as const) expect(en[`metrics.method.${kind}`]).toBeTruthy();
    expect(methodRows(undefined)).toEqual([]);
  });

  test('countries: most users first, named in the reader language, the rest unlocated', () => {
    const rows = countryRows({ US: 1, DE: 3, FR: 1, XX: 0 }, 'en');
    expect(rows).toEqual([
      { code: 'DE', name: 'Germany', count: 3 }, { code: 'FR', name: 'France', count: 1 }, { code: 'US', name: 'United States', count: 1 },
    ]);
    expect(unlocatedUsers(7, rows)).toBe(2);
    expect(unlocatedUsers(3, rows)).toBe(0);
    expect(countryRows({ 'NOT-A-CODE': 2 }, 'en')).toEqual([{ code: 'NOT-A-CODE', name: 'NOT-A-CODE', count: 2 }]);
    expect(countryRows({})).toEqual([]);
  });

  test('recent users: name, else email, else id; the time the list is about', () => {
    const users = [
      { id: 'a', display_name: 'Ada', primary_email: 'ada@example.com', profile_image_url: null, signed_up_at_millis: 1000, last_active_at_millis: 5000 },
      { id: 'b', display_name: null, primary_email: 'bo@example.com', profile_image_url: 'https://img.example.com/b.png', signed_up_at_millis: 2000, last_active_at_millis: null },
      { id: 'c', display_name: null, primary_email: null, signed_up_at_millis: 3000 },
    ];
    expect(recentUserRows(users, 'registered')).toEqual([
      { id: 'a', title: 'Ada', subtitle: 'ada@example.com', imageUrl: null, at: new Date(1000) },
      { id: 'b', title: 'bo@example.com', subtitle: null, imageUrl: 'https://img.example.com/b.png', at: new Date(2000) },
      { id: 'c', title: 'c', subtitle: null, imageUrl: null, at: new Date(3000) },
    ]);
    expect(recentUserRows(users, 'active').map((r) => r.at?.getTime())).toEqual([5000, 2000, 3000]);
  });
});

const messages = { required: 'Required', url: 'Enter an http:// or https:// URL', description: 'At most 1000 characters' };

function delivery(o: Partial<WebhookDelivery>): WebhookDelivery {
  return {
    id: 'd', endpointId: 'e', eventType: 'user.created', status: 'pending', attempts: 0, nextAttemptAt: null, lastAttemptAt: null,
    lastResponseStatus: null, lastError: null, deliveredAt: null, createdAt: new Date(0), ...o,
  };
}

describe('webhooks rules', () => {
  test('the add form checks the URL with the service schema; an empty description is sent as null', () => {
    expect(validateEndpointForm({ url: '', description: '' }, messages)).toEqual({ url: 'Required' });
    expect(validateEndpointForm({ url: 'ftp://files.example.com', description: '' }, messages)).toEqual({ url: messages.url });
    expect(validateEndpointForm({ url: 'not a url', description: '' }, messages)).toEqual({ url: messages.url });
    expect(validateEndpointForm({ url: 'https://hooks.example.com/x', description: 'x'.repeat(1001) }, messages)).toEqual({ description: messages.description });
    expect(validateEndpointForm({ url: ' http://127.0.0.1:8080/hook ', description: '  ' }, messages)).toEqual({});
    expect(endpointCreateOptions({ url: ' https://a.example.com ', description: '  ' })).toEqual({ url: 'https://a.example.com', description: null });
    expect(endpointCreateOptions({ url: 'https://a.example.com', description: ' Billing ' })).toEqual({ url: 'https://a.example.com', description: 'Billing' });
  });

  test('events: every event is null; chosen ones go in the protocol\'s order; none chosen is refused; an endpoint fills the form', () => {
    const base = { url: 'https://a.example.com', description: '' };
    expect(endpointCreateOptions({ ...base, allEvents: true, eventTypes: ['team.created'] })).toEqual({ url: base.url, description: null, eventTypes: null });
    expect(endpointCreateOptions({ ...base, allEvents: false, eventTypes: ['team.created', 'user.deleted'] }).eventTypes).toEqual(['user.deleted', 'team.created']);
    expect(validateEndpointForm({ ...base, allEvents: false, eventTypes: [] }, { ...messages, events: 'Pick one' })).toEqual({ eventTypes: 'Pick one' });
    expect(validateEndpointForm({ ...base, allEvents: false, eventTypes: ['user.created'] }, messages)).toEqual({});
    expect(validateEndpointForm({ url: '', description: '', allEvents: false, eventTypes: [] }, { ...messages, events: 'Pick one' })).toEqual({ url: 'Required', eventTypes: 'Pick one' });
    expect(endpointFormValues(null)).toEqual({ url: '', description: '', allEvents: true, eventTypes: [] });
    const endpoint = { id: 'e', url: base.url, description: 'd', enabled: true, eventTypes: ['user.created'], createdAt: new Date() };
    expect(endpointFormValues(endpoint)).toEqual({ url: base.url, description: 'd', allEvents: false, eventTypes: ['user.created'] });
  });

  test('the deliveries filter: "" asks for nothing; known event types (the test event too) and statuses only', () => {
    expect(deliveryFilter('', '')).toEqual({});
    expect(deliveryFilter('webhook.test', 'failed')).toEqual({ eventType: 'webhook.test', status: 'failed' });
    expect(deliveryFilter('user.exploded', 'lost')).toEqual({});
    expect(DELIVERY_FILTER_EVENTS).toContain('project_permission.deleted');
  });

  test("the URL is judged by shared's rule whatever else registered a url format in this process (Elysia's refuses 127.0.0.1)", () => {
    const refuseAll = () => false;
    FormatRegistry.Set('url', refuseAll);
    try {
      expect(validateEndpointForm({ url: 'http://127.0.0.1:8080/hook', description: '' }, messages)).toEqual({});
      expect(validateEndpointForm({ url: 'not a url', description: '' }, messages)).toEqual({ url: messages.url });
      // What was registered is back afterwards.
      expect(FormatRegistry.Get('url')).toBe(refuseAll);
    } finally {
      FormatRegistry.Delete('url');
    }
  });

  test('delivery states: queued until tried, then retrying; each with a colour and a label', () => {
    expect(deliveryState({ status: 'pending', attempts: 0 })).toBe('queued');
    expect(deliveryState({ status: 'pending', attempts: 2 })).toBe('retrying');
    expect(deliveryState({ status: 'sending', attempts: 1 })).toBe('sending');
    expect(deliveryState({ status: 'delivered', attempts: 1 })).toBe('delivered');
    expect(deliveryState({ status: 'failed', attempts: 12 })).toBe('failed');
    for (const state of ['queued', 'retrying', 'sending', 'delivered', 'failed'] as const) {
      expect(DELIVERY_STATE_COLOR[state]).toBeTruthy();
      expect(en[`webhooks.state.${state}`]).toBeTruthy();
    }
  });

  test('response: the status code; the error only when it failed; nothing before the first attempt', () => {
    expect(responseSummary(delivery({ attempts: 1, lastResponseStatus: 204 }))).toEqual({ code: 204, error: null });
    expect(responseSummary(delivery({ attempts: 1, lastResponseStatus: 500, lastError: 'HTTP 500' }))).toEqual({ code: 500, error: 'HTTP 500' });
    expect(responseSummary(delivery({ attempts: 2, lastError: 'ConnectionRefused: Unable to connect' }))).toEqual({ code: null, error: 'ConnectionRefused: Unable to connect' });
    expect(responseSummary(delivery({ attempts: 0 }))).toEqual({ code: null, error: null });
  });

  test('retry now is offered unless an attempt is under way', () => {
    expect(canRetryNow({ status: 'sending' })).toBe(false);
    for (const status of ['pending', 'delivered', 'failed'] as const) expect(canRetryNow({ status })).toBe(true);
  });

  test('the list is read every second while something is about to change, else every five', () => {
    const now = 1_000_000;
    expect(deliveriesPollMs([], now)).toBe(5_000);
    expect(deliveriesPollMs([delivery({ status: 'delivered' })], now)).toBe(5_000);
    expect(deliveriesPollMs([delivery({ status: 'sending' })], now)).toBe(1_000);
    expect(deliveriesPollMs([delivery({ status: 'pending', nextAttemptAt: new Date(now + 10_000) })], now)).toBe(1_000);
    expect(deliveriesPollMs([delivery({ status: 'pending', nextAttemptAt: new Date(now + 3_600_000) })], now)).toBe(5_000);
  });
});
