// The open project's admin lists as named hooks over the client library's cached reads: each suspends on its first
// load (the screen's boundary shows the skeleton) and follows the cache afterwards.
import { useCallback, useMemo } from 'react';
import type {
  AdminEmailTemplate, AdminMetrics, AdminSecuritySettings, InternalApiKey, OAuthProviderClient, OAuthProviderSettings, OwnerInvitation, ProjectOwner, WebhookEndpoint,
} from '@gatehouse/shared/client';
import { useCachedRead } from '@gatehouse/shared/react';
import { useProjectContext } from './use-project-context';

/** GET /internal/metrics: the figures the overview and the metrics screen show. */
export function useMetrics(): AdminMetrics {
  const { app } = useProjectContext();
  const read = useMemo(() => app.adminReads.metrics(), [app]);
  return useCachedRead(read);
}

/** Fetches the metrics again; a failure lands in the read, where `useMetrics` throws it to the error boundary. */
export function useRefetchMetrics(): () => Promise<void> {
  const { app } = useProjectContext();
  return useCallback(() => app.adminReads.metrics().get().then(() => undefined, () => undefined), [app]);
}

export function useWebhookEndpoints(): WebhookEndpoint[] {
  const { app } = useProjectContext();
  const read = useMemo(() => app.adminReads.webhookEndpoints(), [app]);
  return useCachedRead(read);
}

export function useEmailTemplates(): AdminEmailTemplate[] {
  const { app } = useProjectContext();
  const read = useMemo(() => app.adminReads.emailTemplates(), [app]);
  return useCachedRead(read);
}

/** The project's API key sets (GET /internal/api-keys). */
export function useInternalApiKeys(): InternalApiKey[] {
  const { app } = useProjectContext();
  const read = useMemo(() => app.adminReads.internalApiKeys(), [app]);
  return useCachedRead(read);
}

/** The project's owners (GET /internal/owners). */
export function useProjectOwners(): ProjectOwner[] {
  const { app } = useProjectContext();
  const read = useMemo(() => app.adminReads.owners(), [app]);
  return useCachedRead(read);
}

/** The project's pending owner invitations (GET /internal/owner-invitations). */
export function useOwnerInvitations(): OwnerInvitation[] {
  const { app } = useProjectContext();
  const read = useMemo(() => app.adminReads.ownerInvitations(), [app]);
  return useCachedRead(read);
}

/** The project's security settings (GET /internal/security-settings). */
export function useSecuritySettings(): AdminSecuritySettings {
  const { app } = useProjectContext();
  const read = useMemo(() => app.adminReads.securitySettings(), [app]);
  return useCachedRead(read);
}

/** The OAuth clients of the project's own OpenID provider (GET /oauth-provider/clients). */
export function useOAuthProviderClients(): OAuthProviderClient[] {
  const { app } = useProjectContext();
  const read = useMemo(() => app.adminReads.oauthProviderClients(), [app]);
  return useCachedRead(read);
}

/** The settings of the project's own OpenID provider (GET /oauth-provider/settings): its registration, resources, scopes and custom claims. */
export function useOAuthProviderSettings(): OAuthProviderSettings {
  const { app } = useProjectContext();
  const read = useMemo(() => app.adminReads.oauthProviderSettings(), [app]);
  return useCachedRead(read);
}

/**
 * The provider's settings as the service has them now (the screen's copy refreshed too): a change of one of its
 * lists starts from them, so it does not put back what another owner changed since the screen loaded.
 */
export function useFreshOAuthProviderSettings(): () => Promise<OAuthProviderSettings> {
  const { app } = useProjectContext();
  return useCallback(() => app.getOAuthProviderSettings(), [app]);
}

/** Fetches the provider's settings again; a failure lands in the read, where `useOAuthProviderSettings` throws it. */
export function useRefetchOAuthProviderSettings(): () => Promise<void> {
  const { app } = useProjectContext();
  return useCallback(() => app.adminReads.oauthProviderSettings().get().then(() => undefined, () => undefined), [app]);
}
