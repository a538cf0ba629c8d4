// The OAuth clients of the project's own OpenID provider (issue 27; Gatehouse's admin API /oauth-provider/clients)
// as the admin app returns them. Wire → model, and model options → request bodies.
import { compact } from './common.ts';
import type { OAuthProviderClientActivityJson, OAuthProviderClientCreateBody, OAuthProviderClientFirstViewJson, OAuthProviderClientJson, OAuthProviderClientUpdateBody } from '../wire.ts';

export type OAuthProviderClientType = OAuthProviderClientJson['client_type'];
export type OAuthProviderGrantType = OAuthProviderClientJson['grant_types'][number];
export type OAuthProviderScope = OAuthProviderClientJson['scopes'][number];

export interface OAuthProviderClient {
  readonly clientId: string;
  readonly displayName: string;
  readonly clientType: OAuthProviderClientType;
  /** Matched exactly, as written. */
  readonly redirectUris: readonly string[];
  readonly grantTypes: readonly OAuthProviderGrantType[];
  /** The scopes the client may ask for. */
  readonly scopes: readonly OAuthProviderScope[];
  readonly logoUrl: string | null;
  /** Token lifetimes in seconds (bounds: OAUTH_PROVIDER_TOKEN_LIFETIMES). */
  readonly accessTokenLifetimeSeconds: number;
  readonly idTokenLifetimeSeconds: number;
  readonly refreshTokenLifetimeSeconds: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The create call's answer: the client and, for a confidential one, its secret, which is never shown again. */
export interface OAuthProviderClientFirstView extends OAuthProviderClient {
  readonly clientSecret: string | null;
}

export type OAuthProviderClientCreateOptions = {
  displayName: string; clientType: OAuthProviderClientType; redirectUris?: string[]; grantTypes?: OAuthProviderGrantType[];
  scopes?: OAuthProviderScope[]; logoUrl?: string | null;
  accessTokenLifetimeSeconds?: number; idTokenLifetimeSeconds?: number; refreshTokenLifetimeSeconds?: number;
};
export type OAuthProviderClientUpdateOptions = Partial<Omit<OAuthProviderClientCreateOptions, 'clientType'>>;

export function oauthProviderClientFromJson(json: OAuthProviderClientJson): OAuthProviderClient {
  return Object.freeze({
    clientId: json.client_id, displayName: json.display_name, clientType: json.client_type,
    redirectUris: Object.freeze([...json.redirect_uris]), grantTypes: Object.freeze([...json.grant_types]), scopes: Object.freeze([...json.scopes]),
    logoUrl: json.logo_url, accessTokenLifetimeSeconds: json.access_token_lifetime_seconds, idTokenLifetimeSeconds: json.id_token_lifetime_seconds,
    refreshTokenLifetimeSeconds: json.refresh_token_lifetime_seconds, createdAt: new Date(json.created_at_millis), updatedAt: new Date(json.updated_at_millis),
  });
}

export function oauthProviderClientFirstViewFromJson(json: OAuthProviderClientFirstViewJson): OAuthProviderClientFirstView {
  return Object.freeze({ ...oauthProviderClientFromJson(json), clientSecret: json.client_secret });
}

export function oauthProviderClientCreateBody(o: OAuthProviderClientCreateOptions): OAuthProviderClientCreateBody {
  return compact({
    display_name: o.displayName, client_type: o.clientType, redirect_uris: o.redirectUris, grant_types: o.grantTypes, scopes: o.scopes, logo_url: o.logoUrl,
    ...lifetimesBody(o),
  }) as OAuthProviderClientCreateBody;
}

export function oauthProviderClientUpdateBody(o: OAuthProviderClientUpdateOptions): OAuthProviderClientUpdateBody {
  return compact({
    display_name: o.displayName, redirect_uris: o.redirectUris, grant_types: o.grantTypes, scopes: o.scopes, logo_url: o.logoUrl, ...lifetimesBody(o),
  }) as OAuthProviderClientUpdateBody;
}

function lifetimesBody(o: OAuthProviderClientUpdateOptions) {
  return {
    access_token_lifetime_seconds: o.accessTokenLifetimeSeconds, id_token_lifetime_seconds: o.idTokenLifetimeSeconds,
    refresh_token_lifetime_seconds: o.refreshTokenLifetimeSeconds,
  };
}

/** A client's use: users who gave it consent, its tokens still live, the last one issued (of those still kept). */
export interface OAuthProviderClientActivity {
  readonly consentsGranted: number;
  readonly liveTokens: number;
  readonly lastTokenIssuedAt: Date | null;
}

export function oauthProviderClientActivityFromJson(json: OAuthProviderClientActivityJson): OAuthProviderClientActivity {
  return Object.freeze({
    consentsGranted: json.consents_granted, liveTokens: json.live_tokens,
    lastTokenIssuedAt: json.last_token_issued_at_millis === null ? null : new Date(json.last_token_issued_at_millis),
  });
}
