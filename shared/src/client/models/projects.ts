// Project views (client-library §1.7.10) and the project ↔ wire mapping of §1.8.
import { getProductionModeErrors, type ProductionModeError } from '../../rules/production-mode.ts';
import { compact } from './common.ts';
import type { GatehouseAdminApp } from '../admin-app.ts';
import type { AdminProjectJson, ClientProjectJson, EmailConfigJson, OAuthProviderConfigJson, ProjectCreateBody, ProjectUpdateBody } from '../wire.ts';

export type ProjectConfig = {
  readonly signUpEnabled: boolean;
  readonly credentialEnabled: boolean;
  readonly magicLinkEnabled: boolean;
  readonly passkeyEnabled: boolean;
  readonly clientTeamCreationEnabled: boolean;
  readonly clientUserDeletionEnabled: boolean;
  readonly allowUserApiKeys: boolean;
  readonly allowTeamApiKeys: boolean;
  readonly oauthProviders: readonly { id: string }[];
};

export interface Project {
  readonly id: string;
  readonly displayName: string;
  readonly config: ProjectConfig;
}

export function createProject(json: ClientProjectJson): Project {
  const c = json.config;
  return Object.freeze({
    id: json.id,
    displayName: json.display_name,
    config: Object.freeze({
      signUpEnabled: c.sign_up_enabled,
      credentialEnabled: c.credential_enabled,
      magicLinkEnabled: c.magic_link_enabled,
      passkeyEnabled: c.passkey_enabled,
      clientTeamCreationEnabled: c.client_team_creation_enabled,
      clientUserDeletionEnabled: c.client_user_deletion_enabled,
      allowUserApiKeys: c.allow_user_api_keys,
      allowTeamApiKeys: c.allow_team_api_keys,
      oauthProviders: (c.enabled_oauth_providers ?? []).map((p) => Object.freeze({ id: p.id })),
    }),
  });
}

/** A provider the service knows (shared/src/schemas/projects.ts); the SDK types it as any string. */
export type OAuthProviderId = OAuthProviderConfigJson['id'];

export type AdminOAuthProviderConfig =
  | { id: OAuthProviderId; enabled: boolean; type: 'shared' }
  | { id: OAuthProviderId; enabled: boolean; type: 'standard'; clientId: string; clientSecret: string; facebookConfigId?: string; microsoftTenantId?: string };

export type AdminEmailConfig =
  | { type: 'shared' }
  | { type: 'standard'; host: string; port: number; username: string; password: string; senderName: string; senderEmail: string; /** STARTTLS required (Gatehouse's own; absent: false). */ requireTls?: boolean };

export type AdminDomainConfig = { domain: string; handlerPath: string };

export type AdminProjectConfig = Omit<ProjectConfig, 'oauthProviders'> & {
  readonly id: string;
  readonly allowLocalhost: boolean;
  readonly oauthAccountMergeStrategy: 'link_method' | 'raise_error' | 'allow_duplicates';
  readonly oauthProviders: readonly AdminOAuthProviderConfig[];
  readonly emailConfig: AdminEmailConfig;
  readonly domains: readonly AdminDomainConfig[];
  readonly createTeamOnSignUp: boolean;
  readonly teamCreatorDefaultPermissions: readonly { id: string }[];
  readonly teamMemberDefaultPermissions: readonly { id: string }[];
  readonly userDefaultPermissions: readonly { id: string }[];
};

export type AdminProjectConfigUpdateOptions = Partial<
  Omit<AdminProjectConfig, 'id' | 'allowUserApiKeys' | 'allowTeamApiKeys'> & { allowUserApiKeys: boolean; allowTeamApiKeys: boolean }
>;

export type AdminProjectUpdateOptions = {
  displayName?: string;
  description?: string | null;
  isProductionMode?: boolean;
  config?: AdminProjectConfigUpdateOptions;
};
export type AdminProjectCreateOptions = AdminProjectUpdateOptions & { displayName: string };

export interface AdminProject {
  readonly id: string;
  readonly displayName: string;
  readonly description: string | null;
  readonly createdAt: Date;
  readonly userCount: number;
  readonly isProductionMode: boolean;
  readonly config: AdminProjectConfig;
  update(update: AdminProjectUpdateOptions): Promise<void>;
  delete(): Promise<void>;
  getProductionModeErrors(): Promise<ProductionModeError[]>;
}

/** `AdminProject` plus an admin app for it, acting through the owner's (internal-project) session. */
export type AdminOwnedProject = AdminProject & { readonly app: GatehouseAdminApp };

function missing(what: string): never {
  throw new Error(`${what} is missing`);
}

function oauthProviderFromJson(p: OAuthProviderConfigJson): AdminOAuthProviderConfig {
  if (p.type === 'shared') return Object.freeze({ id: p.id, enabled: p.enabled, type: 'shared' as const });
  return Object.freeze({
    id: p.id,
    enabled: p.enabled,
    type: 'standard' as const,
    clientId: p.client_id ?? missing('Client ID'),
    clientSecret: p.client_secret ?? missing('Client secret'),
    facebookConfigId: p.facebook_config_id,
    microsoftTenantId: p.microsoft_tenant_id,
  });
}

