// GatehouseAdminApp (= StackAdminApp): project administration with the admin key or a project owner's session
// (client-library §1.6).
import {
  buildCore,
  requireProjectId,
  requirePublishableKey,
  requireSecretServerKey,
  requireSuperSecretAdminKey,
  type GatehouseAdminAppOptions,
  type ProjectOwnerSession,
} from './app-options.ts';
import type { CachedRead } from './cache.ts';
import type { ClientCore, TypedRequest } from './core.ts';
import { clientProjectCache } from './client-app.ts';
import { compact, items, query } from './models/common.ts';
import { createAdminProject, type AdminProject } from './models/projects.ts';
import {
  webhookDeliveryFromJson,
  webhookEndpointCreateBody,
  webhookEndpointUpdateBody,
  webhookEndpointFirstViewFromJson,
  webhookEndpointFromJson,
  type WebhookDelivery,
  type WebhookDeliveryFilter,
  type WebhookEndpoint,
  type WebhookEndpointCreateOptions,
  type WebhookEndpointFirstView,
  type WebhookEndpointUpdateOptions,
} from './models/webhooks.ts';
import {
  oauthProviderClientActivityFromJson,
  oauthProviderClientCreateBody,
  oauthProviderClientFirstViewFromJson,
  oauthProviderClientFromJson,
  oauthProviderClientUpdateBody,
  type OAuthProviderClient,
  type OAuthProviderClientActivity,
  type OAuthProviderClientCreateOptions,
  type OAuthProviderClientFirstView,
  type OAuthProviderClientUpdateOptions,
} from './models/oauth-provider-clients.ts';
import {
  oauthProviderSettingsFromJson, oauthProviderSettingsUpdateBody, type OAuthProviderSettings, type OAuthProviderSettingsUpdateOptions,
} from './models/oauth-provider-settings.ts';
import { ownerInvitationFromJson, type OwnerInvitation, type OwnerInvitationCreateOptions } from './models/owner-invitations.ts';
import { connectedAppFromJson, type ConnectedApp } from './models/connected-apps.ts';
import { GatehouseServerApp } from './server-app.ts';
import { auditLogPageFromJson, auditLogQuery, type AuditLogFilter, type AuditLogPage } from './models/audit-log.ts';
import { createActiveSession, type ActiveSession } from './models/sessions.ts';
import { InternalSession } from './session.ts';
import { Result } from './result.ts';
import type {
  AdminProjectJson,
  ApiKeySetCreateBody,
  ApiKeySetFirstViewJson,
  ApiKeySetJson,
  ApiKeySetUpdateBody,
  AuditLogPageJson,
  EmailTemplateJson,
  EmailTemplateUpdateBody,
  EmptyBody,
  ListOf,
  MetricsJson,
  SecuritySettingsJson,
  SecuritySettingsUpdateBody,
  PermissionDefinitionCreateBody,
  PermissionDefinitionJson,
  PermissionDefinitionUpdateBody,
  ProjectUpdateBody,
  SendTestEmailBody,
  SendTestEmailJson,
  SentEmailDetailJson,
  SentEmailJson,
  SessionJson,
  SvixTokenJson,
  WebhookDeliveryJson,
  ProjectOwnerJson,
  OwnerInvitationCreateBody,
  OwnerInvitationJson,
  TeamInvitationSentJson,
  WebhookEndpointCreateBody,
  WebhookEndpointFirstViewJson,
  WebhookEndpointJson,
  WebhookEndpointUpdateBody,
  OAuthProviderClientActivityJson,
  OAuthProviderConnectedAppJson,
  OAuthProviderClientCreateBody,
  OAuthProviderClientFirstViewJson,
  OAuthProviderClientJson,
  OAuthProviderClientUpdateBody,
  OAuthProviderSettingsJson,
  OAuthProviderSettingsUpdateBody,
} from './wire.ts';
import type { EmailTemplateContent } from '../schemas/email-templates.ts';

