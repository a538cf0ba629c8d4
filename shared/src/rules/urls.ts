// URL rules: the schema's URL field check, the server's trusted-redirect rule (protocol-auth §5.3) and the
// client's relative-redirect rule (seed §2, client-library §6.2).
import { generateSecureCode } from './codes';

export const URL_CONTAINS_SPACES = 'contains spaces';
export const URL_NOT_VALID = 'is not a valid URL';

export function parseAbsoluteUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** yup-style message suffixes for a URL field, in the order the reference reports them (`body.x contains spaces`). */
export function urlProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.includes(' ')) problems.push(URL_CONTAINS_SPACES);
  if (!parseAbsoluteUrl(value)) problems.push(URL_NOT_VALID);
  return problems;
}

/** No space and parses as an absolute URL of any scheme. */
export function isValidUrl(value: string): boolean {
  return urlProblems(value).length === 0;
}

export interface TrustedDomain {
  domain: string;
  handler_path?: string;
}

export interface RedirectTrustConfig {
  allowLocalhost: boolean;
  domains: readonly TrustedDomain[];
  /**
   * A native app's loopback return (RFC 8252 §7.3): `http` to the loopback IP literal on any port, under this path.
   * Trusted even where localhost is not (production mode): only the app on the owner's own machine listens there,
   * and the code it receives is useless without the app's PKCE verifier.
   */
  nativeLoopbackPath?: string;
}

/** Where the desktop console listens for its owners' sign-in returns (the internal project trusts it). */
export const DESKTOP_CONSOLE_RETURN_PATH = '/gatehouse-console/';

/** RFC 8252 §7.3 and §8.3: `http://127.0.0.1:{any port}{path}…` or `http://[::1]:{any port}{path}…`; never `localhost`. */
export function isNativeLoopbackRedirect(url: string, path: string): boolean {
  const target = parseAbsoluteUrl(url);
  return target !== undefined && target.protocol === 'http:' && (target.hostname === '127.0.0.1' || target.hostname === '[::1]')
    && target.username === '' && target.password === '' && target.pathname.startsWith(path);
}

/** `localhost`, `*.localhost` or `127.d.d.d` (the WHATWG parser already lower-cases and normalises IPv4). */
export function isLocalhostHostname(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * protocol-auth §5.3: trusted iff absolute and either (allowed) localhost, or some configured domain has the same
 * scheme and hostname (port not compared) and the URL's path starts with the domain's path (plain string prefix;
 * handler_path plays no part). Domains that do not parse are skipped.
 */
export function isTrustedRedirect(url: string, config: RedirectTrustConfig): boolean {
  const target = parseAbsoluteUrl(url);
  if (!target) return false;
  if (config.allowLocalhost && isLocalhostHostname(target.hostname)) return true;
  if (config.nativeLoopbackPath !== undefined && isNativeLoopbackRedirect(url, config.nativeLoopbackPath)) return true;
  return config.domains.some(({ domain }) => {
    const base = parseAbsoluteUrl(domain);
    return (
      base !== undefined &&
      base.protocol === target.protocol &&
      base.hostname === target.hostname &&
      target.pathname.startsWith(base.pathname)
    );
  });
}

/**
 * The client's rule for its own redirects: resolving against a random https origin must keep that origin.
 * `/x`, `x`, `?q`, `#h` are relative; `https://…`, `//host/…`, `javascript:…` are not.
 */
export function isRelativeUrl(url: string): boolean {
  const host = `${generateSecureCode()}.stack-auth.example.com`;
  let resolved: URL;
  try {
    resolved = new URL(url, `https://${host}`);
  } catch {
    return false;
  }
  return resolved.host === host && resolved.protocol === 'https:';
}

export function untrustedRedirectMessage(url: string): string {
  return `Redirect URL ${url} is not trusted; should be relative.`;
}

/** The client's refusal of a redirect target that is not relative: the SDK's message, and the URL for a UI to word. */
export class UntrustedRedirectError extends Error {
  constructor(readonly url: string) {
    super(untrustedRedirectMessage(url));
    this.name = 'Error';
  }
}

export function assertRelativeRedirect(url: string): void {
  if (!isRelativeUrl(url)) throw new UntrustedRedirectError(url);
}

/** Sets `key` (replacing any existing values of it) and keeps every other parameter; used for `code=` links. */
export function withQueryParam(url: string, key: string, value: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(key, value);
  return parsed.toString();
}

/**
 * `url` with `key=value` added to the query of its hash route when its fragment is one (`#/…`, a single-page app's
 * route, such as the console's accept page), else to its own query (withQueryParam).
 */
export function withRouteQueryParam(url: string, key: string, value: string): string {
  const parsed = new URL(url);
  if (!parsed.hash.startsWith('#/')) return withQueryParam(url, key, value);
  const [path, query = ''] = parsed.hash.slice(1).split('?', 2) as [string, string?];
  const params = new URLSearchParams(query);
  params.set(key, value);
  parsed.hash = `${path}?${params}`;
  return parsed.toString();
}

/**
 * Removes `code` and `state` from an OAuth redirect URI (client-library §5.1 step 4). `onRemoved` is called for each
 * parameter that was present (the client logs a warning).
 */
export function stripCodeAndState(url: string, onRemoved?: (key: 'code' | 'state') => void): string {
  const parsed = new URL(url);
  for (const key of ['code', 'state'] as const) {
    if (parsed.searchParams.has(key)) {
      parsed.searchParams.delete(key);
      onRemoved?.(key);
    }
  }
  return parsed.toString();
}
