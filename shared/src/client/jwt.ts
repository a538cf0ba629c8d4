// Reads claims of an access token without verifying it (the server verifies; the client only needs `exp`).
import { base64UrlDecodeToString } from '../rules/base64.ts';

export function decodeJwtPayload(token: string): Record<string, unknown> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new Error('Invalid JWT: expected three dot-separated parts');
  let payload: unknown;
  try {
    payload = JSON.parse(base64UrlDecodeToString(parts[1]!));
  } catch (cause) {
    throw new Error('Invalid JWT: payload is not base64url-encoded JSON', { cause });
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new Error('Invalid JWT: payload is not a JSON object');
  }
  return payload as Record<string, unknown>;
}

/** Expiry in epoch milliseconds (`exp` × 1000); `Infinity` when the token has no `exp`. Throws if undecodable. */
export function getJwtExpiresAt(token: string): number {
  const { exp } = decodeJwtPayload(token);
  if (exp === undefined) return Infinity;
  if (typeof exp !== 'number') throw new Error('Invalid JWT: exp is not a number');
  return exp * 1000;
}
