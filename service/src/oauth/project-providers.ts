// A project's OAuth provider as the flows use it: enabled check, which client credentials (the project's own for
// `standard`, the operator's for `shared`), and which endpoints (real, an env override, or the development issuer).
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import type { OAuthProviderConfig } from '@gatehouse/shared/schemas/projects';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import { DEV_CLIENT_SECRET, devClientId, resolveProviderEndpoints, type ResolvedProvider } from './endpoints';
import { isProviderId, type ProviderId } from './providers';
import type { ProviderExtras } from './client';
import { devIssuer } from './dev-issuer';

export interface ProjectProvider {
  id: ProviderId;
  config: OAuthProviderConfig;
  isShared: boolean;
  clientId: string;
  clientSecret: string;
  /** The issuer standing in for the provider (GATEHOUSE_OAUTH_ISSUER_OVERRIDES or the development issuer); null: the real one. */
  issuerOverride: string | null;
  extras: ProviderExtras;
}

/** The provider's project configuration; OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED if unknown, missing or disabled. */
export function enabledProviderConfig(project: Project, providerId: string): OAuthProviderConfig {
  const config = isProviderId(providerId) ? project.config.oauth_providers.find((p) => p.id === providerId) : undefined;
  if (!config || !config.enabled) throw new KnownErrors.OAuthProviderNotFoundOrNotEnabled();
  return config;
}

export function providerClient(services: Services, config: OAuthProviderConfig): ProjectProvider {
  const id = config.id as ProviderId;
  const isShared = config.type === 'shared';
  const extras: ProviderExtras = { microsoftTenantId: config.microsoft_tenant_id ?? null, facebookConfigId: config.facebook_config_id ?? null };
  const overrides = services.config.oauth.issuerOverrides;
  const base = { id, config, isShared, extras, issuerOverride: overrides[id] ?? overrides['*'] ?? null };
  if (!isShared && config.client_id && config.client_secret) {
    return { ...base, clientId: config.client_id, clientSecret: config.client_secret };
  }
  if (isShared) {
    const shared = services.config.oauth.sharedCredentials[id];
    if (shared) return { ...base, ...shared };
  }
  const dev = devIssuer(services.config.publicUrl);
  if (dev) return { ...base, clientId: devClientId(id), clientSecret: DEV_CLIENT_SECRET, issuerOverride: dev };
  throw new StatusError(400, isShared
    ? `Shared OAuth keys for "${id}" are not configured on this server. The operator can set GATEHOUSE_OAUTH_${id.toUpperCase()}_CLIENT_ID and GATEHOUSE_OAUTH_${id.toUpperCase()}_CLIENT_SECRET, or the project can use its own keys (provider type "standard").`
    : `The OAuth provider "${id}" has no client id or client secret configured. Please add them on the dashboard.`);
}

/** Provider endpoints; failures (unreachable override issuer, bad tenant id) become clear plain-text errors. */
export async function resolveEndpoints(services: Services, p: ProjectProvider): Promise<ResolvedProvider> {
  try {
    return await resolveProviderEndpoints(p.id, {
      issuerOverride: p.issuerOverride,
      microsoftTenantId: p.extras.microsoftTenantId,
      discovery: services.oauthDiscovery,
    });
  } catch (err) {
    if (err instanceof Error && /tenant/i.test(err.message)) throw new StatusError(400, 'The Microsoft tenant id of this OAuth provider is invalid.');
    console.error(`OAuth provider ${p.id}: endpoints could not be resolved:`, err instanceof Error ? err.message : err);
    throw new StatusError(502, `The OAuth provider "${p.id}" could not be reached. Please try again later.`);
  }
}

/** Callback URL registered at the provider: `{API base}/api/v1/auth/oauth/callback/{provider}`. */
export function providerRedirectUri(services: Services, providerId: ProviderId): string {
  return `${services.config.publicUrl}/api/v1/auth/oauth/callback/${providerId}`;
}
