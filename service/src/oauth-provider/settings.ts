// The settings of a project's OpenID provider (admin API /oauth-provider/settings): dynamic client registration (RFC
// 7591, off by default), the protected resources (RFC 8707) it issues audience-bound JWT access tokens for, the
// project's own scopes and the custom claims mapped from user metadata. The provider is rebuilt with them
// (providers.ts keys its cache by the settings' time of change); the project record carries the mappings meant for
// the project's own access tokens, so its cached copy is dropped on every instance.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { providerClaimsViolation, STANDARD_SCOPES, type ClaimMapping, type ProjectScope } from '@gatehouse/shared/rules/oauth-provider-claims';
import type { Services } from '../services';
import { TtlCache } from '../repo/cache';
import * as store from '../repo/oauth-provider';

export interface ProviderSettings {
  dynamicClientRegistration: boolean; resources: string[]; scopes: ProjectScope[]; claims: ClaimMapping[]; updatedAt: Date | null;
}

export interface SettingsChange {
  projectId: string; dynamicClientRegistration?: boolean; resources?: string[];
  scopes?: ProjectScope[]; claims?: (Omit<ClaimMapping, 'in_access_token'> & { in_access_token?: boolean })[];
}

const NO_SETTINGS = { dynamicClientRegistration: false, resources: [], scopes: [], claims: [], updatedAt: null };

/**
 * How long this instance reuses a project's settings row without reading it again. Every request to a provider needs
 * it (it names the built provider, providers.ts): read per request it was one statement of the seven of a token
 * request (issue 27's figures). A change made through this instance is seen at once (`updateSettings` drops the kept
 * row); one made through another instance sharing the database, after at most this long.
 */
export const SETTINGS_KEPT_MS = 2_000;
const kept = new WeakMap<Services, TtlCache<store.ProviderSettingsRow | null>>();

/** The project's settings row (null: never saved), kept up to SETTINGS_KEPT_MS; a burst of requests reads it once. */
export function settingsRow(services: Services, projectId: string): Promise<store.ProviderSettingsRow | null> {
  let rows = kept.get(services);
  if (!rows) kept.set(services, (rows = new TtlCache(SETTINGS_KEPT_MS, 1000)));
  return rows.getOrLoad(projectId, () => store.findSettings(services.db, projectId), () => SETTINGS_KEPT_MS);
}

export async function getSettings(services: Services, input: { projectId: string }): Promise<ProviderSettings> {
  return (await store.findSettings(services.db, input.projectId)) ?? NO_SETTINGS;
}

/** Checks the whole result first: a change that is refused writes nothing. */
export async function updateSettings(services: Services, input: SettingsChange): Promise<ProviderSettings> {
  // A resource is matched exactly as the client names it; kept as written (no normalising), once.
  const resources = input.resources && [...new Set(input.resources)];
  const scopes = input.scopes?.map((s) => ({ name: s.name, description: s.description }));
  const claims = input.claims?.map((c) => ({ claim: c.claim, source: c.source, scope: c.scope, in_access_token: c.in_access_token ?? false }));
  const invalid = (reason: string) => new KnownErrors.OAuthProviderSettingsInvalid(reason);
  const saved = await services.db.transaction(async (tx) => {
    // Clients are created and changed under the same lock (clients.ts): the check below sees every client there is.
    await store.lockProviderConfiguration(tx, input.projectId);
    const current = (await store.findSettings(tx, input.projectId)) ?? NO_SETTINGS;
    const violation = providerClaimsViolation(scopes ?? current.scopes, claims ?? current.claims);
    if (violation) throw invalid(violation);
    // A scope a client may still ask for stays: the client would no longer load in the provider.
    if (scopes) {
      const kept = new Set<string>([...STANDARD_SCOPES, ...scopes.map((s) => s.name)]);
      for (const client of await store.listClients(tx, input.projectId)) {
        const lost = client.scopes.find((s) => !kept.has(s));
        if (lost) throw invalid(`the scope "${lost}" is allowed to the OAuth client ${client.clientId} (${client.displayName}); take it from the client first.`);
      }
    }
    return store.saveSettings(tx, input.projectId, { dynamicClientRegistration: input.dynamicClientRegistration, resources, scopes, claims });
  }).finally(() => {
    // This instance's next request builds the provider with the new settings.
    kept.get(services)?.forget(input.projectId);
  });
  if (claims) services.projects.invalidate(input.projectId);
  return saved;
}
