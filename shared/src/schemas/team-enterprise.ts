// Teams as customer organizations (issue 28), on the server and admin API: verified email domains
// (/teams/{team_id}/domains), SCIM bearer tokens (/teams/{team_id}/scim-tokens; `token` only in the create answer)
// and the groups SCIM pushed, with the team permissions each grants (/teams/{team_id}/scim-groups).
import { Type, type Static } from '@sinclair/typebox';
import { DescriptionText, Millis, Nullable, Strict, Uuid } from './common.ts';
import { OAuthAuthorizeQuery } from './oauth.ts';

export const TeamIdParams = Strict({ team_id: Uuid() });

// ---- Verified domains
export const TeamDomainStatus = Type.Union([Type.Literal('pending'), Type.Literal('verified')]);
export const TeamDomain = Strict({
  id: Uuid(),
  team_id: Uuid(),
  domain: Type.String(),
  status: TeamDomainStatus,
  /** The DNS TXT record that proves the team controls the domain. */
  txt_record: Strict({ name: Type.String(), value: Type.String() }),
  verified_at_millis: Nullable(Millis()),
  last_checked_at_millis: Nullable(Millis()),
  /** Why the last check did not find the record; null when it did, or before any check. */
  last_check_problem: Nullable(Type.String()),
  sso_required: Type.Boolean(),
  created_at_millis: Millis(),
});
export type TeamDomain = Static<typeof TeamDomain>;
export const TeamDomainCreate = Strict({ domain: Type.String({ minLength: 1, maxLength: 253, description: 'An email domain, e.g. example.com' }) });
export const TeamDomainParams = Strict({ team_id: Uuid(), domain_id: Uuid() });

// ---- SCIM tokens
export const ScimToken = Strict({
  id: Uuid(),
  team_id: Uuid(),
  description: Type.String(),
  created_at_millis: Millis(),
  last_used_at_millis: Nullable(Millis()),
});
export type ScimToken = Static<typeof ScimToken>;
/** The create answer: the token's value, shown once, and the team's SCIM base URL. */
export const ScimTokenFirstView = Strict({
  id: Uuid(),
  team_id: Uuid(),
  description: Type.String(),
  created_at_millis: Millis(),
  last_used_at_millis: Nullable(Millis()),
  token: Type.String(),
  scim_base_url: Type.String(),
});
export const ScimTokenCreate = Strict({ description: Type.Optional(DescriptionText()) });
export const ScimTokenParams = Strict({ team_id: Uuid(), token_id: Uuid() });

// ---- SCIM groups and their permissions
export const ScimGroup = Strict({
  id: Uuid(),
  team_id: Uuid(),
  display_name: Type.String(),
  external_id: Nullable(Type.String()),
  member_count: Type.Number(),
  /** Team permissions every member of the group is granted (set by the owner; the identity provider cannot). */
  permission_ids: Type.Array(Type.String()),
  created_at_millis: Millis(),
});
export type ScimGroup = Static<typeof ScimGroup>;
export const ScimGroupUpdate = Strict({ permission_ids: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 }) });
export const ScimGroupParams = Strict({ team_id: Uuid(), group_id: Uuid() });
/** A group the owner names (an SSO-only organization's groups are matched by name against its assertions' `groups`). */
export const ScimGroupCreate = Strict({
  display_name: Type.String({ minLength: 1, maxLength: 1000 }),
  permission_ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 })),
});

// ---- Verified domains: requiring SSO
export const TeamDomainUpdate = Strict({
  /** Addresses at this domain sign in only through the team's SSO connection (the domain must be verified). */
  sso_required: Type.Boolean(),
});

