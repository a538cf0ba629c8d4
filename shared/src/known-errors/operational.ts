// Gatehouse's own codes for operational limits, which the reference answers without a code (or not at all).
// Not in the 2.8.3 SDK's registry: that SDK reports them as "Unknown KnownError code ... <CODE>: <message>".
import { defineKnownError as def } from './base.ts';

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** 429 from the abuse limits (sign-in failures, code sending and attempts, TOTP guesses); sent with Retry-After. */
export const RateLimited = def('RATE_LIMITED', 429, [], (retryAfterSeconds: number) => [
  `Too many requests. Please try again in ${plural(retryAfterSeconds, 'second')}.`,
  { retry_after_seconds: retryAfterSeconds },
] as const);

/** 413: the request body is larger than the service accepts (GATEHOUSE_MAX_BODY_BYTES). */
export const RequestBodyTooLarge = def('REQUEST_BODY_TOO_LARGE', 413, [], (maxBytes: number) => [
  `The request body is too large. The maximum is ${plural(maxBytes, 'byte')}.`,
  { max_bytes: maxBytes },
] as const);
