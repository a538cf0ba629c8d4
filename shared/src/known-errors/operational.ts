// Gatehouse's own codes for operational limits, which the reference answers without a code (or not at all).
// Not in the 2.8.3 SDK's registry: that SDK reports them as "Unknown KnownError code ... <CODE>: <message>".
import { defineKnownError as def } from './base.ts';

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** 429 from the abuse limits (sign-in failures, code sending and attempts, TOTP guesses); sent with Retry-After. */
export const RateLimited = def('RATE_LIMITED', 429, [], (retryAfterSeconds: number) => [
  `Too many requests. Please try again in ${plural(retryAfterSeconds, 'second')}.`,
  { retry_after_seconds: retryAfterSeconds },
] as const);

/** 413: the request body is larger than the service accepts (GATEHOUSE_MAX_BODY_BYTES). */
export const RequestBodyTooLarge = def('REQUEST_BODY_TOO_LARGE', 413, [], (maxBytes: number) => [
  `The request body is too large. The maximum is ${plural(maxBytes, 'byte')}.`,
  { max_bytes: maxBytes },
] as const);

/**
 * 415: a body in a content type the route does not take (JSON routes take application/json only; the OAuth token
 * endpoint also takes forms). Refused rather than read, so a cross-site "simple" request cannot reach a JSON route.
 */
export const UnsupportedMediaType = def('UNSUPPORTED_MEDIA_TYPE', 415, [], (contentType: string, supported: readonly string[]) => [
  `Unsupported content type in request body: ${contentType}. Send ${supported.join(' or ')}.`,
  { content_type: contentType, supported: [...supported] },
] as const);

/** 403: the operator restricts who may create projects (GATEHOUSE_PROJECT_CREATION) and this user is not allowed. */
export const ProjectCreationNotAllowed = def('PROJECT_CREATION_NOT_ALLOWED', 403, [], () => [
  'Creating projects is restricted on this server. Ask its operator to allow your account.',
] as const);

/**
 * 403: the operator requires project owners to have MFA (GATEHOUSE_OWNER_MFA_REQUIRED) and this owner has neither
 * TOTP nor a passkey, so their admin access token is not accepted.
 */
export const OwnerMfaRequired = def('OWNER_MFA_REQUIRED', 403, [], () => [
  'Project owners must turn on multi-factor authentication (an authenticator app or a passkey) before using the admin API.',
] as const);

/** 409: removing this owner would leave the project with none (issue 26: co-owners; never the last one). */
export const LastProjectOwner = def('LAST_PROJECT_OWNER', 409, [], () => [
  'A project needs at least one owner. Add another owner before removing this one.',
] as const);

/** 404: the user named is not an owner of this project. */
export const ProjectOwnerNotFound = def('PROJECT_OWNER_NOT_FOUND', 404, [], (userId: string) => [
  `User ${userId} is not an owner of this project.`,
  { user_id: userId },
] as const);

/** 403: an anonymous account (anyone, one request away) cannot become a project's owner: it must sign up first. */
export const OwnerAccountRequired = def('OWNER_ACCOUNT_REQUIRED', 403, [], () => [
  'Anonymous users cannot own projects. Sign up with an email first.',
] as const);

/**
 * 400: the change would leave the account with no way to sign in (disconnecting its only OAuth account while it has
 * no password, sign-in code or passkey). Add another sign-in method first.
 */
export const LastSignInMethod = def('LAST_SIGN_IN_METHOD', 400, [], () => [
  'This is the last way to sign in to this account. Add another sign-in method before removing it.',
] as const);

/** 404: the project's OpenID provider has no OAuth client with this id (issue 27). */
export const OAuthProviderClientNotFound = def('OAUTH_PROVIDER_CLIENT_NOT_FOUND', 404, [], (clientId: string) => [
  `OAuth client ${clientId} not found.`,
  { client_id: clientId },
] as const);

/** 400: the OAuth client's settings do not work together (a public client with client credentials, no redirect URI). */
export const OAuthProviderClientInvalid = def('OAUTH_PROVIDER_CLIENT_INVALID', 400, [], (reason: string) => [
  `The OAuth client's settings are not valid: ${reason}`,
  { reason },
] as const);

/**
 * 400: the OpenID provider's settings cannot be kept (a project scope that is no scope token or shadows a standard one,
 * a claim name the protocol reserves, a mapping naming no scope, a name given twice). Nothing was written.
 */
export const OAuthProviderSettingsInvalid = def('OAUTH_PROVIDER_SETTINGS_INVALID', 400, [], (reason: string) => [
  `The OpenID provider's settings are not valid: ${reason}`,
  { reason },
] as const);

/** 404: no authorization request waits for the user under this id: it was finished already, expired, or never was. */
export const OAuthProviderInteractionNotFound = def('OAUTH_PROVIDER_INTERACTION_NOT_FOUND', 404, [], () => [
  'This authorization request was not found: it has expired or was already answered. Start again from the application.',
] as const);
