// Which catalogue text the console shows for an error. A known error's code chooses it (placeholders filled from the
// error's details) and the code is shown beside it in small print; a known error the catalogue has no text for gets
// the general "refused" text, an unreachable service the network text, anything else the general "unexpected" text.
// Never the error's own message: the service's English, or a browser's.
import { KnownError } from '@gatehouse/shared/known-errors';
import { NetworkError } from '@gatehouse/shared/client';
import { t, type MessageKey } from '../messages';

/** The known-error codes the console words itself (messages/en.ts, "errors.*"). */
export const ERROR_TEXTS: Readonly<Record<string, MessageKey>> = {
  ADMIN_ACCESS_TOKEN_EXPIRED: 'errors.signedOut',
  ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN: 'errors.notOwner',
  API_KEY_NOT_FOUND: 'errors.apiKeyNotFound',
  BODY_PARSING_ERROR: 'errors.notAccepted',
  CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE: 'errors.channelUsedByOther',
  CONTAINED_PERMISSION_NOT_FOUND: 'errors.containedPermissionNotFound',
  EMAIL_ALREADY_VERIFIED: 'errors.emailAlreadyVerified',
  INVALID_ADMIN_ACCESS_TOKEN: 'errors.signedOut',
  INVALID_SUPER_SECRET_ADMIN_KEY: 'errors.adminKeyInvalid',
  LAST_PROJECT_OWNER: 'errors.lastOwner',
  LAST_SIGN_IN_METHOD: 'errors.lastSignInMethod',
  OWNER_ACCOUNT_REQUIRED: 'errors.ownerAccountRequired',
  PASSWORD_TOO_LONG: 'errors.passwordTooLong',
  PASSWORD_TOO_SHORT: 'errors.passwordTooShort',
  PERMISSION_ID_ALREADY_EXISTS: 'errors.permissionExists',
  PERMISSION_NOT_FOUND: 'errors.permissionNotFound',
  OAUTH_PROVIDER_CLIENT_INVALID: 'errors.oauthClientInvalid',
  OAUTH_PROVIDER_CLIENT_NOT_FOUND: 'errors.oauthClientNotFound',
  OAUTH_PROVIDER_SETTINGS_INVALID: 'errors.oauthProviderSettingsInvalid',
  PROJECT_NOT_FOUND: 'errors.projectNotFound',
  PROJECT_OWNER_NOT_FOUND: 'errors.ownerNotFound',
  RATE_LIMITED: 'errors.rateLimited',
  REDIRECT_URL_NOT_WHITELISTED: 'errors.callbackNotTrusted',
  SCHEMA_ERROR: 'errors.notAccepted',
  TEAM_MEMBERSHIP_ALREADY_EXISTS: 'errors.alreadyMember',
  TEAM_MEMBERSHIP_NOT_FOUND: 'errors.notMember',
  TEAM_NOT_FOUND: 'errors.teamNotFound',
  INVALID_EMAIL_DOMAIN: 'errors.invalidDomain',
  TEAM_DOMAIN_ALREADY_CLAIMED: 'errors.domainClaimed',
  DOMAIN_VERIFIED_BY_ANOTHER_TEAM: 'errors.domainVerifiedElsewhere',
  TEAM_DOMAIN_NOT_FOUND: 'errors.domainNotFound',
  DOMAIN_VERIFICATION_FAILED: 'errors.domainVerificationFailed',
  INVALID_SSO_CONNECTION: 'errors.invalidSsoConnection',
  SSO_CONNECTION_NOT_FOUND: 'errors.ssoConnectionNotFound',
  SCIM_TOKEN_NOT_FOUND: 'errors.scimTokenNotFound',
  SCIM_GROUP_NOT_FOUND: 'errors.scimGroupNotFound',
  SCIM_GROUP_NAME_TAKEN: 'errors.scimGroupNameTaken',
  USER_EMAIL_ALREADY_EXISTS: 'errors.emailTaken',
  USER_ID_DOES_NOT_EXIST: 'errors.userNotFound',
  USER_NOT_FOUND: 'errors.userNotFound',
  VERIFICATION_CODE_ALREADY_USED: 'errors.codeUsed',
  VERIFICATION_CODE_EXPIRED: 'errors.codeExpired',
  VERIFICATION_CODE_MAX_ATTEMPTS_REACHED: 'errors.codeAttempts',
  VERIFICATION_CODE_NOT_FOUND: 'errors.codeNotFound',
};

export interface ErrorText {
  key: MessageKey;
  values?: Record<string, string | number>;
  /** The known error's code (shown in small print), or null for other errors. */
  code: string | null;
}

/** The details of a known error usable as placeholder values (strings and numbers only). */
function detailValues(err: KnownError): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(err.details ?? {})) {
    if (typeof value === 'string' || typeof value === 'number') values[name] = value;
  }
  return values;
}

export function errorText(err: unknown): ErrorText {
  if (err instanceof KnownError) {
    const key = ERROR_TEXTS[err.errorCode];
    return key ? { key, values: detailValues(err), code: err.errorCode } : { key: 'errors.refused', code: err.errorCode };
  }
  if (err instanceof NetworkError) return { key: 'errors.network', code: null };
  return { key: 'errors.unexpected', code: null };
}

/** The text alone (for a label or a title; the screens show errors with components/error-message.tsx). */
export function errorSentence(err: unknown): string {
  const { key, values } = errorText(err);
  return t(key, values);
}
