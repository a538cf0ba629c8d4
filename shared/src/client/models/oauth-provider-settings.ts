// The settings of the project's own OpenID provider (issue 27): dynamic client registration (RFC 7591, off by
// default) and the protected resources (RFC 8707) it issues audience-bound JWT access tokens for.
import type { OAuthProviderSettingsJson, OAuthProviderSettingsUpdateBody } from '../wire.ts';

export interface OAuthProviderSettings {
  /** Anyone may register a client at the provider's registration endpoint (MCP clients do). */
  readonly dynamicClientRegistration: boolean;
  /** The resources (absolute URLs) an access token may be asked for; each token names one as its audience. */
  readonly resources: readonly string[];
  /** Null until first changed. */
  readonly updatedAt: Date | null;
}

export interface OAuthProviderSettingsUpdateOptions {
  dynamicClientRegistration?: boolean;
  resources?: string[];
}

export function oauthProviderSettingsFromJson(json: OAuthProviderSettingsJson): OAuthProviderSettings {
  return Object.freeze({
    dynamicClientRegistration: json.dynamic_client_registration, resources: Object.freeze([...json.resources]),
    updatedAt: json.updated_at_millis === null ? null : new Date(json.updated_at_millis),
  });
}

export function oauthProviderSettingsUpdateBody(o: OAuthProviderSettingsUpdateOptions): OAuthProviderSettingsUpdateBody {
  return {
    ...(o.dynamicClientRegistration !== undefined ? { dynamic_client_registration: o.dynamicClientRegistration } : {}),
    ...(o.resources !== undefined ? { resources: o.resources } : {}),
  };
}
