// A real OpenID provider for tests (the development provider on a free port), and a browser-less walk through its
// login and consent forms. Typical use:
//   const idp = await startOidcFixture();
//   idp.addDevClients(serviceBaseUrl);                  // gatehouse-dev-<provider> / dev-secret
//   env: { ...idp.overridesEnv() }                       // every provider → this issuer
//   idp.setAccount('alice', { email: 'a@x.test', emailVerified: false, name: 'Alice' });
//   const callback = await completeProviderLogin(authorizeRedirectLocation, { login: 'alice' });
//   // `callback` is Gatehouse's /auth/oauth/callback/<provider>?code=…&state=…&iss=…, not yet requested.
import { ISSUER_OVERRIDES_ENV } from '../../src/oauth/endpoints.ts';
import { devProviderClients, startDevOidcProvider, type DevClient, type DevOidcProvider } from '../../src/oauth/dev-provider.ts';

export interface OidcFixture extends DevOidcProvider {
  /** Registers the development clients of all providers, redirecting to `{apiBase}/api/v1/auth/oauth/callback/<id>`. */
  addDevClients(apiBase: string): void;
  /** Environment pointing every provider at this issuer (GATEHOUSE_OAUTH_ISSUER_OVERRIDES). */
  overridesEnv(): Record<string, string>;
}

export async function startOidcFixture(options: { clients?: DevClient[] } = {}): Promise<OidcFixture> {
  const provider = await startDevOidcProvider({ port: 0, clients: options.clients });
  return {
    ...provider,
    addDevClients: (apiBase) => devProviderClients(apiBase).forEach(provider.addClient),
    overridesEnv: () => ({ [ISSUER_OVERRIDES_ENV]: JSON.stringify({ '*': provider.issuer }) }),
  };
}

export interface LoginOptions {
  /** The login name, which is also the provider account id (`sub`). */
  login: string;
  /** false: press "abort" instead of signing in, so the provider answers `error=access_denied`. */
  approve?: boolean;
}

/** How the provider hands the user back: a redirect, or (response_mode=form_post, Apple) an auto-submitted form. */
export type ProviderCallback = { method: 'GET'; url: string } | { method: 'POST'; url: string; body: URLSearchParams };

/**
 * Follows the provider from `authorizationUrl` through its login and consent forms and returns the redirect to the
 * client's redirect_uri, without requesting it. Throws on form_post; use completeProviderLoginRaw for that.
 */
export async function completeProviderLogin(authorizationUrl: string | URL, options: LoginOptions): Promise<string> {
  const callback = await completeProviderLoginRaw(authorizationUrl, options);
  if (callback.method !== 'GET') throw new Error('the provider answered with form_post; use completeProviderLoginRaw');
  return callback.url;
}

export async function completeProviderLoginRaw(authorizationUrl: string | URL, options: LoginOptions): Promise<ProviderCallback> {
  const start = new URL(authorizationUrl);
  const redirectUri = start.searchParams.get('redirect_uri');
  if (!redirectUri) throw new Error('authorization URL has no redirect_uri');
  const isCallback = (url: URL) => `${url.origin}${url.pathname}` === redirectUri.split(/[?#]/)[0];

  const jar = new Map<string, string>();
  let url = start;
  let init: { method: 'GET' | 'POST'; body?: URLSearchParams } = { method: 'GET' };
  for (let step = 0; step < 20; step++) {
    const headers: Record<string, string> = {};
    if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (init.body) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, { method: init.method, body: init.body, headers, redirect: 'manual' });
    keepCookies(jar, response);

    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      const next = new URL(location, url);
      if (isCallback(next)) return { method: 'GET', url: next.href };
      url = next;
      init = { method: 'GET' };
      continue;
    }
    const html = await response.text();
    const form = response.status === 200 ? parseForm(html) : null;
    if (!form) throw new Error(`provider answered ${response.status} at ${url.pathname}: ${html.replace(/<[^>]+>/g, ' ').slice(0, 300)}`);
    const action = new URL(form.action, url);
    if (isCallback(action)) return { method: 'POST', url: action.href, body: form.fields };
    if (options.approve === false) {
      url = new URL(`${url.pathname.replace(/\/$/, '')}/abort`, url);
      init = { method: 'GET' };
      continue;
    }
    if (form.fields.get('prompt') === 'login') {
      form.fields.set('login', options.login);
      form.fields.set('password', 'any');
    }
    url = action;
    init = { method: 'POST', body: form.fields };
  }
  throw new Error('provider login did not reach the redirect_uri in 20 steps');
}

function keepCookies(jar: Map<string, string>, response: Response): void {
  for (const header of response.headers.getSetCookie()) {
    const [pair, ...attributes] = header.split(';');
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const expired = attributes.some((a) => {
      const [k, v = ''] = a.trim().split('=');
      const key = k.toLowerCase();
      return (key === 'max-age' && Number(v) <= 0) || (key === 'expires' && Date.parse(v) <= Date.now());
    });
    if (expired || value === '') jar.delete(name);
    else jar.set(name, value);
  }
}

/** The first form of the page: its action and its named inputs (the dev forms have no other controls). */
function parseForm(html: string): { action: string; fields: URLSearchParams } | null {
  const match = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!match) return null;
  const action = attribute(match[1], 'action') ?? '';
  const fields = new URLSearchParams();
  for (const input of match[2].matchAll(/<input\b([^>]*)>/gi)) {
    const name = attribute(input[1], 'name');
    if (name) fields.append(name, attribute(input[1], 'value') ?? '');
  }
  return { action: decodeEntities(action), fields };
}

function attribute(tag: string, name: string): string | null {
  const match = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(tag);
  return match ? decodeEntities(match[1] ?? match[2]) : null;
}

function decodeEntities(value: string): string {
  return value
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCharCode(parseInt(n, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
