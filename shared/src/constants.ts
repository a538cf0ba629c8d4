// Business constants of the protocol and the client library (seed §9, client-library §9, protocol-auth §2, §4).
// Validation limits that belong to one rule live beside it (rules/password.ts, rules/profile-image.ts).

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// ── API ──────────────────────────────────────────────────────────────────────────────────────────────────────────
export const API_PREFIX = '/api/v1';
/** The protocol's headers, requests' and responses' (lowercase; HTTP header names are case-insensitive). protocol-auth §1.2. */
export const STACK_HEADERS = {
  projectId: 'x-stack-project-id',
  accessType: 'x-stack-access-type',
  publishableClientKey: 'x-stack-publishable-client-key',
  secretServerKey: 'x-stack-secret-server-key',
  superSecretAdminKey: 'x-stack-super-secret-admin-key',
  adminAccessToken: 'x-stack-admin-access-token',
  accessToken: 'x-stack-access-token',
  refreshToken: 'x-stack-refresh-token',
  clientVersion: 'x-stack-client-version',
  overrideErrorStatus: 'x-stack-override-error-status',
  actualStatus: 'x-stack-actual-status',
  knownError: 'x-stack-known-error',
  randomNonce: 'x-stack-random-nonce',
  auth: 'x-stack-auth',
  requestId: 'x-stack-request-id',
  disableArtificialDevelopmentDelay: 'x-stack-disable-artificial-development-delay',
} as const;
export const ACCESS_TYPES = ['client', 'server', 'admin'] as const;
export type AccessType = (typeof ACCESS_TYPES)[number];

// ── Tokens and sessions (protocol-auth §2) ───────────────────────────────────────────────────────────────────────
export const ACCESS_TOKEN_DEFAULT_LIFETIME_MS = 10 * MINUTE;
export const ACCESS_TOKEN_ISSUER = 'https://access-token.jwt-signature.stack-auth.com';
/** Refresh tokens from sign-in endpoints and OAuth live one year; no rotation, no sliding expiry. */
export const REFRESH_TOKEN_LIFETIME_MS = 365 * DAY;
/** `POST /auth/sessions` default and maximum `expires_in_millis` (protocol-auth §2.7). */
export const DEFAULT_SERVER_SESSION_LIFETIME_MS = 31_536_000_000;
export const MAX_SERVER_SESSION_LIFETIME_MS = 31_708_800_000;
/** The client refreshes when the access token has less than this left (client-library §3.3). */
export const ACCESS_TOKEN_MIN_REMAINING_MS = 20_000;
/** Asking for this much remaining lifetime or more is an error (client-library §3.3). */
export const ACCESS_TOKEN_MAX_REQUIRED_REMAINING_MS = 60_000;

// ── Browser cookies (client-library §2.2) ────────────────────────────────────────────────────────────────────────
export const REFRESH_COOKIE_PREFIX = 'stack-refresh-';
export const LEGACY_REFRESH_COOKIE = 'stack-refresh';
export const ACCESS_COOKIE = 'stack-access';
export const HTTPS_HINT_COOKIE = 'stack-is-https';
export const OAUTH_VERIFIER_COOKIE_PREFIX = 'stack-oauth-outer-';
export const REFRESH_COOKIE_MAX_AGE_SECONDS = 31_536_000;
export const ACCESS_COOKIE_MAX_AGE_SECONDS = 86_400;
export const OAUTH_STATE_COOKIE_MAX_AGE_SECONDS = 3600;
export const COOKIE_POLL_INTERVAL_MS = 100;

