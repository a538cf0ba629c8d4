// The known-error codes of Stack Auth REST API v1 (SDK 2.8.3): protocol-auth.md §7, §4.3, protocol-resources.md §14.
// Status, message text and details keys are wire contract: do not reword.
import { defineKnownError as def, type KnownErrorFamily } from './base.ts';

const PROJECT_AUTH = ['INVALID_PROJECT_AUTHENTICATION', 'PROJECT_AUTHENTICATION_ERROR'] as const;
const ADMIN_TOKEN = ['INVALID_ADMIN_ACCESS_TOKEN', ...PROJECT_AUTH] as const;
const AUTH_REQUIRED = ['PROJECT_AUTHENTICATION_REQUIRED', 'PROJECT_AUTHENTICATION_ERROR'] as const;
const ACCESS_TOKEN = ['INVALID_ACCESS_TOKEN', 'INVALID_SESSION_AUTHENTICATION', 'SESSION_AUTHENTICATION_ERROR'] as const;
const REFRESH = ['REFRESH_TOKEN_ERROR'] as const;
const PASSWORD = ['PASSWORD_REQUIREMENTS_NOT_MET'] as const;
const VERIFICATION = ['VERIFICATION_ERROR'] as const;
const API_KEY = ['API_KEY_NOT_VALID'] as const;

/** Shorthand for codes with a fixed message and no details. */
const fixed = <const C extends string, const F extends KnownErrorFamily = never>(code: C, status: number, message: string, families: readonly F[] = []) =>
  def(code, status, families, () => [message] as const);

const DOCS_AUTH = '\n\nFor more information, see the docs on REST API authentication: https://docs.stack-auth.com/rest-api/overview#authentication';
const expiredSuffix = (expiredAt: Date | null | undefined) =>
  expiredAt ? ` (The access token expired at ${expiredAt.toISOString()}.)` : '';

// §7.1 Generic
export const UnsupportedError = def('UNSUPPORTED_ERROR', 500, [], (originalErrorCode: string) => [
  `An error occurred that is not currently supported (possibly because it was added in a version of Stack that is newer than this client). The original unsupported error code was: ${originalErrorCode}`,
  { originalErrorCode },
] as const);
// details.message is not sent by the reference server, but the SDK's decoder needs it.
export const BodyParsingError = def('BODY_PARSING_ERROR', 400, [], (message: string) => [message, { message }] as const);
export const SchemaError = def('SCHEMA_ERROR', 400, [], (message: string) => [message, { message }] as const);
export const AllOverloadsFailed = def('ALL_OVERLOADS_FAILED', 400, [], (overloadErrors: unknown[]) => [
  'This endpoint has multiple overloads, but they all failed to process the request.\n\n'
    + overloadErrors.map((e, i) => `Overload ${i + 1}: ${JSON.stringify(e, undefined, 2)}`).join('\n\n'),
  { overload_errors: overloadErrors },
] as const);

// §7.2 Project authentication
export const ProjectKeyWithoutAccessType = fixed('PROJECT_KEY_WITHOUT_ACCESS_TYPE', 400,
  "Either an API key or an admin access token was provided, but the x-stack-access-type header is missing. Set it to 'client', 'server', or 'admin' as appropriate.", PROJECT_AUTH);
// details {accessType} (camelCase) is what the SDK's decoder reads; the reference server sends none.
export const InvalidAccessType = def('INVALID_ACCESS_TYPE', 400, PROJECT_AUTH, (accessType: string) => [
  `The x-stack-access-type header must be 'client', 'server', or 'admin', but was '${accessType}'.`,
  { accessType },
] as const);
export const AccessTypeWithoutProjectId = def('ACCESS_TYPE_WITHOUT_PROJECT_ID', 400, PROJECT_AUTH, (requestType: string) => [
  `The x-stack-access-type header was '${requestType}', but the x-stack-project-id header was not provided.${DOCS_AUTH}`,
  { request_type: requestType },
] as const);
export const AccessTypeRequired = fixed('ACCESS_TYPE_REQUIRED', 400,
  `You must specify an access level for this Stack project. Make sure project API keys are provided (eg. x-stack-publishable-client-key) and you set the x-stack-access-type header to 'client', 'server', or 'admin'.${DOCS_AUTH}`, PROJECT_AUTH);