export type EmailTemplateType = 'email_verification' | 'password_reset' | 'magic_link' | 'team_invitation'
  | 'password_changed' | 'sign_in_email_added' | 'sign_in_email_removed' | 'mfa_disabled' | 'passkey_added' | 'passkey_removed'
  | 'mfa_enabled' | 'otp_disabled' | 'new_device_sign_in';

export interface AdminEmailTemplate {
  readonly type: EmailTemplateType;
  readonly subject: string;
  /** `{html, text}` (shared/src/schemas/email-templates.ts): Gatehouse's own content model, not the SDK's blocks. */
  readonly content: EmailTemplateContent;
  readonly isDefault: boolean;
}

export interface PermissionDefinition {
  readonly id: string;
  readonly description?: string;
  readonly containedPermissionIds: readonly string[];
}
export type PermissionDefinitionCreateOptions = {
  id: string;
  description?: string;
  containedPermissionIds: string[];
  /** Accepted for compatibility; ignored. */
  isDefaultUserPermission?: boolean;
};
export type PermissionDefinitionUpdateOptions = Partial<Omit<PermissionDefinitionCreateOptions, 'isDefaultUserPermission'>>;

export interface InternalApiKey {
  readonly id: string;
  readonly description: string;
  readonly expiresAt: Date;
  readonly manuallyRevokedAt: Date | null;
  readonly createdAt: Date;
  readonly publishableClientKey: { lastFour: string } | null;
  readonly secretServerKey: { lastFour: string } | null;
  readonly superSecretAdminKey: { lastFour: string } | null;
  whyInvalid(): 'expired' | 'manually-revoked' | null;
  isValid(): boolean;
  revoke(): Promise<void>;
}

export interface InternalApiKeyFirstView {
  readonly id: string;
  readonly description: string;
  readonly expiresAt: Date;
  readonly createdAt: Date;
  readonly publishableClientKey?: string;
  readonly secretServerKey?: string;
  readonly superSecretAdminKey?: string;
}

export type InternalApiKeyCreateOptions = {
  description: string;
  expiresAt: Date;
  hasPublishableClientKey: boolean;
  hasSecretServerKey: boolean;
  hasSuperSecretAdminKey: boolean;
};

export interface AdminSentEmail {
  readonly id: string;
  readonly to: string[];
  readonly subject: string;
  readonly recipient: string;
  readonly sentAt: Date;
  readonly error: unknown;
}

/**
 * One sent email with what was sent, as recorded: every one-time code and link token replaced by a placeholder.
 * `html` and `text` are null for mail recorded before copies were kept.
 */
export interface AdminSentEmailDetail extends AdminSentEmail {
  readonly html: string | null;
  readonly text: string | null;
  readonly senderName: string;
  readonly senderEmail: string;
}

/** One owner of the project (an internal-project user; ownership is their `managedProjectIds`). */
export interface ProjectOwner {
  readonly userId: string;
  readonly displayName: string | null;
  readonly primaryEmail: string | null;
  readonly signedUpAt: Date;
}

/** What `GET /internal/metrics` answers (shared/src/schemas/metrics.ts). */
export type AdminMetrics = MetricsJson;

export type TestEmailConfig = { host: string; port: number; username: string; password: string; senderEmail: string; senderName: string; requireTls?: boolean };

export interface AdminAppReads {
  project(): CachedRead<AdminProject>;
  internalApiKeys(): CachedRead<InternalApiKey[]>;
  emailTemplates(): CachedRead<AdminEmailTemplate[]>;
  teamPermissionDefinitions(): CachedRead<PermissionDefinition[]>;
  projectPermissionDefinitions(): CachedRead<PermissionDefinition[]>;
  svixToken(): CachedRead<string>;
  metrics(): CachedRead<AdminMetrics>;
  webhookEndpoints(): CachedRead<WebhookEndpoint[]>;
  /** Gatehouse: the OAuth clients of the project's own OpenID provider (issue 27), oldest first. */
  oauthProviderClients(): CachedRead<OAuthProviderClient[]>;
  /** Gatehouse: the project's owners (internal users whose managedProjectIds list it), oldest first. */
  owners(): CachedRead<ProjectOwner[]>;
  /** Gatehouse: the pending invitations to co-own the project, oldest first. */
  ownerInvitations(): CachedRead<OwnerInvitation[]>;
  securitySettings(): CachedRead<AdminSecuritySettings>;
  /** Gatehouse: the settings of the project's own OpenID provider (its scopes and custom claims among them). */
  oauthProviderSettings(): CachedRead<OAuthProviderSettings>;
}

