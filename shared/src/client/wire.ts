// What the client library sends and reads, as the service's schemas (shared/src/schemas) declare it: a field renamed or
// retyped there stops this library from compiling. Types only, so the schema builders stay out of browser bundles.
// Each request names its body type and its answer's type here (ClientCore.json: a body whose type is not given does
// not compile).
import type { Static } from '@sinclair/typebox';
import type * as apiKeySets from '../schemas/api-keys.ts';
import type * as auditLog from '../schemas/audit-log.ts';
import type * as auth from '../schemas/auth.ts';
import type * as channels from '../schemas/contact-channels.ts';
import type * as common from '../schemas/common.ts';
import type * as emails from '../schemas/emails.ts';
import type * as emailTemplates from '../schemas/email-templates.ts';
import type * as invitations from '../schemas/invitations.ts';
import type * as members from '../schemas/team-members.ts';
import type * as metrics from '../schemas/metrics.ts';
import type * as mfa from '../schemas/mfa.ts';
import type * as oauth from '../schemas/oauth.ts';
import type * as passkeys from '../schemas/passkeys.ts';
import type * as permissions from '../schemas/permissions.ts';
import type * as projects from '../schemas/projects.ts';
import type * as sessions from '../schemas/sessions.ts';
import type * as securitySettings from '../schemas/security-settings.ts';
import type * as userExport from '../schemas/user-export.ts';
import type * as teams from '../schemas/teams.ts';
import type * as teamEnterprise from '../schemas/team-enterprise.ts';
import type * as userApiKeys from '../schemas/user-api-keys.ts';
import type * as users from '../schemas/users.ts';
import type * as webhooks from '../schemas/webhooks.ts';
import type * as owners from '../schemas/project-owners.ts';
import type * as oauthProvider from '../schemas/oauth-provider.ts';

/** A list answer (`{items, is_paginated: false}`). */
export type ListOf<T> = { items: T[]; is_paginated: false };

// ── Common ──
export type SuccessJson = Static<typeof common.Success>;
/** `{}`: the body of calls that take nothing (the service also accepts none). */
export type EmptyBody = Static<typeof common.Empty>;

// ── Sign-in flows ──
export type SignInTokensJson = Static<typeof auth.SignInTokens>;
export type SignInTokensWithNewUserJson = Static<typeof mfa.SignInTokensWithNewUser>;
export type PasswordSignInBody = Static<typeof auth.PasswordSignInBody>;
export type PasswordSignUpBody = Static<typeof auth.PasswordSignUpBody>;
export type PasswordUpdateBody = Static<typeof auth.PasswordUpdateBody>;
export type PasswordSetBody = Static<typeof auth.PasswordSetBody>;
export type PasswordResetSendBody = Static<typeof auth.PasswordResetSendBody>;
export type PasswordResetSentJson = Static<typeof auth.PasswordResetSent>;
export type PasswordResetBody = Static<typeof auth.PasswordResetBody>;
export type OtpSendBody = Static<typeof auth.OtpSendBody>;
export type OtpNonceJson = Static<typeof auth.OtpNonce>;
export type SsoDiscoveryJson = Static<typeof teamEnterprise.SsoDiscovery>;
export type SsoStatusJson = Static<typeof teamEnterprise.SsoStatus>;
export type TeamDomainJson = Static<typeof teamEnterprise.TeamDomain>;
export type TeamDomainCreateBody = Static<typeof teamEnterprise.TeamDomainCreate>;
export type TeamDomainUpdateBody = Static<typeof teamEnterprise.TeamDomainUpdate>;
export type SsoConnectionJson = Static<typeof teamEnterprise.SsoConnection>;
export type SsoConnectionCreateBody = Static<typeof teamEnterprise.SsoConnectionCreate>;
export type SsoConnectionUpdateBody = Static<typeof teamEnterprise.SsoConnectionUpdate>;
export type SsoConnectionTestJson = Static<typeof teamEnterprise.SsoConnectionTest>;
export type ScimTokenJson = Static<typeof teamEnterprise.ScimToken>;
export type ScimTokenFirstViewJson = Static<typeof teamEnterprise.ScimTokenFirstView>;
export type ScimTokenCreateBody = Static<typeof teamEnterprise.ScimTokenCreate>;
export type ScimGroupJson = Static<typeof teamEnterprise.ScimGroup>;
export type ScimGroupUpdateBody = Static<typeof teamEnterprise.ScimGroupUpdate>;
export type ScimGroupCreateBody = Static<typeof teamEnterprise.ScimGroupCreate>;
export type ManagingOrganizationJson = Static<typeof teamEnterprise.ManagingOrganization>;
export type CodeBody = Static<typeof channels.CodeBody>;
export type IsCodeValidJson = Static<typeof channels.IsCodeValid>;
export type MfaSignInBody = Static<typeof mfa.MfaSignInRequest>;
export type PasskeyOptionsJson = Static<typeof passkeys.PasskeyOptionsResponse>;
export type PasskeyRegisterBody = Static<typeof passkeys.PasskeyRegisterRequest>;
export type PasskeySignInBody = Static<typeof passkeys.PasskeySignInRequest>;
export type SessionCreateBody = Static<typeof sessions.SessionCreateBody>;
export type SessionTokensJson = Static<typeof sessions.SessionTokens>;
export type SessionJson = Static<typeof sessions.Session>;
export type ConnectedAccountTokenBody = Static<typeof oauth.ConnectedAccountAccessTokenRequest>;
export type ConnectedAccountTokenJson = Static<typeof oauth.ConnectedAccountAccessToken>;

