// Cookie encoding compatible with js-cookie 3 (what the reference SDK writes from the browser), so both SDKs can
// read each other's cookies: value = encodeURIComponent with a few characters left readable; attributes
// `path=/`, then `expires=<UTC date>` (never Max-Age), optional `secure`; no Domain, SameSite or HttpOnly.
import type { ClientTimers } from './timers.ts';

export function encodeCookieName(name: string): string {
  return encodeURIComponent(name)
    .replace(/%(2[346B]|5E|60|7C)/g, decodeURIComponent)
    .replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function encodeCookieValue(value: string): string {
  return encodeURIComponent(value).replace(/%(2[346BF]|3[AC-F]|40|5[BDE]|60|7[BCD])/g, decodeURIComponent);
}

export function decodeCookieValue(value: string): string {
  const unquoted = value[0] === '"' ? value.slice(1, -1) : value;
  return unquoted.replace(/(%[\dA-F]{2})+/gi, decodeURIComponent);
}

/** Parses `a=1; b=2` (a `document.cookie` read or a `Cookie` header). The first occurrence of a name wins. */
export function parseCookies(header: string | null | undefined): Map<string, string> {
  const jar = new Map<string, string>();
  if (!header) return jar;
  for (const part of header.split(/;\s*/)) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    try {
      const name = decodeURIComponent(part.slice(0, eq).trim());
      if (!jar.has(name)) jar.set(name, decodeCookieValue(part.slice(eq + 1)));
    } catch {
      // Malformed percent-encoding in someone else's cookie: skip it, like js-cookie.
    }
  }
  return jar;
}

export interface BrowserCookieAttributes {
  /** Lifetime in seconds; written as an `expires` date. Omitted = session cookie. */
  maxAgeSeconds?: number;
  secure?: boolean;
}

/** The exact string assigned to `document.cookie`. */
export function serializeBrowserCookie(name: string, value: string, attrs: BrowserCookieAttributes, now: number): string {
  let out = `${encodeCookieName(name)}=${encodeCookieValue(value)}; path=/`;
  if (attrs.maxAgeSeconds !== undefined) out += `; expires=${new Date(now + attrs.maxAgeSeconds * 1000).toUTCString()}`;
  if (attrs.secure) out += '; secure';
  return out;
}

/** Deletion = an already-expired cookie with the same path (js-cookie's `remove`). */
export function serializeBrowserCookieDeletion(name: string, now: number): string {
  return `${encodeCookieName(name)}=; path=/; expires=${new Date(now - 864e5).toUTCString()}`;
}

/** Synchronous cookie access used by the token stores and the OAuth verifier. */
export interface CookieJar {
  get(name: string): string | null;
  /** Every cookie whose name starts with `prefix`. */
  list(prefix: string): Map<string, string>;
  set(name: string, value: string, attrs: BrowserCookieAttributes): void;
  remove(name: string): void;
}

export function documentCookieJar(doc: { cookie: string }, timers: Pick<ClientTimers, 'now'>): CookieJar {
  return {
    get: (name) => parseCookies(doc.cookie).get(name) ?? null,
    list: (prefix) => new Map([...parseCookies(doc.cookie)].filter(([k]) => k.startsWith(prefix))),
    set: (name, value, attrs) => {
      doc.cookie = serializeBrowserCookie(name, value, attrs, timers.now());
    },
    remove: (name) => {
      doc.cookie = serializeBrowserCookieDeletion(name, timers.now());
    },
  };
}

/**
 * The hook for framework cookie APIs on a server (e.g. Next.js `cookies()`): read the incoming request's cookies and
 * write response cookies. `set`/`delete` may throw where the host cannot set cookies (read-only rendering); such
 * writes are skipped.
 */
export interface CookieAdapter {
  get(name: string): string | null | undefined;
  set(name: string, value: string, options: { maxAge?: number; secure: boolean }): void;
  delete(name: string): void;
  /** Whether the incoming request came over HTTPS (e.g. `x-forwarded-proto: https`). */
  isHttps?(): boolean;
}
