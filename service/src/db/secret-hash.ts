// Hashing of high-entropy secrets (refresh tokens, API keys, codes). They carry 224+ random bits, so a fast
// unsalted sha256 is enough to make a stolen table useless, and lets us look them up by hash.
import { createHash, timingSafeEqual } from 'node:crypto';

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
