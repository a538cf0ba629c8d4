// Which handler page a path shows (client-library §6.1): canonical pages, aliases (redirected), pages the host
// moved elsewhere ("redirect if not handler"), or "not found". Pure, unit-tested.
import type { HandlerUrls } from '@gatehouse/shared/client';

export const HANDLER_PAGES = [
  'sign-in', 'sign-up', 'sign-out', 'email-verification', 'password-reset', 'forgot-password', 'oauth-callback',
  'magic-link-callback', 'account-settings', 'error', 'team-invitation', 'cli-auth-confirm', 'oauth-consent',
] as const;
export type HandlerPage = (typeof HANDLER_PAGES)[number];

/** The config URL each page is checked against; pages without one always render under the handler. */
const CONFIG_KEY: Partial<Record<HandlerPage, keyof HandlerUrls>> = {
  'sign-in': 'signIn', 'sign-up': 'signUp', 'email-verification': 'emailVerification', 'password-reset': 'passwordReset',
  'forgot-password': 'forgotPassword', 'sign-out': 'signOut', 'oauth-callback': 'oauthCallback',
  'magic-link-callback': 'magicLinkCallback', 'team-invitation': 'teamInvitation',
};

const ALIASES: Record<string, HandlerPage> = {
  ...Object.fromEntries(HANDLER_PAGES.map((p) => [p.replaceAll('-', ''), p])),
  login: 'sign-in',
  register: 'sign-up',
};

export type HandlerRoute =
  | { kind: 'page'; page: HandlerPage }
  | { kind: 'redirect'; to: string }
  | { kind: 'not-found' };

function stripSlashes(s: string): string {
  return s.replace(/^\/+|\/+$/g, '');
}

/** The path segment under the handler path (leading and trailing slashes stripped). */
export function handlerSegment(pathname: string, handlerPath: string): string {
  const base = '/' + stripSlashes(handlerPath);
  const path = '/' + stripSlashes(pathname);
  if (path === base) return '';
  return path.startsWith(base + '/') ? stripSlashes(path.slice(base.length)) : stripSlashes(path);
}

/** Is `url` (a config URL) a page inside the handler path? Only its path is compared. */
function isInsideHandler(url: string, handlerPath: string): boolean {
  const path = new URL(url, 'https://handler.invalid').pathname;
  const base = '/' + stripSlashes(handlerPath);
  return path === base || path.startsWith(base + '/');
}

function relativePart(url: string): string {
  const u = new URL(url, 'https://handler.invalid');
  return u.pathname + u.search + u.hash;
}

/** Copies every query parameter of `search` onto `target` (a relative URL). */
function withQuery(target: string, search: string): string {
  const u = new URL(target, 'https://handler.invalid');
  new URLSearchParams(search).forEach((value, key) => u.searchParams.append(key, value));
  return u.pathname + u.search + u.hash;
}

export function resolveHandlerRoute(location: { pathname: string; search: string }, urls: HandlerUrls): HandlerRoute {
  const segment = handlerSegment(location.pathname, urls.handler);
  if ((HANDLER_PAGES as readonly string[]).includes(segment)) {
    const page = segment as HandlerPage;
    const key = CONFIG_KEY[page];
    if (key && !isInsideHandler(urls[key], urls.handler)) return { kind: 'redirect', to: withQuery(relativePart(urls[key]), location.search) };
    return { kind: 'page', page };
  }
  const alias = ALIASES[segment];
  if (alias) return { kind: 'redirect', to: withQuery(`/${stripSlashes(urls.handler)}/${alias}`, location.search) };
  return { kind: 'not-found' };
}