export const InsufficientAccessType = def('INSUFFICIENT_ACCESS_TYPE', 401, PROJECT_AUTH,
  (actualAccessType: string, allowedAccessTypes: string[]) => [
    `The x-stack-access-type header must be ${allowedAccessTypes.map((t) => `'${t}'`).join(' or ')}, but was '${actualAccessType}'.`,
    { actual_access_type: actualAccessType, allowed_access_types: allowedAccessTypes },
  ] as const);
const invalidKey = (code: string, what: string) => def(code, 401, PROJECT_AUTH, (projectId: string) => [
  `The ${what} is not valid for the project "${projectId}". Does the project and/or the key exist?`,
  { project_id: projectId },
] as const);
export const InvalidPublishableClientKey = invalidKey('INVALID_PUBLISHABLE_CLIENT_KEY', 'publishable key');
export const InvalidSecretServerKey = invalidKey('INVALID_SECRET_SERVER_KEY', 'secret server key');
export const InvalidSuperSecretAdminKey = invalidKey('INVALID_SUPER_SECRET_ADMIN_KEY', 'super secret admin key');
export const UnparsableAdminAccessToken = fixed('UNPARSABLE_ADMIN_ACCESS_TOKEN', 401, 'Admin access token is not parsable.', ADMIN_TOKEN);
export const AdminAccessTokenExpired = def('ADMIN_ACCESS_TOKEN_EXPIRED', 401, ADMIN_TOKEN, (expiredAt: Date | null) => [
  `Admin access token has expired. Please refresh it and try again.${expiredSuffix(expiredAt)}`,
  { expired_at_millis: expiredAt ? expiredAt.getTime() : null },
] as const);
export const InvalidProjectForAdminAccessToken = fixed('INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN', 401,
  'Admin access tokens must be created on the internal project.', ADMIN_TOKEN);
export const AdminAccessTokenIsNotAdmin = fixed('ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401,
  'Admin access token does not have the required permissions to access this project.', ADMIN_TOKEN);
export const ClientAuthenticationRequired = fixed('CLIENT_AUTHENTICATION_REQUIRED', 401,
  'The publishable client key must be provided.', AUTH_REQUIRED);
export const ServerAuthenticationRequired = fixed('SERVER_AUTHENTICATION_REQUIRED', 401,
  'The secret server key must be provided.', AUTH_REQUIRED);
export const AdminAuthenticationRequired = fixed('ADMIN_AUTHENTICATION_REQUIRED', 401,
  'The super secret admin key must be provided.', AUTH_REQUIRED);
export const ClientOrServerAuthenticationRequired = fixed('CLIENT_OR_SERVER_AUTHENTICATION_REQUIRED', 401,
  'Either the publishable client key or the secret server key must be provided.', AUTH_REQUIRED);
export const ClientOrAdminAuthenticationRequired = fixed('CLIENT_OR_ADMIN_AUTHENTICATION_REQUIRED', 401,
  'Either the publishable client key or the super secret admin key must be provided.', AUTH_REQUIRED);
export const ClientOrServerOrAdminAuthenticationRequired = fixed('CLIENT_OR_SERVER_OR_ADMIN_AUTHENTICATION_REQUIRED', 401,
  'Either the publishable client key, the secret server key, or the super secret admin key must be provided.', AUTH_REQUIRED);
export const ExpectedInternalProject = fixed('EXPECTED_INTERNAL_PROJECT', 401,
  'The project ID is expected to be internal.', ['PROJECT_AUTHENTICATION_ERROR']);

// §7.3 Session / tokens
export const UnparsableAccessToken = fixed('UNPARSABLE_ACCESS_TOKEN', 401, 'Access token is not parsable.', ACCESS_TOKEN);
export const AccessTokenExpired = def('ACCESS_TOKEN_EXPIRED', 401, ACCESS_TOKEN, (expiredAt: Date | null) => [
  `Access token has expired. Please refresh it and try again.${expiredSuffix(expiredAt)}`,
  { expired_at_millis: expiredAt ? expiredAt.getTime() : null },
] as const);
export const InvalidProjectForAccessToken = def('INVALID_PROJECT_FOR_ACCESS_TOKEN', 401, ACCESS_TOKEN,
  (expectedProjectId: string, actualProjectId: string) => [
    `Access token not valid for this project. Expected project ID "${expectedProjectId}", but the token is for project ID "${actualProjectId}".`,
    { expected_project_id: expectedProjectId, actual_project_id: actualProjectId },
  ] as const);
export const RefreshTokenNotFoundOrExpired = fixed('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401,
  'Refresh token not found for this project, or the session has expired/been revoked.', REFRESH);
