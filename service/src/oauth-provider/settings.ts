// The settings of a project's OpenID provider (admin API /oauth-provider/settings): dynamic client registration
// (RFC 7591, off by default) and the protected resources (RFC 8707) it issues audience-bound JWT access tokens for.
// The provider is rebuilt with them (providers.ts keys its cache by the settings' time of change).
import type { Services } from '../services';
import * as store from '../repo/oauth-provider';

export interface ProviderSettings { dynamicClientRegistration: boolean; resources: string[]; updatedAt: Date | null }

export async function getSettings(services: Services, input: { projectId: string }): Promise<ProviderSettings> {
  const row = await store.findSettings(services.db, input.projectId);
  return row ?? { dynamicClientRegistration: false, resources: [], updatedAt: null };
}

export async function updateSettings(services: Services, input: { projectId: string; dynamicClientRegistration?: boolean; resources?: string[] }): Promise<ProviderSettings> {
  // A resource is matched exactly as the client names it; kept as written (no normalising), once.
  const resources = input.resources && [...new Set(input.resources)];
  return store.saveSettings(services.db, input.projectId, { dynamicClientRegistration: input.dynamicClientRegistration, resources });
}
