// Projects and their configuration (protocol-resources §10).
import { Type, type Static } from '@sinclair/typebox';
import { DescriptionText, MAX_NAME_LENGTH, Millis, NameText, Nullable, Strict, NonEmptyString, List } from './common.ts';

export const OAuthProviderId = Type.Union([
  Type.Literal('google'), Type.Literal('github'), Type.Literal('microsoft'), Type.Literal('spotify'), Type.Literal('facebook'),
  Type.Literal('discord'), Type.Literal('gitlab'), Type.Literal('bitbucket'), Type.Literal('linkedin'), Type.Literal('apple'), Type.Literal('x'),
]);

export const OAuthProviderConfig = Strict({
  id: OAuthProviderId,
  type: Type.Union([Type.Literal('shared'), Type.Literal('standard')]),
  enabled: Type.Boolean(),
  client_id: Type.Optional(Type.String()),
  client_secret: Type.Optional(Type.String()),
  facebook_config_id: Type.Optional(Type.String()),
  microsoft_tenant_id: Type.Optional(Type.String()),
});
export type OAuthProviderConfig = Static<typeof OAuthProviderConfig>;

export const SharedEmailConfig = Strict({ type: Type.Literal('shared') });
export const StandardEmailConfig = Strict({
  type: Type.Literal('standard'),
  host: NonEmptyString(),
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  username: NonEmptyString(),
  password: NonEmptyString(),
  sender_name: NonEmptyString(),
  sender_email: NonEmptyString({ format: 'email' }),
  /**
   * Refuse to send unless the connection is encrypted: implicit TLS on port 465, STARTTLS required on any other port
   * (without it, STARTTLS is used when the server offers it). Absent: false (ASVS 2.7.4; Gatehouse's own field).
   */
  require_tls: Type.Optional(Type.Boolean()),
});
export const EmailConfig = Type.Union([SharedEmailConfig, StandardEmailConfig]);
export type EmailConfig = Static<typeof EmailConfig>;

export const Domain = Strict({
  domain: Type.String({ pattern: '^https?://', patternMessage: 'URL must start with http:// or https://' }),
  handler_path: Type.String({ pattern: '^/', patternMessage: 'Handler path must start with /' }),
});

export const PermissionRef = Strict({ id: Type.String() });

export const MergeStrategy = Type.Union([Type.Literal('link_method'), Type.Literal('raise_error'), Type.Literal('allow_duplicates')]);

/** The stored configuration document of a project (admin view, without `id` and the derived fields). */
export const ProjectConfigDocument = Strict({
  allow_localhost: Type.Boolean(),
  sign_up_enabled: Type.Boolean(),
  credential_enabled: Type.Boolean(),
  magic_link_enabled: Type.Boolean(),
  passkey_enabled: Type.Boolean(),
  client_team_creation_enabled: Type.Boolean(),
  client_user_deletion_enabled: Type.Boolean(),
  create_team_on_sign_up: Type.Boolean(),
  allow_user_api_keys: Type.Boolean(),
  allow_team_api_keys: Type.Boolean(),
  domains: Type.Array(Domain),
  oauth_providers: Type.Array(OAuthProviderConfig),
  email_config: EmailConfig,
  team_creator_default_permissions: Type.Array(PermissionRef),
  team_member_default_permissions: Type.Array(PermissionRef),
  user_default_permissions: Type.Array(PermissionRef),
  oauth_account_merge_strategy: MergeStrategy,
});
export type ProjectConfigDocument = Static<typeof ProjectConfigDocument>;

export function defaultProjectConfig(): ProjectConfigDocument {
  return {
    allow_localhost: true,
    sign_up_enabled: true,
    credential_enabled: true,
    magic_link_enabled: false,
    passkey_enabled: false,
    client_team_creation_enabled: false,
    client_user_deletion_enabled: false,
    create_team_on_sign_up: false,
    allow_user_api_keys: false,
    allow_team_api_keys: false,
    domains: [],
    oauth_providers: [],
    email_config: { type: 'shared' },
    team_creator_default_permissions: [{ id: 'admin' }],
    team_member_default_permissions: [{ id: 'member' }],
    user_default_permissions: [],
    oauth_account_merge_strategy: 'link_method',
  };
}

