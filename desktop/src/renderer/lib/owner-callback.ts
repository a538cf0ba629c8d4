// The console's own return addresses for an owner's sign-in that leaves the page (OAuth, a mailed magic link). On the
// web: /console/?auth_callback=oauth and /console/?auth_callback=magic-link (the service's /handler pages belong to
// the demo app and its project, so a console sign-in that came back there ended in the demo). In the desktop app:
// the main process's loopback listener, `{base}oauth?connection=…` and `{base}magic-link?connection=…`, whose
// addresses reach the window as they came (sign-in-returns.ts). The screen the owner started from is kept for the
// tab or window (sessionStorage) and opened once signed in.
import { SIGN_IN_RETURN_PATH } from '../../shared/bridge';
import { parseRoute, type Route } from './routes';

/** `address`: the desktop app's loopback address the OAuth return came to (the library reads code and state there). */
export type OwnerCallback = { kind: 'oauth'; address?: string } | { kind: 'magic-link'; code: string | null };

export const OAUTH_CALLBACK_PATH = '/console/?auth_callback=oauth';
export const MAGIC_LINK_CALLBACK_PATH = '/console/?auth_callback=magic-link';

export function ownerCallbackOf(search: string): OwnerCallback | null {
  const params = new URLSearchParams(search);
  const kind = params.get('auth_callback');
  if (kind === 'oauth') return { kind: 'oauth' };
  if (kind === 'magic-link') return { kind: 'magic-link', code: params.get('code') };
  return null;
}

/** The desktop app's return addresses for one owner connection, under the main process's listener. */
export function desktopReturnUrls(base: string, connectionId: string): { oauthCallback: string; magicLinkCallback: string } {
  const at = (kind: string) => `${base}${kind}?connection=${encodeURIComponent(connectionId)}`;
  return { oauthCallback: at('oauth'), magicLinkCallback: at('magic-link') };
}

/** A return the listener handed over: which connection, and the callback; null for anything else. */
export function ownerCallbackOfReturn(url: string): { connectionId: string; callback: OwnerCallback } | null {
  let at: URL;
  try {
    at = new URL(url);
  } catch {
    return null;
  }
  const connectionId = at.searchParams.get('connection');
  if (!connectionId || at.protocol !== 'http:' || at.hostname !== '127.0.0.1' || !at.pathname.startsWith(SIGN_IN_RETURN_PATH)) return null;
  const kind = at.pathname.slice(SIGN_IN_RETURN_PATH.length);
  if (kind === 'oauth') return { connectionId, callback: { kind: 'oauth', address: url } };
  if (kind === 'magic-link') return { connectionId, callback: { kind: 'magic-link', code: at.searchParams.get('code') } };
  return null;
}

const RETURN_KEY = 'gatehouse-console-return';

const comesBackTo = (route: Route) => route.name === 'project' || route.name === 'projects' || route.name === 'owner-invitation';

/**
 * Remembers where a sign-in started: only places an owner can come back to (not the sign-in screens). An owner
 * invitation's page keeps its code, so that the invitee who signs in or up first comes back to accept it.
 */
export function rememberReturnRoute(storage: Pick<Storage, 'setItem'>, hash: string): void {
  if (comesBackTo(parseRoute(hash))) storage.setItem(RETURN_KEY, hash);
}

/** The remembered place (once: it is forgotten), or the projects list of the connection. */
export function takeReturnRoute(storage: Pick<Storage, 'getItem' | 'removeItem'>, connectionId: string): Route {
  const hash = storage.getItem(RETURN_KEY);
  storage.removeItem(RETURN_KEY);
  const route = hash ? parseRoute(hash) : null;
  return route && comesBackTo(route) && route.connectionId === connectionId ? route : { name: 'projects', connectionId };
}

/**
 * Where the library's redirect after a password sign-in or sign-up (to the projects) goes instead: the owner
 * invitation the sign-in started from, taken once; null for anything else (which stays remembered as it was).
 */
export function takeInvitationReturn(storage: Pick<Storage, 'getItem' | 'removeItem'>, connectionId: string): Route | null {
  const hash = storage.getItem(RETURN_KEY);
  const route = hash ? parseRoute(hash) : null;
  if (route?.name !== 'owner-invitation' || route.connectionId !== connectionId) return null;
  storage.removeItem(RETURN_KEY);
  return route;
}
