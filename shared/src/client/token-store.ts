// Token stores (client-library §2): an observable cell of {accessToken, refreshToken} plus the ways to back it
// (browser cookies with 100 ms tab sync, a framework cookie adapter, memory, a request, explicit tokens, nothing).
import {
  ACCESS_COOKIE,
  ACCESS_COOKIE_MAX_AGE_SECONDS,
  COOKIE_POLL_INTERVAL_MS,
  HTTPS_HINT_COOKIE,
  LEGACY_REFRESH_COOKIE,
  REFRESH_COOKIE_MAX_AGE_SECONDS,
  REFRESH_COOKIE_PREFIX,
} from './constants.ts';
import { parseCookies, type CookieAdapter, type CookieJar } from './cookies.ts';
import type { ClientTimers } from './timers.ts';
import { STACK_HEADERS } from '../constants.ts';

export type TokenPair = { accessToken: string | null; refreshToken: string | null };

export const EMPTY_TOKENS: TokenPair = Object.freeze({ accessToken: null, refreshToken: null });

/** Anything with `headers.get(name)`, e.g. a Fetch `Request` or an incoming request wrapper. */
export type RequestLike = { headers: { get(name: string): string | null | undefined } };

/** Tokens given directly (e.g. from `getAuthJson()` shipped over a non-HTTP transport). */
export type ExplicitTokens = { accessToken?: string | null; refreshToken?: string | null };

/** Framework hook: a store backed by a cookie adapter, created anew for every call. */
export type CookieAdapterTokenStore = { cookieAdapter: CookieAdapter };

export type TokenStoreInit =
  | 'cookie'
  | 'nextjs-cookie'
  | 'memory'
  | RequestLike
  | ExplicitTokens
  | CookieAdapterTokenStore
  | null;

export function tokensEqual(a: TokenPair, b: TokenPair): boolean {
  return a.accessToken === b.accessToken && a.refreshToken === b.refreshToken;
}

export class TokenStore {
  #value: TokenPair;
  #listeners = new Set<(value: TokenPair, old: TokenPair) => void>();
  #writer?: (value: TokenPair) => void;

  constructor(initial: TokenPair, writer?: (value: TokenPair) => void) {
    this.#value = normalize(initial);
    this.#writer = writer;
  }

  get(): TokenPair {
    return this.#value;
  }