/**
 * A project's security settings (Gatehouse's own, `/internal/security-settings`): minimum password length, session
 * lifetimes, the notice of a sign-in from a new device.
 */
export type AdminSecuritySettings = {
  readonly newDeviceSignInNoticeEnabled: boolean;
  readonly passwordMinLength: number;
  readonly sessionLifetimeSeconds: number;
  /** null: no idle limit. */
  readonly sessionIdleTimeoutSeconds: number | null;
};

function securitySettingsFromJson(j: SecuritySettingsJson): AdminSecuritySettings {
  return Object.freeze({
    newDeviceSignInNoticeEnabled: j.new_device_sign_in_notice_enabled,
    passwordMinLength: j.password_min_length,
    sessionLifetimeSeconds: j.session_lifetime_seconds,
    sessionIdleTimeoutSeconds: j.session_idle_timeout_seconds,
  });
}

function toSession(owner: ProjectOwnerSession): InternalSession {
  return owner instanceof InternalSession ? owner : owner._internalSession;
}

function permissionDefinition(json: PermissionDefinitionJson): PermissionDefinition {
  return Object.freeze({ id: json.id, description: json.description, containedPermissionIds: json.contained_permission_ids ?? [] });
}

export class GatehouseAdminApp extends GatehouseServerApp {
  constructor(options: GatehouseAdminAppOptions);
  /** @internal */
  constructor(options: GatehouseAdminAppOptions, core: ClientCore);
  constructor(options: GatehouseAdminAppOptions, core?: ClientCore) {
    const projectId = requireProjectId(options.projectId);
    super(
      options as never,
      core ??
        buildCore(
          options as never,
          options.projectOwnerSession
            ? { projectId, projectOwnerSession: toSession(options.projectOwnerSession) }
            : {
                projectId,
                publishableClientKey: requirePublishableKey(options.publishableClientKey),
                secretServerKey: requireSecretServerKey(options.secretServerKey),
                superSecretAdminKey: requireSuperSecretAdminKey(options.superSecretAdminKey),
              },
          options.extraRequestHeaders ?? {},
        ),
    );
  }

