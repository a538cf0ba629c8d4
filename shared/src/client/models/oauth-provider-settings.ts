// The settings of the project's own OpenID provider (issue 27): dynamic client registration (RFC 7591, off by
// default), the protected resources (RFC 8707) it issues audience-bound JWT access tokens for, the project's own
// scopes and the custom claims mapped from user metadata.
import type { OAuthProviderSettingsJson, OAuthProviderSettingsUpdateBody } from '../wire.ts';

/** A scope of the project's own, offered besides openid, profile, email and offline_access. */
export interface OAuthProviderProjectScope {
  /** A scope token (RFC 6749 §3.3), not a standard scope's name. */
  readonly name: string;
  /** What the consent page says the scope gives the application. */
  readonly description: string;
}

/** A custom claim read from the user's metadata. */
export interface OAuthProviderClaimMapping {
  /** The claim's name in ID tokens, userinfo (and, with `inAccessToken`, the project's access tokens). */
  readonly claim: string;
  /** `client_metadata`, `client_read_only_metadata` or `server_metadata`, then `.key` steps; a missing value leaves the claim out. */
  readonly source: string;
  /** The scope (openid, profile, email or a project scope) whose grant releases the claim. */
  readonly scope: string;
  /** Also put the claim into the project's own access tokens (sign-in and refresh). */
  readonly inAccessToken: boolean;
}

export interface OAuthProviderSettings {
  /** Anyone may register a client at the provider's registration endpoint (MCP clients do). */
  readonly dynamicClientRegistration: boolean;
  /** The resources (absolute URLs) an access token may be asked for; each token names one as its audience. */
  readonly resources: readonly string[];
  readonly scopes: readonly OAuthProviderProjectScope[];
  readonly claims: readonly OAuthProviderClaimMapping[];
  /** Null until first changed. */
  readonly updatedAt: Date | null;
}

export interface OAuthProviderSettingsUpdateOptions {
  dynamicClientRegistration?: boolean;
  resources?: string[];
  /** Replaces the project scopes. */
  scopes?: { name: string; description: string }[];
  /** Replaces the claim mappings (`inAccessToken` false unless given). */
  claims?: { claim: string; source: string; scope: string; inAccessToken?: boolean }[];
}

export function oauthProviderSettingsFromJson(json: OAuthProviderSettingsJson): OAuthProviderSettings {
  return Object.freeze({
    dynamicClientRegistration: json.dynamic_client_registration, resources: Object.freeze([...json.resources]),
    scopes: Object.freeze(json.scopes.map((s) => Object.freeze({ name: s.name, description: s.description }))),
    claims: Object.freeze(json.claims.map((c) => Object.freeze({ claim: c.claim, source: c.source, scope: c.scope, inAccessToken: c.in_access_token }))),
    updatedAt: json.updated_at_millis === null ? null : new Date(json.updated_at_millis),
  });
}

export function oauthProviderSettingsUpdateBody(o: OAuthProviderSettingsUpdateOptions): OAuthProviderSettingsUpdateBody {
  return {
    ...(o.dynamicClientRegistration !== undefined ? { dynamic_client_registration: o.dynamicClientRegistration } : {}),
    ...(o.resources !== undefined ? { resources: o.resources } : {}),
    ...(o.scopes !== undefined ? { scopes: o.scopes.map((s) => ({ name: s.name, description: s.description })) } : {}),
    ...(o.claims !== undefined
      ? { claims: o.claims.map((c) => ({ claim: c.claim, source: c.source, scope: c.scope, in_access_token: c.inAccessToken ?? false })) }
      : {}),
  };
}
