// Standard Webhooks signing, checked against the spec's published example and an independent HMAC.
import { describe, expect, test } from 'bun:test';
import { createHmac } from 'node:crypto';
import { generateWebhookSecret, signWebhook, verifyWebhook, webhookHeaders } from '../src/webhooks/signing';
import { backoffMs } from '../src/webhooks/worker';

describe('Standard Webhooks signing', () => {
  test('matches the reference example', () => {
    // From the Standard Webhooks / Svix reference test suites.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    expect(signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'))
      .toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  test('secrets are whsec_ + base64 of 24 random bytes; the HMAC key is the decoded secret', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(generateWebhookSecret()).not.toBe(secret);
    const key = Buffer.from(secret.slice(6), 'base64');
    expect(key).toHaveLength(24);
    const expected = createHmac('sha256', key).update('id1.1700000000.{"a":1}').digest('base64');
    expect(webhookHeaders(secret, 'id1', 1700000000, '{"a":1}')).toEqual({
      'webhook-id': 'id1', 'webhook-timestamp': '1700000000', 'webhook-signature': `v1,${expected}`,
    });
  });

  test('verification rejects other bodies, ids, secrets and stale timestamps', () => {
    const secret = generateWebhookSecret();
    const now = 1_700_000_000;
    const h = webhookHeaders(secret, 'id', now, 'body');
    const headers = { id: h['webhook-id']!, timestamp: h['webhook-timestamp']!, signature: `v1,bogus ${h['webhook-signature']}` };
    expect(verifyWebhook(secret, headers, 'body', 300, now + 10)).toBe(true);
    expect(verifyWebhook(secret, headers, 'body2', 300, now)).toBe(false);
    expect(verifyWebhook(secret, { ...headers, id: 'other' }, 'body', 300, now)).toBe(false);
    expect(verifyWebhook(generateWebhookSecret(), headers, 'body', 300, now)).toBe(false);
    expect(verifyWebhook(secret, headers, 'body', 300, now + 301)).toBe(false);
  });

  test('retry back-off doubles from the base, with jitter in [d/2, d], capped', () => {
    expect(backoffMs(1, 1000, 60_000, () => 1)).toBe(1000);
    expect(backoffMs(3, 1000, 60_000, () => 1)).toBe(4000);
    expect(backoffMs(3, 1000, 60_000, () => 0)).toBe(2000);
    expect(backoffMs(20, 1000, 60_000, () => 1)).toBe(60_000);
  });
});
