// The security settings form (issue 30): values ↔ the project's security settings, and their rules (the service's
// bounds). Lifetimes are shown in hours and the idle timeout in minutes; the service stores seconds.
import type { AdminSecuritySettings } from '@gatehouse/shared/client';
import { PASSWORD_MIN_LENGTH_RANGE, SESSION_IDLE_TIMEOUT_RANGE, SESSION_SECONDS_RANGE, SUGGESTED_PASSWORD_MIN_LENGTH } from '@gatehouse/shared/schemas/security-settings';

export interface SecurityValues {
  newDeviceSignInNoticeEnabled: boolean;
  passwordMinLength: number | string;
  sessionLifetimeHours: number | string;
  idleTimeoutEnabled: boolean;
  idleTimeoutMinutes: number | string;
}

export const LIFETIME_HOURS = { min: Math.ceil(SESSION_SECONDS_RANGE.minimum / 3600), max: Math.floor(SESSION_SECONDS_RANGE.maximum / 3600) };
export const IDLE_MINUTES = { min: Math.ceil(SESSION_IDLE_TIMEOUT_RANGE.minimum / 60), max: Math.floor(SESSION_IDLE_TIMEOUT_RANGE.maximum / 60) };
export const PASSWORD_LENGTH = { min: PASSWORD_MIN_LENGTH_RANGE.minimum, max: PASSWORD_MIN_LENGTH_RANGE.maximum, suggested: SUGGESTED_PASSWORD_MIN_LENGTH };

export function securityValues(s: AdminSecuritySettings): SecurityValues {
  return {
    newDeviceSignInNoticeEnabled: s.newDeviceSignInNoticeEnabled,
    passwordMinLength: s.passwordMinLength,
    sessionLifetimeHours: Math.round(s.sessionLifetimeSeconds / 3600),
    idleTimeoutEnabled: s.sessionIdleTimeoutSeconds !== null,
    idleTimeoutMinutes: s.sessionIdleTimeoutSeconds === null ? 60 : Math.round(s.sessionIdleTimeoutSeconds / 60),
  };
}

export function securityUpdate(v: SecurityValues): AdminSecuritySettings {
  return {
    newDeviceSignInNoticeEnabled: v.newDeviceSignInNoticeEnabled,
    passwordMinLength: Number(v.passwordMinLength),
    sessionLifetimeSeconds: Number(v.sessionLifetimeHours) * 3600,
    sessionIdleTimeoutSeconds: v.idleTimeoutEnabled ? Number(v.idleTimeoutMinutes) * 60 : null,
  };
}

const inRange = (v: number | string, r: { min: number; max: number }) => {
  const n = Number(v);
  return v !== '' && Number.isInteger(n) && n >= r.min && n <= r.max;
};

/** Field → the catalogue key of its problem (the caller words it with the range). */
export function validateSecurity(v: SecurityValues): Partial<Record<keyof SecurityValues, 'security.outOfRange'>> {
  const errors: Partial<Record<keyof SecurityValues, 'security.outOfRange'>> = {};
  if (!inRange(v.passwordMinLength, PASSWORD_LENGTH)) errors.passwordMinLength = 'security.outOfRange';
  if (!inRange(v.sessionLifetimeHours, LIFETIME_HOURS)) errors.sessionLifetimeHours = 'security.outOfRange';
  if (v.idleTimeoutEnabled && !inRange(v.idleTimeoutMinutes, IDLE_MINUTES)) errors.idleTimeoutMinutes = 'security.outOfRange';
  return errors;
}

/** Below the suggested 12 (ASVS 2.1.1), the form says so; 8 stays allowed for Stack's clients. */
export function passwordLengthBelowSuggestion(v: number | string): boolean {
  return Number(v) < PASSWORD_LENGTH.suggested;
}