// ── Users and teams ──
export type ClientUserJson = Static<typeof users.ClientUser>;
export type ServerUserJson = Static<typeof users.ServerUser>;
export type ServerUserPageJson = Static<typeof users.ServerUserPage>;
export type ClientUserUpdateBody = Static<typeof users.ClientUserUpdate>;
export type ServerUserUpdateBody = Static<typeof users.ServerUserUpdate>;
export type ServerUserCreateBody = Static<typeof users.ServerUserCreate>;
export type OAuthProviderLinkJson = Static<typeof users.OAuthProviderLink>;
export type ClientTeamJson = Static<typeof teams.ClientTeam>;
export type ServerTeamJson = Static<typeof teams.ServerTeam>;
export type ClientTeamCreateBody = Static<typeof teams.ClientTeamCreate>;
export type ServerTeamCreateBody = Static<typeof teams.ServerTeamCreate>;
export type ClientTeamUpdateBody = Static<typeof teams.ClientTeamUpdate>;
export type ServerTeamUpdateBody = Static<typeof teams.ServerTeamUpdate>;
export type ClientMemberProfileJson = Static<typeof members.ClientTeamMemberProfile>;
export type ServerMemberProfileJson = Static<typeof members.ServerTeamMemberProfile>;
export type MemberProfileUpdateBody = Static<typeof members.TeamMemberProfileUpdate>;
export type TeamInvitationJson = Static<typeof invitations.TeamInvitation>;
export type TeamInvitationSendBody = Static<typeof invitations.TeamInvitationSendCode>;
export type TeamInvitationSentJson = Static<typeof invitations.TeamInvitationSendCodeResponse>;
export type TeamInvitationCodeBody = Static<typeof invitations.TeamInvitationCode>;
export type TeamInvitationCheckJson = Static<typeof invitations.TeamInvitationCheckCodeResponse>;
export type TeamInvitationDetailsJson = Static<typeof invitations.TeamInvitationDetails>;
export type TeamPermissionJson = Static<typeof permissions.TeamPermission>;
export type ProjectPermissionJson = Static<typeof permissions.ProjectPermission>;
export type ContactChannelJson = Static<typeof channels.ContactChannel>;
export type ClientContactChannelCreateBody = Static<typeof channels.ClientContactChannelCreate>;
export type ServerContactChannelCreateBody = Static<typeof channels.ServerContactChannelCreate>;
export type ClientContactChannelUpdateBody = Static<typeof channels.ClientContactChannelUpdate>;
export type ServerContactChannelUpdateBody = Static<typeof channels.ServerContactChannelUpdate>;
export type SendVerificationCodeBody = Static<typeof channels.SendVerificationCodeBody>;
export type LegacySendVerificationCodeBody = Static<typeof channels.LegacySendVerificationCodeBody>;

// ── API keys ──
export type UserApiKeyJson = Static<typeof userApiKeys.UserApiKey>;
export type UserApiKeyFirstViewJson = Static<typeof userApiKeys.UserApiKeyFirstView>;
export type TeamApiKeyJson = Static<typeof userApiKeys.TeamApiKey>;
export type TeamApiKeyFirstViewJson = Static<typeof userApiKeys.TeamApiKeyFirstView>;
export type UserApiKeyCreateBody = Static<typeof userApiKeys.UserApiKeyCreate>;
export type TeamApiKeyCreateBody = Static<typeof userApiKeys.TeamApiKeyCreate>;
export type ApiKeyClientUpdateBody = Static<typeof userApiKeys.ApiKeyClientUpdate>;
export type ApiKeyServerUpdateBody = Static<typeof userApiKeys.ApiKeyServerUpdate>;
export type ApiKeyCheckBody = Static<typeof userApiKeys.ApiKeyCheck>;