  set(value: TokenPair): void {
    const old = this.#value;
    this.#value = normalize(value);
    this.#writer?.(this.#value);
    for (const listener of [...this.#listeners]) listener(this.#value, old);
  }

  /** Called with (new, old) after every `set`. */
  onChange(listener: (value: TokenPair, old: TokenPair) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

function normalize(value: TokenPair): TokenPair {
  for (const [kind, token] of [['Access', value.accessToken], ['Refresh', value.refreshToken]] as const) {
    if (token === 'undefined') {
      throw new Error(
        `${kind} token is the string 'undefined'; it's unlikely this is the correct value. They're supposed to be unguessable!`,
      );
    }
  }
  return Object.freeze({ accessToken: value.accessToken ?? null, refreshToken: value.refreshToken ?? null });
}

/** Unpacks `stack-access` = JSON `[refresh, access]`; only trusted when its refresh token matches. */
export function unpackAccessCookie(raw: string | null | undefined, refreshToken: string | null): string | null {
  if (!raw || !raw.startsWith('["')) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (Array.isArray(parsed) && parsed[0] === refreshToken && typeof parsed[1] === 'string') return parsed[1];
  } catch {
    // not ours
  }
  return null;
}

export function readTokensFromCookies(get: (name: string) => string | null | undefined, projectId: string): TokenPair {
  const refreshToken = get(REFRESH_COOKIE_PREFIX + projectId) ?? get(LEGACY_REFRESH_COOKIE) ?? null;
  return { refreshToken, accessToken: unpackAccessCookie(get(ACCESS_COOKIE), refreshToken) };
}

/**
 * Browser cookie store. Polls the cookies every 100 ms so a sign-in or sign-out in another tab (or by another SDK
 * sharing the cookies) reaches this tab; polling stops if a write fails.
 */
export function createBrowserCookieStore(jar: CookieJar, projectId: string, timers: ClientTimers): TokenStore {
  const read = (current: TokenPair | null): TokenPair => {
    // Lets a server tell that the browser is on HTTPS; browsers silently drop it on insecure origins.
    jar.set(HTTPS_HINT_COOKIE, 'true', { secure: true });
    const tokens = readTokensFromCookies((n) => jar.get(n), projectId);
    if (tokens.accessToken === null && current && tokens.refreshToken === current.refreshToken) {
      tokens.accessToken = current.accessToken;
    }
    return tokens;
  };
  let writesOk = true;
  const store = new TokenStore(read(null), (value) => {
    try {
      writeTokenCookies(value, projectId, {
        set: (name, v, maxAge) => jar.set(name, v, { maxAgeSeconds: maxAge }),
        remove: (name) => jar.remove(name),
      });
      writesOk = true;
    } catch (err) {
      writesOk = false;
      throw err;
    }
  });
  timers.setInterval(() => {
    if (!writesOk) return;
    const next = read(store.get());
    if (!tokensEqual(next, store.get())) store.set(next);
  }, COOKIE_POLL_INTERVAL_MS);
  return store;
}

function writeTokenCookies(
  value: TokenPair,
  projectId: string,
  io: { set(name: string, value: string, maxAgeSeconds: number): void; remove(name: string): void },
): void {
  if (value.refreshToken) io.set(REFRESH_COOKIE_PREFIX + projectId, value.refreshToken, REFRESH_COOKIE_MAX_AGE_SECONDS);
  else io.remove(REFRESH_COOKIE_PREFIX + projectId);
  if (value.accessToken) io.set(ACCESS_COOKIE, JSON.stringify([value.refreshToken, value.accessToken]), ACCESS_COOKIE_MAX_AGE_SECONDS);
  else io.remove(ACCESS_COOKIE);
  io.remove(LEGACY_REFRESH_COOKIE);
}

/** Server-side cookie store through a framework adapter (client-library §2.3); writes the host refuses are skipped. */
export function createAdapterCookieStore(adapter: CookieAdapter, projectId: string): TokenStore {
  const ignore = (fn: () => void) => {
    try {
      fn();
    } catch {
      // read-only context (e.g. rendering): the response cannot carry cookies
    }
  };
  ignore(() => adapter.set(HTTPS_HINT_COOKIE, 'true', { secure: true }));
  const secure = () => !!adapter.get(HTTPS_HINT_COOKIE) || !!adapter.isHttps?.();
  const initial = readTokensFromCookies((n) => adapter.get(n), projectId);
  return new TokenStore(initial, (value) => {
    const isSecure = secure();
    writeTokenCookies(value, projectId, {
      set: (name, v, maxAge) => ignore(() => adapter.set(name, v, { maxAge, secure: isSecure })),
      remove: (name) => ignore(() => adapter.delete(name)),
    });
  });
}

/** Tokens of an incoming request: the `x-stack-auth` header (JSON) first, else its cookies (§2.6). */
export function readTokensFromRequest(request: RequestLike, projectId: string): { tokens: TokenPair; fromHeader: boolean } {
  const header = request.headers.get(STACK_HEADERS.auth);
  if (header !== null && header !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(header);
    } catch (cause) {
      throw new Error(`Invalid x-stack-auth header: ${header}`, { cause });
    }
    if (typeof parsed !== 'object') {
      throw new Error(`Invalid x-stack-auth header: ${header}`, { cause: new Error('x-stack-auth header must be a JSON object') });
    }
    if (parsed === null) {
      throw new Error(`Invalid x-stack-auth header: ${header}`, { cause: new Error('x-stack-auth header must not be null') });
    }
    const obj = parsed as Record<string, unknown>;
    return {
      fromHeader: true,
      tokens: {
        accessToken: typeof obj.accessToken === 'string' ? obj.accessToken : null,
        refreshToken: typeof obj.refreshToken === 'string' ? obj.refreshToken : null,
      },
    };
  }
  const cookies = parseCookies(request.headers.get('cookie'));
  return { fromHeader: false, tokens: readTokensFromCookies((n) => cookies.get(n), projectId) };
}

export function isRequestLike(value: unknown): value is RequestLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    'headers' in value &&
    typeof (value as RequestLike).headers?.get === 'function'
  );
}

export function isExplicitTokens(value: unknown): value is ExplicitTokens {
  return typeof value === 'object' && value !== null && ('accessToken' in value || 'refreshToken' in value);
}

export function isCookieAdapterStore(value: unknown): value is CookieAdapterTokenStore {
  return typeof value === 'object' && value !== null && 'cookieAdapter' in value;
}