  /** An admin call: the answer read as `Res`, the body typed `Body` (wire.ts). */
  #admin<Res = unknown, Body = never>(path: string, init: TypedRequest<Body> = {}): Promise<Res> {
    return this._core.json<Res, Body>(path, init, null, 'admin');
  }

  /** The cache of an admin list (one per name; its element type is the list's). */
  #list<T>(name: string, path: string) {
    return this._core.cache(`admin:${name}`, (_: []) => this.#admin<ListOf<T>>(path).then(items));
  }

  #projectCache() {
    return this._core.cache('admin:project', (_: []) => this.#admin<AdminProjectJson>('/projects/current'));
  }

  readonly adminReads: AdminAppReads = {
    project: () =>
      this.#projectCache().handle([], 'project', (json) => {
        if (json.id !== this.projectId) {
          throw new Error(`The project ID of the provided project JSON (${json.id}) does not match the project ID of the app (${this.projectId})!`);
        }
        return createAdminProject(json, {
          update: async (wire) => {
            await this.#admin<AdminProjectJson, ProjectUpdateBody>('/projects/current', { method: 'PATCH', body: wire });
            await Promise.all([this.#projectCache().refresh([]), clientProjectCache(this._core).refreshWhere(() => true)]);
          },
          delete: async () => {
            await this.#admin('/projects/current', { method: 'DELETE' });
          },
        });
      }),
    internalApiKeys: () => this.#apiKeySets().handle([], 'keys', (l) => l.map((k) => this.#internalApiKey(k))),
    emailTemplates: () =>
      this.#emailTemplates().handle([], 'templates', (l) =>
        l.map((t) => Object.freeze({ type: t.type, subject: t.subject, content: t.content, isDefault: t.is_default })),
      ),
    teamPermissionDefinitions: () => this.#definitions('team').handle([], 'defs', (l) => l.map(permissionDefinition)),
    projectPermissionDefinitions: () => this.#definitions('project').handle([], 'defs', (l) => l.map(permissionDefinition)),
    svixToken: () =>
      this._core
        .cache('admin:svix-token', (_: []) => this.#admin<SvixTokenJson, EmptyBody>('/webhooks/svix-token', { method: 'POST', body: {} }))
        .handle([], 'token', (j) => j.token),
    metrics: () => this._core.cache('admin:metrics', (_: []) => this.#admin<MetricsJson>('/internal/metrics')).handle([], 'metrics'),
    webhookEndpoints: () => this.#webhookEndpoints().handle([], 'endpoints', (l) => l.map(webhookEndpointFromJson)),
    oauthProviderClients: () => this.#oauthProviderClients().handle([], 'oauth-provider-clients', (l) => l.map(oauthProviderClientFromJson)),
    owners: () => this.#owners().handle([], 'owners', (l) => l.map((o) => Object.freeze({
      userId: o.user_id, displayName: o.display_name, primaryEmail: o.primary_email, signedUpAt: new Date(o.signed_up_at_millis),
    }))),
    ownerInvitations: () => this.#ownerInvitations().handle([], 'invitations', (l) => l.map((i) => ownerInvitationFromJson(i, (id) => this.revokeOwnerInvitation(id)))),
    securitySettings: () => this.#securitySettings().handle([], 'settings', securitySettingsFromJson),
    oauthProviderSettings: () => this.#oauthProviderSettings().handle([], 'oauth-provider-settings', oauthProviderSettingsFromJson),
  };

  #oauthProviderSettings = () => this._core.cache('admin:oauth-provider-settings', (_: []) => this.#admin<OAuthProviderSettingsJson>('/oauth-provider/settings'));

  #securitySettings = () => this._core.cache('admin:security-settings', (_: []) => this.#admin<SecuritySettingsJson>('/internal/security-settings'));

  getSecuritySettings = () => this.adminReads.securitySettings().get();

  /** Changes the named settings; the others stay. */
  async updateSecuritySettings(options: Partial<AdminSecuritySettings>): Promise<AdminSecuritySettings> {
    const json = await this.#admin<SecuritySettingsJson, SecuritySettingsUpdateBody>('/internal/security-settings', {
      method: 'PATCH',
      body: compact({
        new_device_sign_in_notice_enabled: options.newDeviceSignInNoticeEnabled,
        password_min_length: options.passwordMinLength,
        session_lifetime_seconds: options.sessionLifetimeSeconds,
        session_idle_timeout_seconds: options.sessionIdleTimeoutSeconds,
      }),
    });
    await this.#securitySettings().refresh([]);
    return securitySettingsFromJson(json);
  }

  #apiKeySets = () => this.#list<ApiKeySetJson>('internal-api-keys', '/internal/api-keys');
  #emailTemplates = () => this.#list<EmailTemplateJson>('email-templates', '/email-templates');
  #definitions = (kind: 'team' | 'project') => this.#list<PermissionDefinitionJson>(`${kind}-permission-definitions`, `/${kind}-permission-definitions`);
  #webhookEndpoints = () => this.#list<WebhookEndpointJson>('webhook-endpoints', '/webhooks/endpoints');
  #oauthProviderClients = () => this.#list<OAuthProviderClientJson>('oauth-provider-clients', '/oauth-provider/clients');
  #owners = () => this.#list<ProjectOwnerJson>('owners', '/internal/owners');

  /** Gatehouse: removes an owner of the project; the service refuses to remove the last one (LAST_PROJECT_OWNER). */
  async removeProjectOwner(userId: string): Promise<void> {
    await this.#admin(`/internal/owners/${encodeURIComponent(userId)}`, { method: 'DELETE' });
    await this.#owners().refresh([]);
  }

  #ownerInvitations = () => this.#list<OwnerInvitationJson>('owner-invitations', '/internal/owner-invitations');

  /** Gatehouse: mails `email` an invitation to co-own the project, a link to `callbackUrl` carrying its code. */
  async inviteProjectOwner(options: OwnerInvitationCreateOptions): Promise<void> {
    await this.#admin<TeamInvitationSentJson, OwnerInvitationCreateBody>('/internal/owner-invitations', {
      method: 'POST', body: { email: options.email, callback_url: options.callbackUrl },
    });
    await this.#ownerInvitations().refresh([]);
  }

  listOwnerInvitations = () => this.adminReads.ownerInvitations().get();

  /** Gatehouse: revokes a pending owner invitation (VERIFICATION_CODE_NOT_FOUND once used or revoked). */
  async revokeOwnerInvitation(id: string): Promise<void> {
    await this.#admin(`/internal/owner-invitations/${encodeURIComponent(id)}`, { method: 'DELETE' });
    await this.#ownerInvitations().refresh([]);
  }

  #internalApiKey(json: ApiKeySetJson): InternalApiKey {
    const expiresAt = new Date(json.expires_at_millis);
    const manuallyRevokedAt = json.manually_revoked_at_millis ? new Date(json.manually_revoked_at_millis) : null;
    const whyInvalid = () => (expiresAt.getTime() < Date.now() ? 'expired' : manuallyRevokedAt ? 'manually-revoked' : null) as
      | 'expired'
      | 'manually-revoked'
      | null;
    const lastFour = (k: { last_four: string } | undefined) => (k ? { lastFour: k.last_four } : null);
    return Object.freeze({
      id: json.id,
      description: json.description,
      expiresAt,
      manuallyRevokedAt,
      createdAt: new Date(json.created_at_millis),
      publishableClientKey: lastFour(json.publishable_client_key),
      secretServerKey: lastFour(json.secret_server_key),
      superSecretAdminKey: lastFour(json.super_secret_admin_key),
      whyInvalid,
      isValid: () => whyInvalid() === null,
      revoke: async () => {
        await this.#admin<ApiKeySetJson, ApiKeySetUpdateBody>(`/internal/api-keys/${json.id}`, { method: 'PATCH', body: { revoked: true } });
        await this.#apiKeySets().refresh([]);
      },
    });
  }

  override async getProject(): Promise<AdminProject> {
    return this.adminReads.project().get();
  }

  /**
   * A user's active sessions as the admin API lists them: impersonation sessions included (protocol-auth §2.8;
   * the user's `getActiveSessions()` uses server access, which hides them). Gatehouse extension for the console.
   */
  async listUserSessions(userId: string): Promise<ActiveSession[]> {
    return items(await this.#admin<ListOf<SessionJson>>(`/auth/sessions?user_id=${encodeURIComponent(userId)}`)).map(createActiveSession);
  }

  async listInternalApiKeys(): Promise<InternalApiKey[]> {
    return this.adminReads.internalApiKeys().get();
  }

  async createInternalApiKey(options: InternalApiKeyCreateOptions): Promise<InternalApiKeyFirstView> {
    const json = await this.#admin<ApiKeySetFirstViewJson, ApiKeySetCreateBody>('/internal/api-keys', {
      method: 'POST',
      body: {
        description: options.description,
        expires_at_millis: options.expiresAt.getTime(),
        has_publishable_client_key: options.hasPublishableClientKey,
        has_secret_server_key: options.hasSecretServerKey,
        has_super_secret_admin_key: options.hasSuperSecretAdminKey,
      },
    });
    await this.#apiKeySets().refresh([]);
    return Object.freeze({
      id: json.id,
      description: json.description,
      expiresAt: new Date(json.expires_at_millis),
      createdAt: new Date(json.created_at_millis),
      publishableClientKey: json.publishable_client_key,
      secretServerKey: json.secret_server_key,
      superSecretAdminKey: json.super_secret_admin_key,
    });
  }

  async listEmailTemplates(): Promise<AdminEmailTemplate[]> {
    return this.adminReads.emailTemplates().get();
  }

  async updateEmailTemplate(type: EmailTemplateType, data: { subject?: string; content?: unknown }): Promise<void> {
    await this.#admin<EmailTemplateJson, EmailTemplateUpdateBody>(`/email-templates/${type}`, { method: 'PATCH', body: compact({ subject: data.subject, content: data.content }) });
    await this.#emailTemplates().refresh([]);
  }

  async resetEmailTemplate(type: EmailTemplateType): Promise<void> {
    await this.#admin(`/email-templates/${type}`, { method: 'DELETE' });
    await this.#emailTemplates().refresh([]);
  }

  async #createDefinition(kind: 'team' | 'project', o: PermissionDefinitionCreateOptions): Promise<PermissionDefinition> {
    const json = await this.#admin<PermissionDefinitionJson, PermissionDefinitionCreateBody>(`/${kind}-permission-definitions`, {
      method: 'POST',
      body: compact({ id: o.id, description: o.description, contained_permission_ids: o.containedPermissionIds }),
    });
    await this.#definitions(kind).refresh([]);
    return permissionDefinition(json);
  }

  async #updateDefinition(kind: 'team' | 'project', id: string, o: PermissionDefinitionUpdateOptions): Promise<void> {
    await this.#admin<PermissionDefinitionJson, PermissionDefinitionUpdateBody>(`/${kind}-permission-definitions/${encodeURIComponent(id)}`, {
      method: 'PATCH',
      body: compact({ id: o.id, description: o.description, contained_permission_ids: o.containedPermissionIds }),
    });
    await this.#definitions(kind).refresh([]);
  }

  async #deleteDefinition(kind: 'team' | 'project', id: string): Promise<void> {
    await this.#admin(`/${kind}-permission-definitions/${encodeURIComponent(id)}`, { method: 'DELETE' });
    await this.#definitions(kind).refresh([]);
  }

  listTeamPermissionDefinitions = () => this.adminReads.teamPermissionDefinitions().get();
  createTeamPermissionDefinition = (o: PermissionDefinitionCreateOptions) => this.#createDefinition('team', o);
  updateTeamPermissionDefinition = (id: string, o: PermissionDefinitionUpdateOptions) => this.#updateDefinition('team', id, o);
  deleteTeamPermissionDefinition = (id: string) => this.#deleteDefinition('team', id);
  listProjectPermissionDefinitions = () => this.adminReads.projectPermissionDefinitions().get();
  createProjectPermissionDefinition = (o: PermissionDefinitionCreateOptions) => this.#createDefinition('project', o);
  updateProjectPermissionDefinition = (id: string, o: PermissionDefinitionUpdateOptions) => this.#updateDefinition('project', id, o);
  deleteProjectPermissionDefinition = (id: string) => this.#deleteDefinition('project', id);

  async sendTestEmail(options: { recipientEmail: string; emailConfig: TestEmailConfig }): Promise<Result<undefined, { errorMessage: string }>> {
    const c = options.emailConfig;
    const json = await this.#admin<SendTestEmailJson, SendTestEmailBody>('/internal/send-test-email', {
      method: 'POST',
      body: {
        recipient_email: options.recipientEmail,
        email_config: { host: c.host, port: c.port, username: c.username, password: c.password, sender_email: c.senderEmail, sender_name: c.senderName, ...(c.requireTls !== undefined ? { require_tls: c.requireTls } : {}) },
      },
    });
    if (json.success) return Result.ok(undefined);
    if (!json.error_message) throw new Error('Email test error not specified');
    return Result.error({ errorMessage: json.error_message });
  }

  // Webhooks: Gatehouse's own endpoint API (the SDK's Svix token call is answered with a pointer to it).
  listWebhookEndpoints = () => this.adminReads.webhookEndpoints().get();

  async createWebhookEndpoint(options: WebhookEndpointCreateOptions): Promise<WebhookEndpointFirstView> {
    const json = await this.#admin<WebhookEndpointFirstViewJson, WebhookEndpointCreateBody>('/webhooks/endpoints', {
      method: 'POST',
      body: webhookEndpointCreateBody(options),
    });
    await this.#webhookEndpoints().refresh([]);
    return webhookEndpointFirstViewFromJson(json);
  }

  async updateWebhookEndpoint(id: string, options: WebhookEndpointUpdateOptions): Promise<WebhookEndpoint> {
    const json = await this.#admin<WebhookEndpointJson, WebhookEndpointUpdateBody>(`/webhooks/endpoints/${encodeURIComponent(id)}`, {
      method: 'PATCH',
      body: webhookEndpointUpdateBody(options),
    });
    await this.#webhookEndpoints().refresh([]);
    return webhookEndpointFromJson(json);
  }

  // The project's own OpenID provider (issue 27): its OAuth clients. A confidential client's secret is in the
  // create answer only.
  listOAuthProviderClients = () => this.adminReads.oauthProviderClients().get();

  async createOAuthProviderClient(options: OAuthProviderClientCreateOptions): Promise<OAuthProviderClientFirstView> {
    const json = await this.#admin<OAuthProviderClientFirstViewJson, OAuthProviderClientCreateBody>('/oauth-provider/clients', {
      method: 'POST', body: oauthProviderClientCreateBody(options),
    });
    await this.#oauthProviderClients().refresh([]);
    return oauthProviderClientFirstViewFromJson(json);
  }

  async updateOAuthProviderClient(clientId: string, options: OAuthProviderClientUpdateOptions): Promise<OAuthProviderClient> {
    const json = await this.#admin<OAuthProviderClientJson, OAuthProviderClientUpdateBody>(`/oauth-provider/clients/${encodeURIComponent(clientId)}`, {
      method: 'PATCH', body: oauthProviderClientUpdateBody(options),
    });
    await this.#oauthProviderClients().refresh([]);
    return oauthProviderClientFromJson(json);
  }

  /** The client's consents and token activity (not cached: it changes as the client is used). */
  async getOAuthProviderClientActivity(clientId: string): Promise<OAuthProviderClientActivity> {
    return oauthProviderClientActivityFromJson(await this.#admin<OAuthProviderClientActivityJson>(`/oauth-provider/clients/${encodeURIComponent(clientId)}/activity`));
  }

  /** Dynamic client registration and the protected resources of the project's OpenID provider. */
  getOAuthProviderSettings(): Promise<OAuthProviderSettings> {
    return this.adminReads.oauthProviderSettings().get();
  }

  async updateOAuthProviderSettings(options: OAuthProviderSettingsUpdateOptions): Promise<OAuthProviderSettings> {
    const json = await this.#admin<OAuthProviderSettingsJson, OAuthProviderSettingsUpdateBody>('/oauth-provider/settings', {
      method: 'PATCH', body: oauthProviderSettingsUpdateBody(options),
    });
    await this.#oauthProviderSettings().refresh([]);
    return oauthProviderSettingsFromJson(json);
  }

  async deleteOAuthProviderClient(clientId: string): Promise<void> {
    await this.#admin(`/oauth-provider/clients/${encodeURIComponent(clientId)}`, { method: 'DELETE' });
    await this.#oauthProviderClients().refresh([]);
  }

  /** The applications a user consented to (GET /oauth-provider/consents?user_id=), oldest consent first. */
  async listOAuthProviderConsents(userId: string): Promise<ConnectedApp[]> {
    const json = await this.#admin<ListOf<OAuthProviderConnectedAppJson>>(`/oauth-provider/consents?user_id=${encodeURIComponent(userId)}`);
    return items(json).map(connectedAppFromJson);
  }

  /** Revokes a user's consent to an application, with the grants and tokens it holds for them. */
  async revokeOAuthProviderConsent(userId: string, clientId: string): Promise<void> {
    await this.#admin(`/oauth-provider/consents/${encodeURIComponent(clientId)}?user_id=${encodeURIComponent(userId)}`, { method: 'DELETE' });
  }

  async deleteWebhookEndpoint(id: string): Promise<void> {
    await this.#admin(`/webhooks/endpoints/${encodeURIComponent(id)}`, { method: 'DELETE' });
    await this.#webhookEndpoints().refresh([]);
  }

  /**
   * The endpoint's recent deliveries, newest first, of one event type and/or status when asked (not cached: their
   * state changes as the worker goes).
   */
  async listWebhookDeliveries(endpointId: string, filter: WebhookDeliveryFilter = {}): Promise<WebhookDelivery[]> {
    const path = `/webhooks/endpoints/${encodeURIComponent(endpointId)}/deliveries${query({ event_type: filter.eventType, status: filter.status })}`;
    return items(await this.#admin<ListOf<WebhookDeliveryJson>>(path)).map(webhookDeliveryFromJson);
  }

  /** Queues a signed `webhook.test` event for this endpoint alone. */
  async sendTestWebhookEvent(endpointId: string): Promise<WebhookDelivery> {
    const path = `/webhooks/endpoints/${encodeURIComponent(endpointId)}/test`;
    return webhookDeliveryFromJson(await this.#admin<WebhookDeliveryJson, EmptyBody>(path, { method: 'POST', body: {} }));
  }

  /** Attempts a delivery now (a pending one without waiting, a failed or delivered one once more). */
  async retryWebhookDelivery(endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
    const path = `/webhooks/endpoints/${encodeURIComponent(endpointId)}/deliveries/${encodeURIComponent(deliveryId)}/retry`;
    return webhookDeliveryFromJson(await this.#admin<WebhookDeliveryJson, EmptyBody>(path, { method: 'POST', body: {} }));
  }

  /**
   * A page of the project's audit log (GET /internal/audit-log), newest first: owner-plane actions and the project
   * users' security events, filtered by kind, user and time (not cached: the log grows as the project is used).
   */
  async listAuditLog(filter: AuditLogFilter = {}): Promise<AuditLogPage> {
    return auditLogPageFromJson(await this.#admin<AuditLogPageJson>(`/internal/audit-log${auditLogQuery(filter)}`));
  }

  async listSentEmails(): Promise<AdminSentEmail[]> {
    return items(await this.#admin<ListOf<SentEmailJson>>('/internal/emails')).map((e) => Object.freeze(sentEmailFromJson(e)));
  }

  /** GET /internal/emails/{id}: the entry and its recorded (redacted) HTML and text. */
  async getSentEmail(id: string): Promise<AdminSentEmailDetail> {
    const e = await this.#admin<SentEmailDetailJson>(`/internal/emails/${encodeURIComponent(id)}`);
    return Object.freeze({
      ...sentEmailFromJson(e), html: e.html, text: e.text, senderName: e.sender_config.sender_name, senderEmail: e.sender_config.sender_email,
    });
  }
}

function sentEmailFromJson(e: SentEmailJson): AdminSentEmail {
  return { id: e.id, to: e.to ?? [], subject: e.subject, recipient: e.to?.[0] ?? '', sentAt: new Date(e.sent_at_millis), error: e.error };
}

/**
 * The admin app of a project its owner lists (models/owned-projects.ts loads this module for it). It behaves like the
 * app it came from: same transport, clock, logging, extra headers, redirects and MFA prompt; only the credentials
 * differ (the owner's session instead of keys).
 */
export function ownedProjectApp(core: ClientCore, projectId: string, ownerSession: InternalSession): GatehouseAdminApp {
  return new GatehouseAdminApp({
    projectId,
    baseUrl: core.api.baseUrl,
    tokenStore: null,
    projectOwnerSession: ownerSession,
    fetch: core.api.options.fetch,
    timers: core.timers,
    browser: core.browser,
    logger: core.api.options.logger,
    extraRequestHeaders: core.api.options.extraRequestHeaders,
    redirectMethod: core.redirector.method,
    mfaPrompt: core.options.mfaPrompt,
  });
}

export const StackAdminApp = GatehouseAdminApp;
/** The SDK's generics (`StackAdminApp<HasTokenStore, ProjectId>`), accepted for code written against its types. */
export type StackAdminApp<HasTokenStore extends boolean = boolean, ProjectId extends string = string> = GatehouseAdminApp & { readonly __hasTokenStore?: HasTokenStore; readonly __projectId?: ProjectId };
