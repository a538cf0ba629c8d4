// What a settings form tells the person when a call fails (client-library §7.9, shown as a notification rather
// than `alert`), and the recent-sign-in case of the service's security rule. Pure.
import { KnownError } from '@gatehouse/shared/known-errors/base';

export const RECENT_SIGN_IN_REQUIRED = 'RECENT_SIGN_IN_REQUIRED';

export function isRecentSignInRequired(err: unknown): boolean {
  return err instanceof KnownError && err.errorCode === RECENT_SIGN_IN_REQUIRED;
}

export type ErrorNotice =
  | { kind: 'known'; message: string }
  | { kind: 'unhandled'; development: boolean; detail: string };

/** A known error shows its own message; anything else the "unhandled error" text with the error's text. */
export function errorNotice(err: unknown, development: boolean): ErrorNotice {
  if (err instanceof KnownError) return { kind: 'known', message: err.message };
  return { kind: 'unhandled', development, detail: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
}

/**
 * Where "Sign in again" goes: the sign-in page, with `after_auth_return_to` set to this settings page at the
 * section the person was in, so they land back there after signing in.
 */
export function reauthenticationUrl(signInUrl: string, location: { pathname: string; search: string }, sectionId: string): string {
  const target = new URL(signInUrl, 'https://settings.invalid');
  const back = new URL(location.pathname + location.search, 'https://settings.invalid');
  back.searchParams.delete('after_auth_return_to');
  target.searchParams.set('after_auth_return_to', back.pathname + back.search + (sectionId ? `#${sectionId}` : ''));
  return target.pathname + target.search;
}
