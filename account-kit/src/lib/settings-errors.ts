// What a settings form tells the person when a call fails (client-library §7.9, shown as a notification rather
// than `alert`), and the recent-sign-in case of the service's security rule. Pure.
import { KnownError } from '@gatehouse/shared/known-errors/base';
import { NetworkError } from '@gatehouse/shared/client';
import type { MessageKey } from '../messages';
import { knownErrorKey } from './error-messages';

export const RECENT_SIGN_IN_REQUIRED = 'RECENT_SIGN_IN_REQUIRED';

export function isRecentSignInRequired(err: unknown): boolean {
  return err instanceof KnownError && err.errorCode === RECENT_SIGN_IN_REQUIRED;
}

/** The catalogue text an error is shown with, and the known error's code (shown in small print beside it). */
export type ErrorNotice = { key: MessageKey; values?: Record<string, string | number>; code: string | null };

/**
 * A known error: the kit's text for its code, else the general "refused" text, with the code either way. Anything
 * else: the network text, or the "unhandled error" text of client-library §7.9 (the error itself goes to the browser
 * console, not to the page: its text is the browser's or the library's English).
 */
export function errorNotice(err: unknown, development: boolean): ErrorNotice {
  if (err instanceof KnownError) return { key: knownErrorKey(err.errorCode) ?? 'error.refused', code: err.errorCode };
  if (err instanceof NetworkError) return { key: 'error.network', code: null };
  return { key: development ? 'settings.error.unhandledDev' : 'settings.error.unhandledProd', code: null };
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