// ── Client network and cache (client-library §4.3, §4.6) ────────────────────────────────────────────────────────
export const NETWORK_RETRY_ATTEMPTS = 5;
/** Delay before retry i (0-based) = (0.5..1.5 jitter) × base × 2^i. */
export const NETWORK_RETRY_BASE_DELAY_MS = 1000;
export const NETWORK_RETRY_JITTER_MIN = 0.5;
export const CACHE_THROTTLE_MS = 300;
export const CACHE_UNSUBSCRIBE_GRACE_MS = 5000;
/** Largest delay setTimeout accepts (2^31 − 1). */
export const MAX_WAIT_MS = 2_147_483_647;
/** Wait after starting a navigation, so the page can unload (not for redirect method "none"). */
export const REDIRECT_WAIT_MS = 2000;
export const IDEMPOTENT_HTTP_METHODS = ['GET', 'PUT', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE'] as const;

// ── Handler routes (seed §2, client-library §6) ──────────────────────────────────────────────────────────────────
export const AFTER_AUTH_RETURN_TO_PARAM = 'after_auth_return_to';
export const HANDLER_PAGES = [
  'sign-in',
  'sign-up',
  'sign-out',
  'email-verification',
  'password-reset',
  'forgot-password',
  'oauth-callback',
  'magic-link-callback',
  'account-settings',
  'error',
  'team-invitation',
] as const;

// ── OAuth (seed §9, protocol-resources §10.2, client-library §5) ─────────────────────────────────────────────────
export const OAUTH_PROVIDER_IDS = [
  'google',
  'github',
  'microsoft',
  'spotify',
  'facebook',
  'discord',
  'gitlab',
  'bitbucket',
  'linkedin',
  'apple',
  'x',
] as const;
export type OAuthProviderId = (typeof OAUTH_PROVIDER_IDS)[number];
/** Providers that may use the operator's shared keys (`type: "shared"`). */
export const SHARED_OAUTH_PROVIDER_IDS = ['google', 'github', 'microsoft', 'spotify'] as const;
export const OAUTH_ACCOUNT_MERGE_STRATEGIES = ['link_method', 'raise_error', 'allow_duplicates'] as const;
export type OAuthAccountMergeStrategy = (typeof OAUTH_ACCOUNT_MERGE_STRATEGIES)[number];
/** The `scope` the client sends to `/auth/oauth/authorize`. */
export const OAUTH_OUTER_SCOPE = 'legacy';

export function isOAuthProviderId(id: string): id is OAuthProviderId {
  return (OAUTH_PROVIDER_IDS as readonly string[]).includes(id);
}

export function isSharedOAuthProviderId(id: string): boolean {
  return (SHARED_OAUTH_PROVIDER_IDS as readonly string[]).includes(id);
}

// ── Email (protocol-auth §5, protocol-resources §12) ─────────────────────────────────────────────────────────────
/** In the order `GET /email-templates` lists them. */
export const EMAIL_TEMPLATE_TYPES = [
  'email_verification', 'password_reset', 'magic_link', 'team_invitation',
  // Gatehouse's security notifications (sent to the account's verified addresses).
  'password_changed', 'sign_in_email_added', 'sign_in_email_removed', 'mfa_disabled', 'passkey_added', 'passkey_removed',
  'mfa_enabled', 'otp_disabled', 'new_device_sign_in',
] as const;
export type EmailTemplateType = (typeof EMAIL_TEMPLATE_TYPES)[number];

// ── Verification codes and other short-lived records (protocol-auth §4.2, §4.3) ─────────────────────────────────
// Gatehouse's lifetimes, shorter than the protocol's 7 days where a flow needs less (each minute a code lives is a
// minute it can leak from a mailbox): sign-in codes and reset links are used within minutes, a verification link
// may wait in the inbox until the next day. GATEHOUSE_EMAIL_CODE_LIFETIME_SECONDS overrides the three emailed ones.
export const OTP_SIGN_IN_CODE_LIFETIME_MS = 10 * MINUTE;
export const PASSWORD_RESET_CODE_LIFETIME_MS = 10 * MINUTE;
export const EMAIL_VERIFICATION_CODE_LIFETIME_MS = 24 * HOUR;
export const TEAM_INVITATION_CODE_LIFETIME_MS = 7 * DAY;
/** An invitation to co-own a project (issue 26) gives admin access to it: shorter-lived than a team's. */
export const PROJECT_OWNER_INVITATION_CODE_LIFETIME_MS = 3 * DAY;
export const MFA_ATTEMPT_CODE_LIFETIME_MS = 5 * MINUTE;
export const PASSKEY_AUTHENTICATION_CHALLENGE_LIFETIME_MS = 65 * SECOND;
export const CLI_LOGIN_DEFAULT_LIFETIME_MS = 2 * HOUR;
export const CLI_LOGIN_MAX_LIFETIME_MS = 24 * HOUR;
/** Calls on one nonce before every code sharing it is refused (MAX_ATTEMPTS when the counter is ≥ this). */
export const VERIFICATION_CODE_MAX_ATTEMPTS = 20;

// ── Passkeys and MFA (protocol-auth §3.4, §3.5, seed §9) ────────────────────────────────────────────────────────
/** The server sends this as the RP id; the client replaces it with the page's hostname. */
export const RELYING_PARTY_ID_PLACEHOLDER = 'THIS_VALUE_WILL_BE_REPLACED.example.com';
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;

// ── Account page and UI (seed §2, §9, client-library §7) ────────────────────────────────────────────────────────
/** seed §9 "Time units": s, m, h, d, otherwise week. */
export const TIME_UNIT_MS = { s: SECOND, m: MINUTE, h: HOUR, d: DAY, w: 7 * DAY } as const;
