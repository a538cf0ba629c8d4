// Public API of the Gatehouse client library (framework-agnostic; browsers, Bun, Node ≥ 20).
export { GatehouseClientApp, StackClientApp, stackAppInternalsSymbol } from './client-app.ts';
export type { GetUserOptions, GetUserOr, ClientAppReads, SessionUser } from './client-app.ts';
export { GatehouseServerApp, StackServerApp } from './server-app.ts';
export type { ServerUserList, ServerAppReads } from './server-app.ts';
export { GatehouseAdminApp, StackAdminApp } from './admin-app.ts';
export type {
  AdminAppReads,
  AdminEmailTemplate,
  AdminSentEmail,
  AdminSentEmailDetail,
  EmailTemplateType,
  InternalApiKey,
  InternalApiKeyCreateOptions,
  InternalApiKeyFirstView,
  PermissionDefinition,
  PermissionDefinitionCreateOptions,
  PermissionDefinitionUpdateOptions,
  TestEmailConfig,
  AdminMetrics,
  ProjectOwner,
  AdminSecuritySettings,
} from './admin-app.ts';
export type { AuditLogEntry, AuditLogFilter, AuditLogPage, AuditActorKind } from './models/audit-log.ts';
export type { ScimGroup, ScimToken, SsoConnection, SsoConnectionOptions, TeamDomain, TeamEnterprise } from './models/team-enterprise.ts';
export type { OwnerInvitation, OwnerInvitationCreateOptions, OwnerInvitationDetails } from './models/owner-invitations.ts';
export type {
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookDeliveryFilter,
  WebhookEndpoint,
  WebhookEndpointCreateOptions,
  WebhookEndpointFirstView,
  WebhookEndpointUpdateOptions,
} from './models/webhooks.ts';
export type {
  OAuthProviderClient,
  OAuthProviderClientActivity,
  OAuthProviderClientCreateOptions,
  OAuthProviderClientFirstView,
  OAuthProviderClientType,
  OAuthProviderClientUpdateOptions,
  OAuthProviderGrantType,
  OAuthProviderScope,
} from './models/oauth-provider-clients.ts';
export type { OAuthProviderClaimMapping, OAuthProviderProjectScope, OAuthProviderSettings, OAuthProviderSettingsUpdateOptions } from './models/oauth-provider-settings.ts';
export type { ConnectedApp } from './models/connected-apps.ts';
export type {
  GatehouseAdminAppOptions,
  GatehouseClientAppOptions,
  GatehouseServerAppOptions,
  ProjectOwnerSession,
} from './app-options.ts';

export { Result } from './result.ts';
export { projectExists } from './project-probe.ts';
export { NetworkError, HttpError, type AccessType, type FetchLike, type Logger } from './api-client.ts';
export type { CachedRead, CacheSnapshot } from './cache.ts';
export { AsyncCache } from './cache.ts';
export { cachedReadsSymbol } from './models/common.ts';
export type { ReadonlyJson, Json } from './models/common.ts';
export type { ClientTimers } from './timers.ts';
export type { BrowserEnvironment, BrowserLocation } from './environment.ts';
export type { CookieAdapter } from './cookies.ts';
export type { MfaPrompt, MfaPromptInfo } from './core.ts';
export type { WebAuthnCeremonies, PasskeyRegistrationResult } from './passkey.ts';
export type { HandlerUrls, RedirectMethod, RedirectToOptions } from './redirects.ts';
export { InternalSession } from './session.ts';
export {
  TokenStore,
  type TokenPair,
  type TokenStoreInit,
  type RequestLike,
  type ExplicitTokens,
  type CookieAdapterTokenStore,
} from './token-store.ts';
export { getJwtExpiresAt, decodeJwtPayload } from './jwt.ts';

export type { BaseUser, Auth, AuthTokens, UserUpdateOptions, UserJson, OAuthProviderLink } from './models/user-base.ts';
export type { CurrentUser, CurrentInternalUser, ManagingOrganization, Permission, UserExtra, InternalUserExtra, CurrentUserReads } from './models/current-user.ts';
export type {
  ServerUser,
  CurrentServerUser,
  ServerUserUpdateOptions,
  ServerUserCreateOptions,
  ListUsersOptions,
  UserFilterOptions,
  ServerUserReads,
  CurrentInternalServerUser,
  CurrentServerUserReads,
} from './models/server-user.ts';
export type {
  Team,
  ServerTeam,
  TeamUser,
  ServerTeamUser,
  TeamInvitation,
  TeamMemberProfile,
  EditableTeamMemberProfile,
  TeamUpdateOptions,
  ServerTeamUpdateOptions,
} from './models/teams.ts';
export type {
  ContactChannel,
  ServerContactChannel,
  ContactChannelCreateOptions,
  ServerContactChannelCreateOptions,
  ContactChannelUpdateOptions,
  ServerContactChannelUpdateOptions,
} from './models/contact-channels.ts';
export type { ActiveSession, GeoInfo } from './models/sessions.ts';
export type {
  ApiKey,
  UserApiKey,
  UserApiKeyFirstView,
  TeamApiKey,
  TeamApiKeyFirstView,
  ApiKeyCreateOptions,
  ApiKeyUpdateOptions,
} from './models/api-keys.ts';
export type {
  Project,
  ProjectConfig,
  AdminProject,
  AdminOwnedProject,
  AdminProjectConfig,
  AdminProjectUpdateOptions,
  AdminProjectCreateOptions,
  AdminProjectConfigUpdateOptions,
  AdminOAuthProviderConfig,
  AdminEmailConfig,
  AdminDomainConfig,
  OAuthProviderId,
} from './models/projects.ts';
export type { OAuthConnection, GetConnectedAccountOptions } from './models/connected-accounts.ts';
