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
import type { ClientCore } from './core.ts';
import { compact, items } from './models/common.ts';
import {
  createAdminProject,
  registerOwnedProjectAppFactory,
  type AdminProject,
} from './models/projects.ts';
import {
  webhookDeliveryFromJson,
  webhookEndpointBody,
  webhookEndpointFirstViewFromJson,
  webhookEndpointFromJson,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointCreateOptions,
  type WebhookEndpointFirstView,
  type WebhookEndpointUpdateOptions,
} from './models/webhooks.ts';
import { GatehouseServerApp } from './server-app.ts';
import { createActiveSession, type ActiveSession } from './models/sessions.ts';
import { InternalSession } from './session.ts';
import { Result } from './result.ts';

export type EmailTemplateType = 'email_verification' | 'password_reset' | 'magic_link' | 'team_invitation'
  | 'password_changed' | 'sign_in_email_added' | 'sign_in_email_removed' | 'mfa_disabled' | 'passkey_added' | 'passkey_removed';

export interface AdminEmailTemplate {
  readonly type: EmailTemplateType;
  readonly subject: string;
  readonly content: any;
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

export type TestEmailConfig = { host: string; port: number; username: string; password: string; senderEmail: string; senderName: string };

export interface AdminAppReads {
  project(): CachedRead<AdminProject>;
  internalApiKeys(): CachedRead<InternalApiKey[]>;
  emailTemplates(): CachedRead<AdminEmailTemplate[]>;
  teamPermissionDefinitions(): CachedRead<PermissionDefinition[]>;
  projectPermissionDefinitions(): CachedRead<PermissionDefinition[]>;
  svixToken(): CachedRead<string>;
  metrics(): CachedRead<any>;
  webhookEndpoints(): CachedRead<WebhookEndpoint[]>;
}

function toSession(owner: ProjectOwnerSession): InternalSession {
  return owner instanceof InternalSession ? owner : owner._internalSession;
}

function permissionDefinition(json: any): PermissionDefinition {
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

  #admin<T = any>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
    return this._core.json<T>(path, init, null, 'admin');
  }

  #list(name: string, path: string) {
    return this._core.cache<[]>(`admin:${name}`, () => this.#admin(path).then(items));
  }

