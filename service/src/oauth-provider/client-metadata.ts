// A client row as oidc-provider's client metadata. A confidential client's `client_secret` here is the stored
// sha256 of its secret: the provider's secret comparison is replaced (providers.ts) to hash what the client sends,
// and nothing that would use the secret as a key (HS256 ID tokens, client_secret_jwt) is enabled.
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
  };
}
