// Standard Webhooks signing (https://www.standardwebhooks.com): secret `whsec_<base64>`; signature
// `v1,<base64 HMAC-SHA256(secret bytes, "<id>.<timestamp>.<body>")>` in header `webhook-signature`, next to
// `webhook-id` and `webhook-timestamp` (Unix seconds).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: 24 random bytes (the size Svix uses), base64 with the `whsec_` prefix. */
export function generateWebhookSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

export function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretBytes(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export function webhookHeaders(secret: string, id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signWebhook(secret, id, timestampSeconds, body),
  };
}

/**
 * Receiver-side check (for tests and as a reference): one of the space-separated `v1,` signatures matches and
 * the timestamp is within `toleranceSeconds` of now.
 */
export function verifyWebhook(secret: string, headers: { id: string; timestamp: string; signature: string }, body: string, toleranceSeconds = 300, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts) || Math.abs(nowSeconds - ts) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, headers.id, ts, body));
  return headers.signature.split(' ').some((candidate) => {
    const c = Buffer.from(candidate);
    return c.length === expected.length && timingSafeEqual(c, expected);
  });
}