function emailConfigFromJson(e: EmailConfigJson | undefined): AdminEmailConfig {
  if (!e || e.type === 'shared') return { type: 'shared' };
  return Object.freeze({
    type: 'standard' as const,
    host: e.host ?? missing('Email host'),
    port: e.port ?? missing('Email port'),
    username: e.username ?? missing('Email username'),
    password: e.password ?? missing('Email password'),
    senderName: e.sender_name ?? missing('Email sender name'),
    senderEmail: e.sender_email ?? missing('Email sender email'),
    requireTls: e.require_tls ?? false,
  });
}

const ids = (list: readonly { id: string }[] | undefined) => Object.freeze((list ?? []).map((p) => Object.freeze({ id: p.id })));

export function adminProjectConfigFromJson(c: AdminProjectJson['config']): AdminProjectConfig {
  return Object.freeze({
    id: c.id,
    signUpEnabled: c.sign_up_enabled,
    credentialEnabled: c.credential_enabled,
    magicLinkEnabled: c.magic_link_enabled,
    passkeyEnabled: c.passkey_enabled,
    clientTeamCreationEnabled: c.client_team_creation_enabled,
    clientUserDeletionEnabled: c.client_user_deletion_enabled,
    allowLocalhost: c.allow_localhost,
    oauthAccountMergeStrategy: c.oauth_account_merge_strategy,
    allowUserApiKeys: c.allow_user_api_keys,
    allowTeamApiKeys: c.allow_team_api_keys,
    oauthProviders: Object.freeze((c.oauth_providers ?? []).map(oauthProviderFromJson)),
    emailConfig: emailConfigFromJson(c.email_config),
    domains: Object.freeze((c.domains ?? []).map((d) => Object.freeze({ domain: d.domain, handlerPath: d.handler_path }))),
    createTeamOnSignUp: c.create_team_on_sign_up,
    teamCreatorDefaultPermissions: ids(c.team_creator_default_permissions),
    teamMemberDefaultPermissions: ids(c.team_member_default_permissions),
    userDefaultPermissions: ids(c.user_default_permissions),
  });
}

export function adminProjectUpdateToWire(o: AdminProjectUpdateOptions): ProjectUpdateBody {
  const c = o.config ?? {};
  const email = c.emailConfig;
  return compact({
    display_name: o.displayName,
    description: o.description,
    is_production_mode: o.isProductionMode,
    config: compact({
      domains: c.domains?.map((d) => ({ domain: d.domain, handler_path: d.handlerPath })),
      oauth_providers: c.oauthProviders?.map((p) =>
        compact({
          id: p.id,
          enabled: p.enabled,
          type: p.type,
          ...(p.type === 'standard'
            ? { client_id: p.clientId, client_secret: p.clientSecret, facebook_config_id: p.facebookConfigId, microsoft_tenant_id: p.microsoftTenantId }
            : {}),
        }),
      ),
      email_config: email
        ? email.type === 'shared'
          ? { type: 'shared' as const }
          : {
              type: 'standard' as const,
              host: email.host,
              port: email.port,
              username: email.username,
              password: email.password,
              sender_name: email.senderName,
              sender_email: email.senderEmail,
              ...(email.requireTls !== undefined ? { require_tls: email.requireTls } : {}),
            }
        : undefined,
      sign_up_enabled: c.signUpEnabled,
      credential_enabled: c.credentialEnabled,
      magic_link_enabled: c.magicLinkEnabled,
      passkey_enabled: c.passkeyEnabled,
      allow_localhost: c.allowLocalhost,
      create_team_on_sign_up: c.createTeamOnSignUp,
      client_team_creation_enabled: c.clientTeamCreationEnabled,
      client_user_deletion_enabled: c.clientUserDeletionEnabled,
      team_creator_default_permissions: c.teamCreatorDefaultPermissions?.map((p) => ({ id: p.id })),
      team_member_default_permissions: c.teamMemberDefaultPermissions?.map((p) => ({ id: p.id })),
      user_default_permissions: c.userDefaultPermissions?.map((p) => ({ id: p.id })),
      oauth_account_merge_strategy: c.oauthAccountMergeStrategy,
      allow_user_api_keys: c.allowUserApiKeys,
      allow_team_api_keys: c.allowTeamApiKeys,
    }),
  });
}

export function createAdminProject(json: AdminProjectJson, ops: { update(wire: ProjectUpdateBody): Promise<void>; delete(): Promise<void> }): AdminProject {
  const config = adminProjectConfigFromJson(json.config);
  return Object.freeze({
    id: json.id,
    displayName: json.display_name,
    description: json.description ?? null,
    createdAt: new Date(json.created_at_millis),
    userCount: json.user_count,
    isProductionMode: json.is_production_mode,
    config,
    update: (update: AdminProjectUpdateOptions) => ops.update(adminProjectUpdateToWire(update)),
    delete: () => ops.delete(),
    getProductionModeErrors: async () => getProductionModeErrors({ id: json.id, config: { allow_localhost: config.allowLocalhost, domains: json.config?.domains ?? [] } }),
  });
}

export function adminProjectCreateToWire(o: AdminProjectCreateOptions): ProjectCreateBody {
  return { ...adminProjectUpdateToWire(o), display_name: o.displayName };
}