  readonly adminReads: AdminAppReads = {
    project: () =>
      this._core.cache<[]>('admin:project', () => this.#admin('/projects/current')).handle([], 'project', (json: any) => {
        if (json.id !== this.projectId) {
          throw new Error(`The project ID of the provided project JSON (${json.id}) does not match the project ID of the app (${this.projectId})!`);
        }
        return createAdminProject(json, {
          update: async (wire) => {
            await this.#admin('/projects/current', { method: 'PATCH', body: wire });
            await Promise.all([
              this._core.cache<[]>('admin:project', () => this.#admin('/projects/current')).refresh([]),
              this._core.cache<[]>('project', () => this._core.json('/projects/current', {}, null, 'client')).refreshWhere(() => true),
            ]);
          },
          delete: async () => {
            await this.#admin('/projects/current', { method: 'DELETE' });
          },
        });
      }),
    internalApiKeys: () => this.#list('internal-api-keys', '/internal/api-keys').handle([], 'keys', (l: any[]) => l.map((k) => this.#internalApiKey(k))),
    emailTemplates: () =>
      this.#list('email-templates', '/email-templates').handle([], 'templates', (l: any[]) =>
        l.map((t) => Object.freeze({ type: t.type, subject: t.subject, content: t.content, isDefault: t.is_default })),
      ),
    teamPermissionDefinitions: () =>
      this.#list('team-permission-definitions', '/team-permission-definitions').handle([], 'defs', (l: any[]) => l.map(permissionDefinition)),
    projectPermissionDefinitions: () =>
      this.#list('project-permission-definitions', '/project-permission-definitions').handle([], 'defs', (l: any[]) => l.map(permissionDefinition)),
    svixToken: () =>
      this._core.cache<[]>('admin:svix-token', () => this.#admin('/webhooks/svix-token', { method: 'POST', body: {} })).handle([], 'token', (j: any) => j.token as string),
    metrics: () => this._core.cache<[]>('admin:metrics', () => this.#admin('/internal/metrics')).handle([], 'metrics'),
    webhookEndpoints: () => this.#list('webhook-endpoints', '/webhooks/endpoints').handle([], 'endpoints', (l: any[]) => l.map(webhookEndpointFromJson)),
  };

  #internalApiKey(json: any): InternalApiKey {
    const expiresAt = new Date(json.expires_at_millis);
    const manuallyRevokedAt = json.manually_revoked_at_millis ? new Date(json.manually_revoked_at_millis) : null;
    const whyInvalid = () => (expiresAt.getTime() < Date.now() ? 'expired' : manuallyRevokedAt ? 'manually-revoked' : null) as
      | 'expired'
      | 'manually-revoked'
      | null;
    const lastFour = (k: any) => (k ? { lastFour: k.last_four as string } : null);
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
        await this.#admin(`/internal/api-keys/${json.id}`, { method: 'PATCH', body: { revoked: true } });
        await this.#list('internal-api-keys', '/internal/api-keys').refresh([]);
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
    return items(await this.#admin(`/auth/sessions?user_id=${encodeURIComponent(userId)}`)).map(createActiveSession);
  }

  async listInternalApiKeys(): Promise<InternalApiKey[]> {
    return this.adminReads.internalApiKeys().get();
  }

  async createInternalApiKey(options: InternalApiKeyCreateOptions): Promise<InternalApiKeyFirstView> {
    const json = await this.#admin('/internal/api-keys', {
      method: 'POST',
      body: {
        description: options.description,
        expires_at_millis: options.expiresAt.getTime(),
        has_publishable_client_key: options.hasPublishableClientKey,
        has_secret_server_key: options.hasSecretServerKey,
        has_super_secret_admin_key: options.hasSuperSecretAdminKey,
      },
    });
    await this.#list('internal-api-keys', '/internal/api-keys').refresh([]);
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
    await this.#admin(`/email-templates/${type}`, { method: 'PATCH', body: compact({ subject: data.subject, content: data.content }) });
    await this.#list('email-templates', '/email-templates').refresh([]);
  }

  async resetEmailTemplate(type: EmailTemplateType): Promise<void> {
    await this.#admin(`/email-templates/${type}`, { method: 'DELETE' });
    await this.#list('email-templates', '/email-templates').refresh([]);
  }

  async #createDefinition(kind: 'team' | 'project', o: PermissionDefinitionCreateOptions): Promise<PermissionDefinition> {
    const json = await this.#admin(`/${kind}-permission-definitions`, {
      method: 'POST',
      body: compact({ id: o.id, description: o.description, contained_permission_ids: o.containedPermissionIds }),
    });
    await this.#list(`${kind}-permission-definitions`, `/${kind}-permission-definitions`).refresh([]);
    return permissionDefinition(json);
  }

  async #updateDefinition(kind: 'team' | 'project', id: string, o: PermissionDefinitionUpdateOptions): Promise<void> {
    await this.#admin(`/${kind}-permission-definitions/${encodeURIComponent(id)}`, {
      method: 'PATCH',
      body: compact({ id: o.id, description: o.description, contained_permission_ids: o.containedPermissionIds }),
    });
    await this.#list(`${kind}-permission-definitions`, `/${kind}-permission-definitions`).refresh([]);
  }

  async #deleteDefinition(kind: 'team' | 'project', id: string): Promise<void> {
    await this.#admin(`/${kind}-permission-definitions/${encodeURIComponent(id)}`, { method: 'DELETE' });
    await this.#list(`${kind}-permission-definitions`, `/${kind}-permission-definitions`).refresh([]);
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
    const json = await this.#admin('/internal/send-test-email', {
      method: 'POST',
      body: {
        recipient_email: options.recipientEmail,
        email_config: { host: c.host, port: c.port, username: c.username, password: c.password, sender_email: c.senderEmail, sender_name: c.senderName },
      },
    });
    if (json.success) return Result.ok(undefined);
    if (!json.error_message) throw new Error('Email test error not specified');
    return Result.error({ errorMessage: json.error_message });
  }

  // Webhooks: Gatehouse's own endpoint API (the SDK's Svix token call is answered with a pointer to it).
  listWebhookEndpoints = () => this.adminReads.webhookEndpoints().get();

  async createWebhookEndpoint(options: WebhookEndpointCreateOptions): Promise<WebhookEndpointFirstView> {
    const json = await this.#admin('/webhooks/endpoints', { method: 'POST', body: webhookEndpointBody(options) });
    await this.#list('webhook-endpoints', '/webhooks/endpoints').refresh([]);
    return webhookEndpointFirstViewFromJson(json);
  }

  async updateWebhookEndpoint(id: string, options: WebhookEndpointUpdateOptions): Promise<WebhookEndpoint> {
    const json = await this.#admin(`/webhooks/endpoints/${encodeURIComponent(id)}`, { method: 'PATCH', body: webhookEndpointBody(options) });
    await this.#list('webhook-endpoints', '/webhooks/endpoints').refresh([]);
    return webhookEndpointFromJson(json);
  }

  async deleteWebhookEndpoint(id: string): Promise<void> {
    await this.#admin(`/webhooks/endpoints/${encodeURIComponent(id)}`, { method: 'DELETE' });
    await this.#list('webhook-endpoints', '/webhooks/endpoints').refresh([]);
  }

  /** The endpoint's recent deliveries, newest first (not cached: their state changes as the worker goes). */
  async listWebhookDeliveries(endpointId: string): Promise<WebhookDelivery[]> {
    return items(await this.#admin(`/webhooks/endpoints/${encodeURIComponent(endpointId)}/deliveries`)).map(webhookDeliveryFromJson);
  }

  /** Queues a signed `webhook.test` event for this endpoint alone. */
  async sendTestWebhookEvent(endpointId: string): Promise<WebhookDelivery> {
    return webhookDeliveryFromJson(await this.#admin(`/webhooks/endpoints/${encodeURIComponent(endpointId)}/test`, { method: 'POST', body: {} }));
  }

  /** Attempts a delivery now (a pending one without waiting, a failed or delivered one once more). */
  async retryWebhookDelivery(endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
    const path = `/webhooks/endpoints/${encodeURIComponent(endpointId)}/deliveries/${encodeURIComponent(deliveryId)}/retry`;
    return webhookDeliveryFromJson(await this.#admin(path, { method: 'POST', body: {} }));
  }

  async listSentEmails(): Promise<AdminSentEmail[]> {
    return items(await this.#admin('/internal/emails')).map((e) =>
      Object.freeze({
        id: e.id,
        to: e.to ?? [],
        subject: e.subject,
        recipient: e.to?.[0] ?? '',
        sentAt: new Date(e.sent_at_millis),
        error: e.error,
      }),
    );
  }
}

// An owned project's app behaves like the app it came from: same transport, clock, logging, extra headers,
// redirects and MFA prompt; only the credentials differ (the owner's session instead of keys).
registerOwnedProjectAppFactory((core, projectId, ownerSession) =>
  new GatehouseAdminApp({
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
  }),
);

export const StackAdminApp = GatehouseAdminApp;
/** The SDK's generics (`StackAdminApp<HasTokenStore, ProjectId>`), accepted for code written against its types. */
export type StackAdminApp<HasTokenStore extends boolean = boolean, ProjectId extends string = string> = GatehouseAdminApp & { readonly __hasTokenStore?: HasTokenStore; readonly __projectId?: ProjectId };