/** `GET /projects/current` for client and server access. */
export const ClientProject = Strict({
  id: Type.String(),
  display_name: Type.String(),
  config: Strict({
    sign_up_enabled: Type.Boolean(),
    credential_enabled: Type.Boolean(),
    magic_link_enabled: Type.Boolean(),
    passkey_enabled: Type.Boolean(),
    client_team_creation_enabled: Type.Boolean(),
    client_user_deletion_enabled: Type.Boolean(),
    allow_user_api_keys: Type.Boolean(),
    allow_team_api_keys: Type.Boolean(),
    enabled_oauth_providers: Type.Array(Strict({ id: OAuthProviderId })),
  }),
});
export type ClientProject = Static<typeof ClientProject>;

/** `GET /projects/current` for admin access, and items of `/internal/projects`. */
export const AdminProject = Strict({
  id: Type.String(),
  display_name: Type.String(),
  description: Type.String(),
  created_at_millis: Millis(),
  user_count: Type.Integer(),
  is_production_mode: Type.Boolean(),
  config: Type.Composite([
    Strict({ id: Type.String(), enabled_oauth_providers: Type.Array(Strict({ id: OAuthProviderId })) }),
    ProjectConfigDocument,
  ], { additionalProperties: false }),
});
export const AdminProjectList = List(AdminProject);
export type AdminProject = Static<typeof AdminProject>;

export const ProjectDescription = Nullable(DescriptionText());

/**
 * Email config as a request sends it (PATCH /projects/current, POST /internal/projects). One object instead of
 * the union, so a standard config missing a field is reported as "… must be defined" (checked by the service's
 * config validation) rather than as a mismatch against the shared variant.
 */
export const EmailConfigInput = Strict({
  type: Type.Union([Type.Literal('shared'), Type.Literal('standard')]),
  host: Type.Optional(NameText()),
  port: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  username: Type.Optional(NameText()),
  password: Type.Optional(NameText()),
  sender_name: Type.Optional(NameText()),
  sender_email: Type.Optional(NameText({ format: 'email' })),
  require_tls: Type.Optional(Type.Boolean()),
});
export type EmailConfigInput = Static<typeof EmailConfigInput>;

/** The writable config keys (§10.3); every key optional, read-only keys rejected as unknown. */
export const ProjectConfigUpdate = Strict({
  allow_localhost: Type.Optional(Type.Boolean()),
  sign_up_enabled: Type.Optional(Type.Boolean()),
  credential_enabled: Type.Optional(Type.Boolean()),
  magic_link_enabled: Type.Optional(Type.Boolean()),
  passkey_enabled: Type.Optional(Type.Boolean()),
  client_team_creation_enabled: Type.Optional(Type.Boolean()),
  client_user_deletion_enabled: Type.Optional(Type.Boolean()),
  create_team_on_sign_up: Type.Optional(Type.Boolean()),
  allow_user_api_keys: Type.Optional(Type.Boolean()),
  allow_team_api_keys: Type.Optional(Type.Boolean()),
  domains: Type.Optional(Type.Array(Domain)),
  oauth_providers: Type.Optional(Type.Array(OAuthProviderConfig)),
  email_config: Type.Optional(EmailConfigInput),
  team_creator_default_permissions: Type.Optional(Type.Array(PermissionRef)),
  team_member_default_permissions: Type.Optional(Type.Array(PermissionRef)),
  user_default_permissions: Type.Optional(Type.Array(PermissionRef)),
  oauth_account_merge_strategy: Type.Optional(MergeStrategy),
});
export type ProjectConfigUpdate = Static<typeof ProjectConfigUpdate>;

/** `PATCH /projects/current` body. */
export const ProjectUpdate = Strict({
  display_name: Type.Optional(NameText({ minLength: 1 })),
  description: Type.Optional(ProjectDescription),
  is_production_mode: Type.Optional(Type.Boolean()),
  config: Type.Optional(ProjectConfigUpdate),
});
export type ProjectUpdate = Static<typeof ProjectUpdate>;

/** POST /internal/projects: a new project of the signed-in owner. */
export const ProjectCreate = Strict({
  display_name: Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH }),
  description: Type.Optional(ProjectDescription),
  is_production_mode: Type.Optional(Type.Boolean()),
  config: Type.Optional(ProjectConfigUpdate),
});
export type ProjectCreate = Static<typeof ProjectCreate>;

export const JwksParams = Strict({ project_id: Type.String() });
/** One P-256 verification key of a project's access tokens. */
export const PublicJwk = Type.Object({ kty: Type.String(), crv: Type.String(), x: Type.String(), y: Type.String(), kid: Type.String(), alg: Type.String() });
export type PublicJwk = Static<typeof PublicJwk>;
export const Jwks = Strict({ keys: Type.Array(PublicJwk) });
