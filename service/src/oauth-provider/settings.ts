// The settings of a project's OpenID provider (admin API /oauth-provider/settings): dynamic client registration
// (RFC 7591, off by default) and the protected resources (RFC 8707) it issues audience-bound JWT access tokens for.
// The provider is rebuilt with them (providers.ts keys its cache by the settings' time of change).
import { LRUCache } from 'lru-cache';
import type { Services } from '../services';
import * as store from '../repo/oauth-provider';

export interface ProviderSettings { dynamicClientRegistration: boolean; resources: string[]; updatedAt: Date | null }

/**
 * How long this instance reuses a project's settings row without reading it again. Every request to a provider needs
 * it (it names the built provider, providers.ts): read per request it was one statement of the seven of a token
 * request (issue 27's figures). A change made through this instance is seen at once (`updateSettings` drops the kept
 * row); one made through another instance sharing the database, after at most this long.
 */
export const SETTINGS_KEPT_MS = 2_000;
const kept = new WeakMap<Services, LRUCache<string, Promise<store.ProviderSettingsRow | null>>>();

/** The project's settings row (null: never saved), kept up to SETTINGS_KEPT_MS. */
export function settingsRow(services: Services, projectId: string): Promise<store.ProviderSettingsRow | null> {
  let rows = kept.get(services);
  if (!rows) kept.set(services, (rows = new LRUCache({ max: 1000, ttl: SETTINGS_KEPT_MS })));
  let row = rows.get(projectId);
  if (!row) {
    // Kept as the read in flight, so a burst of requests reads it once; an update drops it, even in flight.
    row = store.findSettings(services.db, projectId);
    rows.set(projectId, row);
    row.catch(() => { if (rows.get(projectId) === row) rows.delete(projectId); });
  }
  return row;
}

export async function getSettings(services: Services, input: { projectId: string }): Promise<ProviderSettings> {
  const row = await store.findSettings(services.db, input.projectId);
  return row ?? { dynamicClientRegistration: false, resources: [], updatedAt: null };
}

export async function updateSettings(services: Services, input: { projectId: string; dynamicClientRegistration?: boolean; resources?: string[] }): Promise<ProviderSettings> {
  // A resource is matched exactly as the client names it; kept as written (no normalising), once.
  const resources = input.resources && [...new Set(input.resources)];
  try {
    return await store.saveSettings(services.db, input.projectId, { dynamicClientRegistration: input.dynamicClientRegistration, resources });
  } finally {
    // This instance's next request builds the provider with the new settings.
    kept.get(services)?.delete(input.projectId);
  }
}
