// The project's OpenID provider as the API shows it: its clients (never their secret: only the create answer has
// it) and an authorization request waiting for the user's consent.
import type { OAuthProviderClient, OAuthProviderClientActivity, OAuthProviderConnectedApp, OAuthProviderInteraction, OAuthProviderSettings } from '@gatehouse/shared/schemas/oauth-provider';
import type { ClientActivity, ConnectedApp, ProviderClientRow, ProviderSettingsRow } from '../repo/oauth-provider';

export function providerClientView(row: ProviderClientRow): OAuthProviderClient {
  return {
    client_id: row.clientId, display_name: row.displayName, client_type: row.clientType as OAuthProviderClient['client_type'],
    redirect_uris: row.redirectUris, grant_types: row.grantTypes as OAuthProviderClient['grant_types'],
    scopes: row.scopes as OAuthProviderClient['scopes'], logo_url: row.logoUrl,
    access_token_lifetime_seconds: row.accessTokenLifetimeSeconds, id_token_lifetime_seconds: row.idTokenLifetimeSeconds,
    refresh_token_lifetime_seconds: row.refreshTokenLifetimeSeconds,
    created_at_millis: row.createdAt.getTime(), updated_at_millis: row.updatedAt.getTime(),
  };
}

export function providerInteractionView(v: { interactionId: string; client: ProviderClientRow; scopes: string[]; scopeDescriptions: Record<string, string>; consentRemembered: boolean }): OAuthProviderInteraction {
  return {
    interaction_id: v.interactionId, client_id: v.client.clientId, client_display_name: v.client.displayName,
    client_logo_url: v.client.logoUrl, scopes: v.scopes, scope_descriptions: v.scopeDescriptions, consent_remembered: v.consentRemembered,
  };
}

export function connectedAppView(app: ConnectedApp & { scopeDescriptions: Record<string, string> }): OAuthProviderConnectedApp {
  return {
    client_id: app.client.clientId, display_name: app.client.displayName, logo_url: app.client.logoUrl, scopes: app.scopes,
    scope_descriptions: app.scopeDescriptions, granted_at_millis: app.grantedAt.getTime(),
  };
}

export function clientActivityView(a: ClientActivity): OAuthProviderClientActivity {
  return { consents_granted: a.consents, live_tokens: a.liveTokens, last_token_issued_at_millis: a.lastTokenAt?.getTime() ?? null };
}

/** The settings as kept (no row yet: the defaults, never changed). */
type SettingsRecord = Pick<ProviderSettingsRow, 'dynamicClientRegistration' | 'resources' | 'scopes' | 'claims'> & { updatedAt: Date | null };

export function providerSettingsView(v: SettingsRecord): OAuthProviderSettings {
  return {
    dynamic_client_registration: v.dynamicClientRegistration, resources: v.resources,
    scopes: v.scopes.map((s) => ({ name: s.name, description: s.description })),
    claims: v.claims.map((c) => ({ claim: c.claim, source: c.source, scope: c.scope, in_access_token: c.in_access_token })),
    updated_at_millis: v.updatedAt?.getTime() ?? null,
  };
}