export const CannotDeleteCurrentSession = fixed('CANNOT_DELETE_CURRENT_SESSION', 400, 'Cannot delete the current session.', REFRESH);
export const ProviderRejected = fixed('PROVIDER_REJECTED', 401,
  'The provider refused to refresh their token. This usually means that the provider used to authenticate the user no longer regards this session as valid, and the user must re-authenticate.', REFRESH);

// §7.4 Users, sign-in, sign-up, passwords
export const UserEmailAlreadyExists = def('USER_EMAIL_ALREADY_EXISTS', 409, [], (email: string) => [
  `A user with email "${email}" already exists.`, { email },
] as const);
export const EmailNotVerified = fixed('EMAIL_NOT_VERIFIED', 400, 'The email is not verified.');
export const CannotGetOwnUserWithoutUser = fixed('CANNOT_GET_OWN_USER_WITHOUT_USER', 400,
  "You have specified 'me' as a userId, but did not provide authentication for a user.");
export const UserIdDoesNotExist = def('USER_ID_DOES_NOT_EXIST', 400, [], (userId: string) => [
  `The given user with the ID ${userId} does not exist.`, { user_id: userId },
] as const);
export const UserNotFound = fixed('USER_NOT_FOUND', 404, 'User not found.');
export const UserAuthenticationRequired = fixed('USER_AUTHENTICATION_REQUIRED', 401, 'User authentication required for this endpoint.');
export const ProjectNotFound = def('PROJECT_NOT_FOUND', 404, [], (projectId: string) => [
  `Project ${projectId} not found or is not accessible with the current user.`, { project_id: projectId },
] as const);
export const SignUpNotEnabled = fixed('SIGN_UP_NOT_ENABLED', 400,
  'Creation of new accounts is not enabled for this project. Please ask the project owner to enable it.');
export const PasswordAuthenticationNotEnabled = fixed('PASSWORD_AUTHENTICATION_NOT_ENABLED', 400,
  'Password authentication is not enabled for this project.');
export const PasskeyAuthenticationNotEnabled = fixed('PASSKEY_AUTHENTICATION_NOT_ENABLED', 400,
  'Passkey authentication is not enabled for this project.');
export const AnonymousAccountsNotEnabled = fixed('ANONYMOUS_ACCOUNTS_NOT_ENABLED', 400,
  'Anonymous accounts are not enabled for this project.');
export const EmailPasswordMismatch = fixed('EMAIL_PASSWORD_MISMATCH', 400, 'Wrong e-mail or password.');
// Gatehouse's own (not in the 2.8.3 SDK): a sensitive change with client access from a session signed in too long ago.
export const RecentSignInRequired = fixed('RECENT_SIGN_IN_REQUIRED', 403,
  'This action requires a recent sign-in. Please sign in again and retry.');
export const RedirectUrlNotWhitelisted = fixed('REDIRECT_URL_NOT_WHITELISTED', 400,
  'Redirect URL not whitelisted. Did you forget to add this domain to the trusted domains list on the Stack Auth dashboard?');
export const PasswordTooShort = def('PASSWORD_TOO_SHORT', 400, PASSWORD, (minLength: number) => [
  `Password too short. Minimum length is ${minLength}.`, { min_length: minLength },
] as const);
// The family's own code, which Stack's SDK decodes as PasswordRequirementsNotMet (seed: server-side strength
// failures): Gatehouse sends it for breached or very common passwords.
export const PasswordRequirementsNotMet = fixed('PASSWORD_REQUIREMENTS_NOT_MET', 400,
  'This password is too common or has appeared in a data breach. Please choose a different password.', PASSWORD);
// camelCase key on purpose: it is what the SDK reads.
export const PasswordTooLong = def('PASSWORD_TOO_LONG', 400, PASSWORD, (maxLength: number) => [
  `Password too long. Maximum length is ${maxLength}.`, { maxLength },
] as const);
export const UserDoesNotHavePassword = fixed('USER_DOES_NOT_HAVE_PASSWORD', 400,
  'This user does not have password authentication enabled.');
export const PasswordConfirmationMismatch = fixed('PASSWORD_CONFIRMATION_MISMATCH', 400, 'Passwords do not match.');
export const EmailAlreadyVerified = fixed('EMAIL_ALREADY_VERIFIED', 409, 'The e-mail is already verified.');
export const EmailNotAssociatedWithUser = fixed('EMAIL_NOT_ASSOCIATED_WITH_USER', 400,
  'The e-mail is not associated with a user that could log in with that e-mail.');
