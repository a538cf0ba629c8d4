// The eleven OAuth providers (seed §9), each one's state in the project config, the form's validation (standard
// keys need a client id and secret) and the callback URL an owner registers at the provider.
import type { AdminOAuthProviderConfig, AdminProject, OAuthProviderId } from '@gatehouse/shared/client';
import { OAuthProviderConfig } from '@gatehouse/shared/schemas/projects';
import { schemaProblems } from './schema-check';
import { t } from '../messages';

export const OAUTH_PROVIDERS = [
  { id: 'google', name: 'Google' },
  { id: 'github', name: 'GitHub' },
  { id: 'microsoft', name: 'Microsoft' },
  { id: 'spotify', name: 'Spotify' },
  { id: 'facebook', name: 'Facebook' },
  { id: 'discord', name: 'Discord' },
  { id: 'gitlab', name: 'GitLab' },
  { id: 'bitbucket', name: 'Bitbucket' },
  { id: 'linkedin', name: 'LinkedIn' },
  { id: 'apple', name: 'Apple' },
  { id: 'x', name: 'X' },
] as const;

export interface ProviderFormValues {
  enabled: boolean;
  type: 'shared' | 'standard';
  clientId: string;
  clientSecret: string;
  facebookConfigId: string;
  microsoftTenantId: string;
}

export function providerFormValues(current: AdminOAuthProviderConfig | undefined): ProviderFormValues {
  const standard = current?.type === 'standard' ? current : null;
  return {
    enabled: current?.enabled ?? true,
    type: current?.type ?? 'shared',
    clientId: standard?.clientId ?? '',
    clientSecret: standard?.clientSecret ?? '',
    facebookConfigId: standard?.facebookConfigId ?? '',
    microsoftTenantId: standard?.microsoftTenantId ?? '',
  };
}

export function providerConfig(id: OAuthProviderId, v: ProviderFormValues): AdminOAuthProviderConfig {
  if (v.type === 'shared') return { id, enabled: v.enabled, type: 'shared' };
  return {
    id,
    enabled: v.enabled,
    type: 'standard',
    clientId: v.clientId.trim(),
    clientSecret: v.clientSecret.trim(),
    ...(id === 'facebook' && v.facebookConfigId.trim() ? { facebookConfigId: v.facebookConfigId.trim() } : {}),
    ...(id === 'microsoft' && v.microsoftTenantId.trim() ? { microsoftTenantId: v.microsoftTenantId.trim() } : {}),
  };
}

export function validateProvider(id: string, v: ProviderFormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  const wire = { id, type: v.type, enabled: v.enabled, ...(v.type === 'standard' ? { client_id: v.clientId.trim(), client_secret: v.clientSecret.trim() } : {}) };
  for (const p of schemaProblems(OAuthProviderConfig, wire)) errors[p.path === '/client_id' ? 'clientId' : p.path === '/client_secret' ? 'clientSecret' : 'type'] ??= p.text;
  if (v.type === 'standard') {
    if (!v.clientId.trim()) errors.clientId = t('oauth.clientIdRequired');
    if (!v.clientSecret.trim()) errors.clientSecret = t('oauth.clientSecretRequired');
  }
  return errors;
}

/** The project's provider list with one provider replaced (or added); the others are kept as they are. */
export function withProvider(project: AdminProject, config: AdminOAuthProviderConfig): AdminOAuthProviderConfig[] {
  const others = project.config.oauthProviders.filter((p) => p.id !== config.id);
  return [...others, config];
}

export function callbackUrl(serviceUrl: string, providerId: string): string {
  return `${serviceUrl.replace(/\/$/, '')}/api/v1/auth/oauth/callback/${providerId}`;
}
