// API key set validity (seed §4, protocol-resources §11.1).

export type ApiKeyStatus = 'valid' | 'expired' | 'manually-revoked';

export interface ApiKeyValidityFields {
  expires_at_millis?: number | null;
  manually_revoked_at_millis?: number | null;
}

/**
 * Expiry is checked first, then revocation. A key whose expiry equals `now` is expired: the server accepts a key
 * only while its expiry is in the future. A missing/null expiry never expires (user and team keys).
 */
export function apiKeyStatus(key: ApiKeyValidityFields, now: number = Date.now()): ApiKeyStatus {
  if (key.expires_at_millis != null && key.expires_at_millis <= now) return 'expired';
  if (key.manually_revoked_at_millis != null) return 'manually-revoked';
  return 'valid';
}

export function isApiKeyValid(key: ApiKeyValidityFields, now: number = Date.now()): boolean {
  return apiKeyStatus(key, now) === 'valid';
}

/** Listings show only the last four characters of a key. */
export function apiKeyLastFour(key: string): string {
  return key.slice(-4);
}
