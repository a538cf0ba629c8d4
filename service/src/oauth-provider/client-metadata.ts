// A client row as oidc-provider's client metadata. A confidential client's `client_secret` here is the stored
// sha256 of its secret: the provider's secret comparison is replaced (providers.ts) to hash what the client sends,
// and nothing that would use the secret as a key (HS256 ID tokens, client_secret_jwt) is enabled.
import { DEVICE_CODE_GRANT } from '@gatehouse/shared/schemas/oauth-provider';
import type { ProviderClientRow } from '../repo/oauth-provider';

/** At most this many clients per project, made by an admin or registered dynamically. */
export const MAX_CLIENTS = 100;

export function clientMetadata(row: ProviderClientRow): Record<string, unknown> {
  const usesCode = row.grantTypes.includes('authorization_code');
  return {
    client_id: row.clientId,
    client_name: row.displayName,
    ...(row.logoUrl ? { logo_uri: row.logoUrl } : {}),
    ...(row.clientType === 'confidential'
      ? { client_secret: row.secretHash, token_endpoint_auth_method: 'client_secret_basic' }
      : { token_endpoint_auth_method: 'none' }),
    redirect_uris: usesCode ? row.redirectUris : [],
    post_logout_redirect_uris: row.redirectUris,
    grant_types: row.grantTypes,
    response_types: usesCode ? ['code'] : [],
    scope: row.scopes.join(' '),
    id_token_signed_response_alg: 'ES256',
    // Read by the provider's ttl functions (providers.ts), declared there as extra client metadata.
    [ACCESS_TOKEN_LIFETIME]: row.accessTokenLifetimeSeconds,
    [ID_TOKEN_LIFETIME]: row.idTokenLifetimeSeconds,
    [REFRESH_TOKEN_LIFETIME]: row.refreshTokenLifetimeSeconds,
  };
}

export const ACCESS_TOKEN_LIFETIME = 'access_token_lifetime_seconds' as const;
export const ID_TOKEN_LIFETIME = 'id_token_lifetime_seconds' as const;
export const REFRESH_TOKEN_LIFETIME = 'refresh_token_lifetime_seconds' as const;
/** The client metadata oidc-provider keeps for Gatehouse (its `extraClientMetadata.properties`). */
export const LIFETIME_METADATA = [ACCESS_TOKEN_LIFETIME, ID_TOKEN_LIFETIME, REFRESH_TOKEN_LIFETIME];

/** At most this many redirect URIs per client (as the admin API's schema says). */
export const MAX_REDIRECT_URIS = 20;
/** What a client registered by itself (RFC 7591) may use: a person always signs in and consents. */
export const REGISTERED_CLIENT_GRANTS = ['authorization_code', 'refresh_token'];

/** Why Gatehouse refuses these settings (grant types that do not go together), or null: both for the admin API and
 * for dynamic registration, which oidc-provider alone would let through. */
export function clientRuleViolation(row: Pick<ProviderClientRow, 'clientType' | 'grantTypes' | 'scopes' | 'redirectUris'>): string | null {
  const grants = new Set(row.grantTypes);
  if (grants.size === 0) return 'a client needs at least one grant type.';
  // oidc-provider reads no scope list as "any scope": a client always names the ones it may ask for.
  if (row.scopes.length === 0) return 'a client needs at least one scope.';
  if (row.clientType === 'public' && grants.has('client_credentials')) return 'a public client cannot use client_credentials (it has no secret).';
  if (grants.has('refresh_token') && !grants.has('authorization_code') && !grants.has(DEVICE_CODE_GRANT)) {
    return 'refresh_token needs authorization_code or the device code grant.';
  }
  if (grants.has('authorization_code') && row.redirectUris.length === 0) return 'authorization_code needs at least one redirect URI.';
  return null;
}