export const EmailIsNotPrimaryEmail = def('EMAIL_IS_NOT_PRIMARY_EMAIL', 400, [], (email: string, primaryEmail: string) => [
  `The given e-mail (${email}) must equal the user's primary e-mail (${primaryEmail}).`,
  { email, primary_email: primaryEmail },
] as const);
export const ContactChannelAlreadyUsedForAuthBySomeoneElse = def('CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', 409, [],
  (type: string, contactChannelValue?: string | null) => [
    contactChannelValue
      ? `The ${type} (${contactChannelValue}) is already used for authentication by another account.`
      : `This ${type} is already used for authentication by another account.`,
    { type, contact_channel_value: contactChannelValue ?? null },
  ] as const);
export const MultiFactorAuthenticationRequired = def('MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400, [], (attemptCode: string) => [
  'Multi-factor authentication is required for this user.', { attempt_code: attemptCode },
] as const);
export const InvalidTotpCode = fixed('INVALID_TOTP_CODE', 400, 'The TOTP code is invalid. Please try again.');

// §7.5 / §4.3 Verification codes
export const VerificationCodeNotFound = fixed('VERIFICATION_CODE_NOT_FOUND', 404,
  'The verification code does not exist for this project.', VERIFICATION);
export const VerificationCodeExpired = fixed('VERIFICATION_CODE_EXPIRED', 400, 'The verification code has expired.', VERIFICATION);
export const VerificationCodeAlreadyUsed = fixed('VERIFICATION_CODE_ALREADY_USED', 409,
  'The verification link has already been used.', VERIFICATION);
export const VerificationCodeMaxAttemptsReached = fixed('VERIFICATION_CODE_MAX_ATTEMPTS_REACHED', 400,
  'The verification code nonce has reached the maximum number of attempts. This code is not valid anymore.', VERIFICATION);

// §7.6 Passkeys (details.message added for the SDK's decoder, see §3.4)
export const PasskeyRegistrationFailed = def('PASSKEY_REGISTRATION_FAILED', 400, [], (message: string) => [message, { message }] as const);
export const PasskeyWebAuthnError = def('PASSKEY_WEBAUTHN_ERROR', 400, [], (message: string, code: string) => [
  message, { message, code },
] as const);
export const PasskeyAuthenticationFailed = def('PASSKEY_AUTHENTICATION_FAILED', 400, [], (message: string) => [message, { message }] as const);

// §7.7 OAuth
export const OAuthConnectionNotConnectedToUser = fixed('OAUTH_CONNECTION_NOT_CONNECTED_TO_USER', 400,
  'The OAuth connection is not connected to any user.');
export const OAuthConnectionAlreadyConnectedToAnotherUser = fixed('OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER', 409,
  'The OAuth connection is already connected to another user.');
export const OAuthConnectionDoesNotHaveRequiredScope = fixed('OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE', 400,
  'The OAuth connection does not have the required scope.');
export const OAuthExtraScopeNotAvailableWithSharedOAuthKeys = fixed('OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS', 400,
  'Extra scopes are not available with shared OAuth keys. Please add your own OAuth keys on the Stack dashboard to use extra scopes.');
export const OAuthAccessTokenNotAvailableWithSharedOAuthKeys = fixed('OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS', 400,
  'Access tokens are not available with shared OAuth keys. Please add your own OAuth keys on the Stack dashboard to use access tokens.');
export const InvalidOAuthClientIdOrSecret = def('INVALID_OAUTH_CLIENT_ID_OR_SECRET', 400, [], (clientId?: string | null) => [
  'The OAuth client ID or secret is invalid. The client ID must be equal to the project ID, and the client secret must be a publishable client key.',
  { client_id: clientId ?? null },
] as const);
// details {scope} added for the SDK's decoder.
export const InvalidScope = def('INVALID_SCOPE', 400, [], (scope: string) => [
  `The scope "${scope}" is not a valid OAuth scope for Stack.`, { scope },
] as const);
export const UserAlreadyConnectedToAnotherOAuthConnection = fixed('USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION', 409,
  'The user is already connected to another OAuth account. Did you maybe selected the wrong account?');
export const OuterOAuthTimeout = fixed('OUTER_OAUTH_TIMEOUT', 408, 'The OAuth flow has timed out. Please sign in again.');
export const OAuthProviderNotFoundOrNotEnabled = fixed('OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED', 400,
  'The OAuth provider is not found or not enabled.');
