// The project as an OpenID provider (issue 27): its OAuth clients (admin API `/oauth-provider/clients`) and the
// authorization requests the account kit's consent page answers for a signed-in user
// (`/oauth-provider/interactions/{interaction_id}`). Gatehouse's own API; Stack Auth has none.
import { Type, type Static } from '@sinclair/typebox';
import { List, Millis, NonEmptyString, Nullable, Strict, Uuid } from './common.ts';

/** The device authorization grant (RFC 8628) is `urn:ietf:params:oauth:grant-type:device_code`. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
export const OAUTH_PROVIDER_GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials', DEVICE_CODE_GRANT] as const;
export const OAUTH_PROVIDER_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;
export const OAUTH_PROVIDER_CLIENT_TYPES = ['confidential', 'public'] as const;

/**
 * A client's token lifetimes, in seconds: its bounds and the default when it names none. Access and ID tokens live
 * from a minute to a day; a refresh token (each one a refresh answers: rotation gives a new one its full lifetime)
 * from an hour to a year, the grant's own limit.
 */
export const OAUTH_PROVIDER_TOKEN_LIFETIMES = {
  access_token_lifetime_seconds: { min: 60, max: 86_400, default: 3_600 },
  id_token_lifetime_seconds: { min: 60, max: 86_400, default: 3_600 },
  refresh_token_lifetime_seconds: { min: 3_600, max: 365 * 86_400, default: 30 * 86_400 },
} as const;
export type OAuthProviderTokenLifetime = keyof typeof OAUTH_PROVIDER_TOKEN_LIFETIMES;
const Lifetime = (name: OAuthProviderTokenLifetime) => Type.Integer({ minimum: OAUTH_PROVIDER_TOKEN_LIFETIMES[name].min, maximum: OAUTH_PROVIDER_TOKEN_LIFETIMES[name].max });
const lifetimes = () => ({
  access_token_lifetime_seconds: Lifetime('access_token_lifetime_seconds'),
  id_token_lifetime_seconds: Lifetime('id_token_lifetime_seconds'),
  refresh_token_lifetime_seconds: Lifetime('refresh_token_lifetime_seconds'),
});
const optionalLifetimes = () => ({
  access_token_lifetime_seconds: Type.Optional(Lifetime('access_token_lifetime_seconds')),
  id_token_lifetime_seconds: Type.Optional(Lifetime('id_token_lifetime_seconds')),
  refresh_token_lifetime_seconds: Type.Optional(Lifetime('refresh_token_lifetime_seconds')),
});

const GrantType = Type.Union(OAUTH_PROVIDER_GRANT_TYPES.map((g) => Type.Literal(g)));
/**
 * A scope a client may be allowed: a standard one or one of the project's own (its settings; the service refuses a
 * name that is neither). The schema checks the token's form only (RFC 6749 §3.3).
 */
