// A project's security settings (issue 30, ASVS Level 2): Gatehouse's own, kept out of the protocol's project config
// (whose admin view Stack's clients snapshot) and served by `/internal/security-settings` (admin access).
// Defaults keep Stack's behaviour, except the notice of a sign-in from a new device, which is on.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Strict } from './common.ts';

export const PASSWORD_MIN_LENGTH_RANGE = { minimum: 8, maximum: 70 } as const;
/** What the console suggests (ASVS 2.1.1 asks for 12); 8 stays the default for Stack's clients. */
export const SUGGESTED_PASSWORD_MIN_LENGTH = 12;
export const SESSION_SECONDS_RANGE = { minimum: 300, maximum: 10 * 365 * 86_400 } as const;
export const DEFAULT_SESSION_LIFETIME_SECONDS = 365 * 86_400;
/**
 * A session's idle time is counted between refreshes, and an app in use refreshes when its access token runs out
 * (every 10 minutes by default): so at least 15 minutes, or sessions in use would end.
 */
export const SESSION_IDLE_TIMEOUT_RANGE = { minimum: 900, maximum: 10 * 365 * 86_400 } as const;

const PasswordMinLength = () => Type.Integer({ ...PASSWORD_MIN_LENGTH_RANGE, description: 'Shortest password accepted at sign-up, set, update and reset' });
const SessionLifetime = () => Type.Integer({ ...SESSION_SECONDS_RANGE, description: 'How long a session (its refresh token) lives from sign-in' });
const SessionIdleTimeout = () => Nullable(Type.Integer({ ...SESSION_IDLE_TIMEOUT_RANGE, description: 'A session not refreshed for this long ends; null: no idle limit' }));

/** The stored settings document (the service's record; like ProjectConfigDocument beside the admin view). */
export const SecuritySettingsDocument = Strict({
  /** Mail the account's verified addresses on a sign-in from a device it never signed in from (ASVS 2.5.5). */
  new_device_sign_in_notice_enabled: Type.Boolean(),
  password_min_length: PasswordMinLength(),
  session_lifetime_seconds: SessionLifetime(),
  session_idle_timeout_seconds: SessionIdleTimeout(),
});
export type SecuritySettingsDocument = Static<typeof SecuritySettingsDocument>;
/** `GET /internal/security-settings`: the document as it is (every field). */
export const ProjectSecuritySettings = SecuritySettingsDocument;
export type ProjectSecuritySettings = SecuritySettingsDocument;

export const ProjectSecuritySettingsUpdate = Strict({
  new_device_sign_in_notice_enabled: Type.Optional(Type.Boolean()),
  password_min_length: Type.Optional(PasswordMinLength()),
  session_lifetime_seconds: Type.Optional(SessionLifetime()),
  session_idle_timeout_seconds: Type.Optional(SessionIdleTimeout()),
});
export type ProjectSecuritySettingsUpdate = Static<typeof ProjectSecuritySettingsUpdate>;

export function defaultSecuritySettings(): SecuritySettingsDocument {
  return { new_device_sign_in_notice_enabled: true, password_min_length: 8, session_lifetime_seconds: DEFAULT_SESSION_LIFETIME_SECONDS, session_idle_timeout_seconds: null };
}