export const InvalidSharedOAuthProviderId = def('INVALID_SHARED_OAUTH_PROVIDER_ID', 400, [], (providerId: string) => [
  `The shared OAuth provider with ID ${providerId} is not valid.`, { provider_id: providerId },
] as const);
export const InvalidStandardOAuthProviderId = def('INVALID_STANDARD_OAUTH_PROVIDER_ID', 400, [], (providerId: string) => [
  `The standard OAuth provider with ID ${providerId} is not valid.`, { provider_id: providerId },
] as const);
export const InvalidAuthorizationCode = fixed('INVALID_AUTHORIZATION_CODE', 400, 'The given authorization code is invalid.');
export const OAuthProviderAccessDenied = fixed('OAUTH_PROVIDER_ACCESS_DENIED', 400, 'The OAuth provider denied access to the user.');

// §7.8 CLI, teams, permissions, templates, API keys
export const InvalidPollingCode = def('INVALID_POLLING_CODE', 400, [], (details?: Record<string, unknown>) => [
  'The polling code is invalid or does not exist.', details,
] as const);
export const PermissionNotFound = def('PERMISSION_NOT_FOUND', 404, [], (permissionId: string) => [
  `Permission "${permissionId}" not found. Make sure you created it on the dashboard.`, { permission_id: permissionId },
] as const);
export const ContainedPermissionNotFound = def('CONTAINED_PERMISSION_NOT_FOUND', 400, [], (permissionId: string) => [
  `Contained permission with ID "${permissionId}" not found. Make sure you created it on the dashboard.`, { permission_id: permissionId },
] as const);
export const PermissionIdAlreadyExists = def('PERMISSION_ID_ALREADY_EXISTS', 400, [], (permissionId: string) => [
  `Permission with ID "${permissionId}" already exists. Choose a different ID.`, { permission_id: permissionId },
] as const);
export const TeamNotFound = def('TEAM_NOT_FOUND', 404, [], (teamId: string) => [
  `Team ${teamId} not found.`, { team_id: teamId },
] as const);
// Missing from the 2.8.3 SDK registry (client-library.md §8 #5: register it anyway); never thrown by the service.
export const TeamAlreadyExists = def('TEAM_ALREADY_EXISTS', 409, [], (teamId: string) => [
  `Team ${teamId} already exists.`, { team_id: teamId },
] as const);
export const TeamMembershipNotFound = def('TEAM_MEMBERSHIP_NOT_FOUND', 404, [], (teamId: string, userId: string) => [
  `User ${userId} is not found in team ${teamId}.`, { team_id: teamId, user_id: userId },
] as const);
export const TeamMembershipAlreadyExists = fixed('TEAM_MEMBERSHIP_ALREADY_EXISTS', 409, 'Team membership already exists.');
export const ProjectPermissionRequired = def('PROJECT_PERMISSION_REQUIRED', 401, [], (userId: string, permissionId: string) => [
  `User ${userId} does not have permission ${permissionId}.`, { user_id: userId, permission_id: permissionId },
] as const);
const teamPermission = (code: string) => def(code, 401, [], (teamId: string, userId: string, permissionId: string) => [
  `User ${userId} does not have permission ${permissionId} in team ${teamId}.`,
  { team_id: teamId, user_id: userId, permission_id: permissionId },
] as const);
export const TeamPermissionRequired = teamPermission('TEAM_PERMISSION_REQUIRED');
export const TeamPermissionNotFound = teamPermission('TEAM_PERMISSION_NOT_FOUND');
export const EmailTemplateAlreadyExists = fixed('EMAIL_TEMPLATE_ALREADY_EXISTS', 409, 'Email template already exists.');
export const ApiKeyExpired = fixed('API_KEY_EXPIRED', 401, 'API key has expired.', API_KEY);
export const ApiKeyRevoked = fixed('API_KEY_REVOKED', 401, 'API key has been revoked.', API_KEY);
export const WrongApiKeyType = def('WRONG_API_KEY_TYPE', 400, API_KEY, (expectedType: string, actualType: string) => [
  `This endpoint is for ${expectedType} API keys, but a ${actualType} API key was provided.`,
  { expected_type: expectedType, actual_type: actualType },
] as const);
export const ApiKeyNotFound = fixed('API_KEY_NOT_FOUND', 404, 'API key not found.', API_KEY);