const Scope = () => Type.String({ pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]+$', patternMessage: 'must be a scope token (RFC 6749 §3.3)', maxLength: 100 });
const ClientType = Type.Union(OAUTH_PROVIDER_CLIENT_TYPES.map((t) => Type.Literal(t)));
/** Matched exactly, as written (no trailing slash added or removed); no fragment (RFC 6749 §3.1.2). */
const RedirectUri = () => Type.String({
  format: 'url', pattern: '^[A-Za-z][A-Za-z0-9+.-]*:[^#]*$', patternMessage: 'must be an absolute URL without a fragment', maxLength: 2048,
});
const LogoUrl = () => Type.String({ format: 'url', pattern: '^https?://', patternMessage: 'must be an http:// or https:// URL', maxLength: 2048 });
const DisplayName = () => NonEmptyString({ maxLength: 200 });

export const OAuthProviderClient = Strict({
  client_id: Type.String(),
  display_name: Type.String(),
  client_type: ClientType,
  redirect_uris: Type.Array(Type.String()),
  grant_types: Type.Array(GrantType),
  scopes: Type.Array(Type.String()),
  logo_url: Nullable(Type.String()),
  ...lifetimes(),
  created_at_millis: Millis(),
  updated_at_millis: Millis(),
});
export type OAuthProviderClient = Static<typeof OAuthProviderClient>;
export const OAuthProviderClientList = List(OAuthProviderClient);

/** The create answer: the client and, for a confidential client, its secret, shown only this once (else null). */
export const OAuthProviderClientFirstView = Strict({ ...OAuthProviderClient.properties, client_secret: Nullable(Type.String()) });
export type OAuthProviderClientFirstView = Static<typeof OAuthProviderClientFirstView>;

export const OAuthProviderClientCreate = Strict({
  display_name: DisplayName(),
  client_type: ClientType,
  redirect_uris: Type.Optional(Type.Array(RedirectUri(), { maxItems: 20 })),
  /** Default: authorization_code and refresh_token. */
  grant_types: Type.Optional(Type.Array(GrantType, { minItems: 1 })),
  /** The scopes the client may ask for (standard or the project's own). Default: all of openid, profile, email, offline_access. */
  scopes: Type.Optional(Type.Array(Scope(), { minItems: 1, maxItems: 60 })),
  logo_url: Type.Optional(Nullable(LogoUrl())),
  /** Defaults: 3600 s, 3600 s and 30 days (OAUTH_PROVIDER_TOKEN_LIFETIMES has the bounds). */
  ...optionalLifetimes(),
});
export type OAuthProviderClientCreate = Static<typeof OAuthProviderClientCreate>;

export const OAuthProviderClientUpdate = Strict({
  display_name: Type.Optional(DisplayName()),
  redirect_uris: Type.Optional(Type.Array(RedirectUri(), { maxItems: 20 })),
  grant_types: Type.Optional(Type.Array(GrantType, { minItems: 1 })),
  scopes: Type.Optional(Type.Array(Scope(), { minItems: 1, maxItems: 60 })),
  logo_url: Type.Optional(Nullable(LogoUrl())),
  ...optionalLifetimes(),
});
export type OAuthProviderClientUpdate = Static<typeof OAuthProviderClientUpdate>;

/**
 * What the console shows of a client's use: how many users gave it consent, how many of its tokens (access, client
 * credentials, refresh) are still live, and when it was last issued one of those the provider still keeps. A resource's
 * JWT access tokens (RFC 8707) are not stored, so not counted.
 */
export const OAuthProviderClientActivity = Strict({
  consents_granted: Type.Integer({ minimum: 0 }),
  live_tokens: Type.Integer({ minimum: 0 }),
  last_token_issued_at_millis: Nullable(Millis()),
});
export type OAuthProviderClientActivity = Static<typeof OAuthProviderClientActivity>;

export const OAuthProviderClientParams = Strict({ client_id: Type.String({ minLength: 1, maxLength: 200 }) });

/** An authorization request waiting for the signed-in user's answer, as the consent page shows it. */
export const OAuthProviderInteraction = Strict({
  interaction_id: Type.String(),
  client_id: Type.String(),
  client_display_name: Type.String(),
  client_logo_url: Nullable(Type.String()),
  /** The scopes asked for, each as its id (openid, profile, email, offline_access, or a project scope). */
  scopes: Type.Array(Type.String()),
  /** What the project says each of its own scopes asked for means (project scopes only; none for standard ones). */
  scope_descriptions: Type.Record(Type.String(), Type.String()),
  /** The user already allowed this client these scopes: the page may answer at once. */
  consent_remembered: Type.Boolean(),
});
export type OAuthProviderInteraction = Static<typeof OAuthProviderInteraction>;

export const OAuthProviderInteractionParams = Strict({ interaction_id: Type.String({ minLength: 1, maxLength: 200 }) });
export const OAuthProviderInteractionAnswer = Strict({ allow: Type.Boolean() });
export type OAuthProviderInteractionAnswer = Static<typeof OAuthProviderInteractionAnswer>;
/** Where the browser goes next: back to the provider, which sends it on to the application. */
export const OAuthProviderInteractionResult = Strict({ redirect_to: Type.String() });
export type OAuthProviderInteractionResult = Static<typeof OAuthProviderInteractionResult>;

/** An application the signed-in user let sign them in ("Connected apps"), with the scopes they allowed it. */
export const OAuthProviderConnectedApp = Strict({
  client_id: Type.String(),
  display_name: Type.String(),
  logo_url: Nullable(Type.String()),
  scopes: Type.Array(Type.String()),
  /** The project's own scopes among them, with the description the consent page showed. */
  scope_descriptions: Type.Record(Type.String(), Type.String()),
  granted_at_millis: Millis(),
});
export type OAuthProviderConnectedApp = Static<typeof OAuthProviderConnectedApp>;
export const OAuthProviderConnectedAppList = List(OAuthProviderConnectedApp);

/** A protected resource (RFC 8707): an absolute http(s) URL without a fragment, as its resource server names itself. */
const ResourceUri = () => Type.String({ format: 'url', pattern: '^https?://[^#]*$', patternMessage: 'must be an http:// or https:// URL without a fragment', maxLength: 2048 });

/** A scope of the project's own: its name (a scope token, not a standard one) and what the consent page says of it. */
export const OAuthProviderProjectScope = Strict({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  description: NonEmptyString({ maxLength: 300 }),
});
export type OAuthProviderProjectScope = Static<typeof OAuthProviderProjectScope>;

/**
 * A custom claim: `claim` read from the user's metadata at `source` (`client_metadata`, `client_read_only_metadata` or
 * `server_metadata`, then `.key` steps), released in ID tokens and userinfo when `scope` was granted; with
 * `in_access_token`, also put in the project's own access tokens (those of sign-in and refresh).
 */
export const OAuthProviderClaimMapping = Strict({
  claim: Type.String({ minLength: 1, maxLength: 100 }),
  source: Type.String({ minLength: 1, maxLength: 300 }),
  scope: Type.String({ minLength: 1, maxLength: 100 }),
  in_access_token: Type.Boolean(),
});
export type OAuthProviderClaimMapping = Static<typeof OAuthProviderClaimMapping>;

/** The provider's settings: dynamic client registration (RFC 7591, off by default), its protected resources, its own
 * scopes and the custom claims it maps from user metadata. */
export const OAuthProviderSettings = Strict({
  /** Anyone may register a client at the provider's registration endpoint (MCP clients do). */
  dynamic_client_registration: Type.Boolean(),
  /** The resources (RFC 8707) an access token may be asked for; each gets a JWT access token with it as audience. */
  resources: Type.Array(Type.String()),
  /** The project's own scopes, offered besides openid, profile, email and offline_access. */
  scopes: Type.Array(OAuthProviderProjectScope),
  /** The custom claims from user metadata. */
  claims: Type.Array(OAuthProviderClaimMapping),
  updated_at_millis: Nullable(Millis()),
});
export type OAuthProviderSettings = Static<typeof OAuthProviderSettings>;

export const OAuthProviderSettingsUpdate = Strict({
  dynamic_client_registration: Type.Optional(Type.Boolean()),
  resources: Type.Optional(Type.Array(ResourceUri(), { maxItems: 20 })),
  /** Replaces the project scopes (each name once; not a standard scope; not removed while a client may ask for it). */
  scopes: Type.Optional(Type.Array(OAuthProviderProjectScope, { maxItems: 50 })),
  /** Replaces the claim mappings (each claim once; no reserved name; each names a standard or project scope). */
  claims: Type.Optional(Type.Array(Strict({ ...OAuthProviderClaimMapping.properties, in_access_token: Type.Optional(Type.Boolean()) }), { maxItems: 50 })),
});
export type OAuthProviderSettingsUpdate = Static<typeof OAuthProviderSettingsUpdate>;

/**
 * A user's consents, for the console's user page and a project's back end (admin or server key):
 * GET /oauth-provider/consents?user_id= lists them as connected apps; DELETE /oauth-provider/consents/{client_id}?user_id=
 * revokes one with its grants and tokens, as the user's own "Connected apps" does.
 */
export const OAuthProviderConsentQuery = Strict({ user_id: Uuid() });
