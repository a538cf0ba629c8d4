// The web console's own return addresses for an owner's sign-in that leaves the page (OAuth, a mailed magic link):
// /console/?auth_callback=oauth and /console/?auth_callback=magic-link. The service's /handler pages belong to the
// demo app and its project, so a console sign-in that came back there ended in the demo. The screen the owner
// started from is kept for the tab (sessionStorage) and opened once signed in.
import { parseRoute, type Route } from './routes';

export type OwnerCallback = { kind: 'oauth' } | { kind: 'magic-link'; code: string | null };

export const OAUTH_CALLBACK_PATH = '/console/?auth_callback=oauth';
export const MAGIC_LINK_CALLBACK_PATH = '/console/?auth_callback=magic-link';

export function ownerCallbackOf(search: string): OwnerCallback | null {
  const params = new URLSearchParams(search);
  const kind = params.get('auth_callback');
  if (kind === 'oauth') return { kind: 'oauth' };
  if (kind === 'magic-link') return { kind: 'magic-link', code: params.get('code') };
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
