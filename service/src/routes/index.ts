// Every API route, one resource per module. Add a resource by importing its array here.
import type { RouteDef } from '../http/route';
import { rootRoutes } from './root';
import { userRoutes } from './users';
import { userExportRoutes } from './user-export';
import { projectOwnerRoutes } from './project-owners';
import { ownerInvitationRoutes } from './owner-invitations';
import { passwordRoutes } from './auth-password';
import { sessionRoutes } from './sessions';
import { tokenRoutes } from './oauth-token';
import { projectRoutes } from './projects';
import { securitySettingsRoutes } from './security-settings';
import { internalProjectRoutes } from './internal-projects';
import { internalApiKeyRoutes } from './internal-api-keys';
import { emailTemplateRoutes } from './email-templates';
import { internalEmailRoutes } from './internal-emails';
import { internalMetricsRoutes } from './internal-metrics';
import { internalSigningKeyRoutes } from './internal-signing-keys';
import { webhookRoutes } from './webhooks';
import { webhookDeliveryRoutes } from './webhook-deliveries';
import { oauthRoutes } from './oauth';
import { connectedAccountRoutes } from './connected-accounts';
import { passkeyRoutes } from './auth-passkey';
import { mfaRoutes } from './auth-mfa';
import { cliAuthRoutes } from './auth-cli';
import { anonymousRoutes } from './auth-anonymous';
import { otpRoutes } from './auth-otp';
import { passwordResetRoutes } from './auth-password-reset';
import { contactChannelRoutes } from './contact-channels';
import { teamRoutes } from './teams';
import { teamMembershipRoutes } from './team-memberships';
import { teamMemberProfileRoutes } from './team-member-profiles';
import { teamInvitationRoutes } from './team-invitations';
import { teamPermissionRoutes } from './team-permissions';
import { permissionDefinitionRoutes } from './permission-definitions';
import { projectPermissionRoutes } from './project-permissions';
import { userApiKeyRoutes } from './user-api-keys';
import { auditLogRoutes } from './audit-log';
import { oauthProviderRoutes } from './oauth-provider';
import { teamDomainRoutes } from './team-domains';
import { teamScimRoutes } from './team-scim';
import { teamSsoConnectionRoutes } from './team-sso-connections';
import { ssoRoutes } from './auth-sso';

export const allRoutes: RouteDef[] = [
  ...rootRoutes,
  ...userRoutes,
  ...userExportRoutes,
  ...projectOwnerRoutes,
  ...ownerInvitationRoutes,
  ...passwordRoutes,
  ...sessionRoutes,
  ...tokenRoutes,
  ...projectRoutes,
  ...securitySettingsRoutes,
  ...internalProjectRoutes,
  ...internalApiKeyRoutes,
  ...auditLogRoutes,
  ...emailTemplateRoutes,
  ...internalEmailRoutes,
  ...internalMetricsRoutes,
  ...internalSigningKeyRoutes,
  ...webhookRoutes,
  ...webhookDeliveryRoutes,
  ...oauthRoutes,
  ...connectedAccountRoutes,
  ...passkeyRoutes,
  ...mfaRoutes,
  ...cliAuthRoutes,
  ...anonymousRoutes,
  ...otpRoutes,
  ...passwordResetRoutes,
  ...contactChannelRoutes,
  ...teamRoutes,
  ...teamDomainRoutes,
  ...teamScimRoutes,
  ...teamSsoConnectionRoutes,
  ...ssoRoutes,
  ...teamMembershipRoutes,
  ...teamMemberProfileRoutes,
  ...teamInvitationRoutes,
  ...teamPermissionRoutes,
  ...permissionDefinitionRoutes,
  ...projectPermissionRoutes,
  ...userApiKeyRoutes,
  ...oauthProviderRoutes,
];
