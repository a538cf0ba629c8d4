// The user list's filters as the form holds them (each yes/no/any, days as typed) and as the client library takes
// them, and the export's file name.
import type { UserFilterOptions } from '@gatehouse/shared/client';

export type TriState = 'any' | 'yes' | 'no';

export interface UserFilterValues {
  verified: TriState;
  password: TriState;
  mfa: TriState;
  /** Signed in within this many days; '' for any time (a NumberInput's empty value). */
  activeDays: number | string;
}

export const NO_FILTER: UserFilterValues = { verified: 'any', password: 'any', mfa: 'any', activeDays: '' };

/** The service's bounds of `signed_in_within_days`. */
export const MAX_ACTIVE_DAYS = 36_500;

const tri = (v: TriState) => (v === 'any' ? undefined : v === 'yes');

export function activeDaysProblem(days: number | string): 'range' | null {
  if (days === '') return null;
  const n = Number(days);
  return Number.isInteger(n) && n >= 1 && n <= MAX_ACTIVE_DAYS ? null : 'range';
}

/** What the library is asked for: only the filters chosen (days out of range are left out until corrected). */
export function filterOptions(v: UserFilterValues): UserFilterOptions {
  const o: UserFilterOptions = {};
  const verified = tri(v.verified);
  const password = tri(v.password);
  const mfa = tri(v.mfa);
  if (verified !== undefined) o.emailVerified = verified;
  if (password !== undefined) o.hasPassword = password;
  if (mfa !== undefined) o.hasMfa = mfa;
  if (v.activeDays !== '' && activeDaysProblem(v.activeDays) === null) o.signedInWithinDays = Number(v.activeDays);
  return o;
}

export function isFiltered(v: UserFilterValues): boolean {
  return Object.keys(filterOptions(v)).length > 0;
}

/** `users-<project>-<yyyy-mm-dd>.csv`, the project's name made safe for a file name. */
export function exportFileName(projectName: string, now: Date): string {
  const safe = projectName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'project';
  return `users-${safe}-${now.toISOString().slice(0, 10)}.csv`;
}