// ── Projects and administration ──
export type ClientProjectJson = Static<typeof projects.ClientProject>;
export type AdminProjectJson = Static<typeof projects.AdminProject>;
export type ProjectUpdateBody = Static<typeof projects.ProjectUpdate>;
export type ProjectCreateBody = Static<typeof projects.ProjectCreate>;
export type ProjectConfigUpdateBody = Static<typeof projects.ProjectConfigUpdate>;
export type OAuthProviderConfigJson = Static<typeof projects.OAuthProviderConfig>;
export type EmailConfigJson = Static<typeof projects.EmailConfig>;
export type EmailConfigBody = Static<typeof projects.EmailConfigInput>;
export type ApiKeySetJson = Static<typeof apiKeySets.ApiKeySet>;
export type ApiKeySetFirstViewJson = Static<typeof apiKeySets.ApiKeySetFirstView>;
export type ApiKeySetCreateBody = Static<typeof apiKeySets.ApiKeySetCreate>;
export type ApiKeySetUpdateBody = Static<typeof apiKeySets.ApiKeySetUpdate>;
export type EmailTemplateJson = Static<typeof emailTemplates.EmailTemplate>;
export type EmailTemplateUpdateBody = Static<typeof emailTemplates.EmailTemplateUpdate>;
export type PermissionDefinitionJson = Static<typeof permissions.PermissionDefinition>;
export type PermissionDefinitionCreateBody = Static<typeof permissions.PermissionDefinitionCreate>;
export type PermissionDefinitionUpdateBody = Static<typeof permissions.PermissionDefinitionUpdate>;
export type SentEmailJson = Static<typeof emails.SentEmail>;
export type SentEmailDetailJson = Static<typeof emails.SentEmailDetail>;
export type SendTestEmailBody = Static<typeof emails.SendTestEmailRequest>;
export type SendTestEmailJson = Static<typeof emails.SendTestEmailResponse>;
export type MetricsJson = Static<typeof metrics.Metrics>;
export type UserDataExportJson = Static<typeof userExport.UserDataExport>;
export type SecuritySettingsJson = Static<typeof securitySettings.ProjectSecuritySettings>;
export type SecuritySettingsUpdateBody = Static<typeof securitySettings.ProjectSecuritySettingsUpdate>;
export type WebhookEndpointJson = Static<typeof webhooks.WebhookEndpoint>;
export type WebhookEndpointFirstViewJson = Static<typeof webhooks.WebhookEndpointFirstView>;
export type WebhookEndpointCreateBody = Static<typeof webhooks.WebhookEndpointCreate>;
export type WebhookEndpointUpdateBody = Static<typeof webhooks.WebhookEndpointUpdate>;
export type WebhookDeliveryJson = Static<typeof webhooks.WebhookDelivery>;
export type ProjectOwnerJson = Static<typeof owners.ProjectOwner>;
export type AuditLogPageJson = Static<typeof auditLog.AuditLogPage>;
export type OwnerInvitationJson = Static<typeof owners.OwnerInvitation>;
export type OwnerInvitationCreateBody = Static<typeof owners.OwnerInvitationCreate>;
export type OwnerInvitationCodeBody = Static<typeof owners.OwnerInvitationCode>;
export type OwnerInvitationDetailsJson = Static<typeof owners.OwnerInvitationDetails>;
export type OwnerInvitationAcceptedJson = Static<typeof owners.OwnerInvitationAccepted>;
export type OAuthProviderClientJson = Static<typeof oauthProvider.OAuthProviderClient>;
export type OAuthProviderClientFirstViewJson = Static<typeof oauthProvider.OAuthProviderClientFirstView>;
export type OAuthProviderClientCreateBody = Static<typeof oauthProvider.OAuthProviderClientCreate>;
export type OAuthProviderClientActivityJson = Static<typeof oauthProvider.OAuthProviderClientActivity>;
export type OAuthProviderClientUpdateBody = Static<typeof oauthProvider.OAuthProviderClientUpdate>;
export type OAuthProviderSettingsJson = Static<typeof oauthProvider.OAuthProviderSettings>;
export type OAuthProviderSettingsUpdateBody = Static<typeof oauthProvider.OAuthProviderSettingsUpdate>;
export type OAuthProviderInteractionJson = Static<typeof oauthProvider.OAuthProviderInteraction>;
export type OAuthProviderInteractionAnswerBody = Static<typeof oauthProvider.OAuthProviderInteractionAnswer>;
export type OAuthProviderInteractionResultJson = Static<typeof oauthProvider.OAuthProviderInteractionResult>;
export type OAuthProviderConnectedAppJson = Static<typeof oauthProvider.OAuthProviderConnectedApp>;
/**
 * The SDK's `POST /webhooks/svix-token` answer. The service declares no response schema for it: it always refuses
 * (Gatehouse manages endpoints itself), so this is the shape the SDK would read, never one the service sends.
 */
export type SvixTokenJson = { token: string };