// ---- SSO connections (SAML 2.0 and OpenID Connect)
export const SsoConnectionType = Type.Union([Type.Literal('saml'), Type.Literal('oidc')]);
/** Which SAML attribute (or OIDC claim) carries each field; empty: the usual names are tried. */
export const SsoAttributeMapping = Strict({
  email: Type.Optional(Type.String({ maxLength: 500 })),
  display_name: Type.Optional(Type.String({ maxLength: 500 })),
  groups: Type.Optional(Type.String({ maxLength: 500 })),
});
export const SsoConnection = Strict({
  id: Uuid(),
  team_id: Uuid(),
  type: SsoConnectionType,
  display_name: Type.String(),
  enabled: Type.Boolean(),
  /** The IdP enforces MFA: sign-ins through it are not asked for the project's second factor. */
  idp_enforces_mfa: Type.Boolean(),
  attribute_mapping: SsoAttributeMapping,
  created_at_millis: Millis(),
  // SAML: the IdP, and what to give it (Gatehouse's service provider side).
  idp_entity_id: Nullable(Type.String()),
  idp_sso_url: Nullable(Type.String()),
  idp_certificate: Nullable(Type.String()),
  allow_idp_initiated: Type.Boolean(),
  sp_entity_id: Nullable(Type.String()),
  acs_url: Nullable(Type.String()),
  sp_metadata_url: Nullable(Type.String()),
  // OpenID Connect: the provider, and the redirect URI to register there.
  issuer: Nullable(Type.String()),
  client_id: Nullable(Type.String()),
  has_client_secret: Type.Boolean(),
  redirect_uri: Nullable(Type.String()),
});
export type SsoConnection = Static<typeof SsoConnection>;

const connectionFields = {
  display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  enabled: Type.Optional(Type.Boolean()),
  idp_enforces_mfa: Type.Optional(Type.Boolean()),
  attribute_mapping: Type.Optional(SsoAttributeMapping),
  idp_metadata_xml: Type.Optional(Type.String({ maxLength: 1_000_000 })),
  idp_metadata_url: Type.Optional(Type.String({ maxLength: 2000 })),
  idp_entity_id: Type.Optional(Type.String({ maxLength: 2000 })),
  idp_sso_url: Type.Optional(Type.String({ maxLength: 2000 })),
  idp_certificate: Type.Optional(Type.String({ maxLength: 20_000 })),
  allow_idp_initiated: Type.Optional(Type.Boolean()),
  issuer: Type.Optional(Type.String({ maxLength: 2000 })),
  client_id: Type.Optional(Type.String({ maxLength: 2000 })),
  client_secret: Type.Optional(Type.String({ maxLength: 2000 })),
};
export const SsoConnectionCreate = Strict({ type: SsoConnectionType, ...connectionFields });
export const SsoConnectionUpdate = Strict(connectionFields);
export const SsoConnectionParams = Strict({ team_id: Uuid(), connection_id: Uuid() });
/** A test sign-in's start: the URL to open in a new window (the IdP's sign-in). */
export const SsoConnectionTest = Strict({ url: Type.String() });

/** GET /auth/sso/discover?email=: whether the address signs in through a team's SSO, and how it is named. */
export const SsoDiscoverQuery = Strict({ email: Type.String({ maxLength: 320 }) });
export const SsoDiscovery = Strict({
  connection_id: Uuid(),
  type: SsoConnectionType,
  display_name: Type.String(),
  /** The address's domain requires SSO: other sign-in methods are refused for it. */
  sso_required: Type.Boolean(),
});

/**
 * GET /auth/sso/authorize: the app's sign-in through a team's SSO, with the same parameters as OAuth's authorize
 * (the code it leads to is redeemed at /auth/oauth/token), and the address (`email`) or the connection to use.
 */
// OAuth's authorize parameters, but for the linking ones (`type`, `token`, `provider_scope`) and the old spelling of
// the error URL.
const { type: _type, token: _token, provider_scope: _scope, error_redirect_uri: _errorUri, ...outerFlowParams } = OAuthAuthorizeQuery.properties;
export const SsoAuthorizeQuery = Strict({
  ...outerFlowParams,
  email: Type.Optional(Type.String({ maxLength: 320 })),
  connection_id: Type.Optional(Uuid()),
});
export type SsoAuthorizeQuery = Static<typeof SsoAuthorizeQuery>;

/** GET /auth/sso/status: whether the project has any enabled SSO connection (the sign-in page offers SSO then). */
export const SsoStatus = Strict({ enabled: Type.Boolean() });

/**
 * GET /users/me/identity-providers: the organizations whose identity provider manages the signed-in user (they
 * signed in through its SSO, or its SCIM provisioned them), for account settings.
 */
export const ManagingOrganization = Strict({
  team_id: Uuid(),
  team_display_name: Type.String(),
  /** The connection they sign in through (null: provisioned by SCIM only). */
  connection_display_name: Nullable(Type.String()),
  connection_type: Nullable(SsoConnectionType),
  provisioned_by_scim: Type.Boolean(),
});
export const ManagingOrganizationList = Strict({ items: Type.Array(ManagingOrganization), is_paginated: Type.Literal(false) });
