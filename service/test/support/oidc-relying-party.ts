// A relying party of a project's OpenID provider (issue 27), as an application would be one: openid-client
// (a certified relying party) for discovery, PKCE, the token endpoint, userinfo, revocation and introspection, and a
// browser-like cookie jar to walk the authorization request's redirects without a browser.
import * as oidc from 'openid-client';
import type { RunningService } from './service';
import type { TestProject } from './projects';

export const ALL_SCOPES = 'openid profile email offline_access';

export function issuerUrl(svc: RunningService, projectId: string): URL {
  return new URL(`${svc.url}/oidc/${projectId}`);
}

/** Registers a client through the admin API; answers its id and (confidential) secret. */
export async function registerClient(project: TestProject, body: Record<string, unknown>): Promise<{ clientId: string; clientSecret: string | null; body: any }> {
  const res = await project.admin.post('/oauth-provider/clients', body);
  if (res.status !== 201) throw new Error(`client not created: ${res.status} ${res.text}`);
  return { clientId: res.body.client_id, clientSecret: res.body.client_secret, body: res.body };
}

/** openid-client's configuration for the client, by discovery of the project's issuer (over http, on loopback). */
export function discover(svc: RunningService, projectId: string, clientId: string, clientSecret?: string | null): Promise<oidc.Configuration> {
  const auth = clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None();
  return oidc.discovery(issuerUrl(svc, projectId), clientId, undefined, auth, { execute: [oidc.allowInsecureRequests] });
}

export interface AuthorizationStart { url: URL; verifier: string; state: string }

export async function startAuthorization(config: oidc.Configuration, redirectUri: string, scope = ALL_SCOPES, extra: Record<string, string> = {}): Promise<AuthorizationStart> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    // OpenID Connect Core §11: offline_access is honoured only with prompt=consent.
    ...(scope.split(' ').includes('offline_access') ? { prompt: 'consent' } : {}),
    redirect_uri: redirectUri, scope, state, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', ...extra,
  });
  return { url, verifier, state };
}

/** A fetch that keeps cookies (by name, for one origin) and never follows redirects: a browser's tab, step by step. */
export class CookieJar {
  private cookies = new Map<string, string>();

  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name); else this.cookies.set(name, value);
    }
    return res;
  }
}

/** Opens the authorization URL: answers the consent page's interaction id (the provider redirects there). */
export async function openAuthorization(jar: CookieJar, start: AuthorizationStart): Promise<{ interactionId: string; consentUrl: URL }> {
  const res = await jar.fetch(start.url);
  const location = res.headers.get('location');
  if (res.status !== 303 || !location) throw new Error(`authorization request not sent to consent: ${res.status} ${await res.text()}`);
  const consentUrl = new URL(location, start.url);
  return { interactionId: consentUrl.searchParams.get('interaction') ?? '', consentUrl };
}

/** Follows the provider's redirects from `url` until one leaves the issuer: the application's callback URL. */
export async function followToApplication(jar: CookieJar, url: string | URL, issuer: URL): Promise<URL> {
  let next = new URL(url, issuer);
  for (let hops = 0; hops < 5 && next.href.startsWith(issuer.href); hops++) {
    const res = await jar.fetch(next);
    const location = res.headers.get('location');
    if (!location) throw new Error(`provider did not redirect: ${res.status} ${await res.text()}`);
    next = new URL(location, next);
  }
  return next;
}

/** The OAuth error code a refused openid-client call carries (in the body, or in a WWW-Authenticate challenge). */
export async function oauthErrorOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (err) {
    if (err instanceof oidc.ResponseBodyError) return err.error;
    if (err instanceof oidc.WWWAuthenticateChallengeError) return String(err.cause[0]?.parameters.error ?? 'challenge without error');
    if (err instanceof oidc.AuthorizationResponseError) return err.error;
    throw err;
  }
  throw new Error('the call was not refused');
}

/** A form of the provider's device pages (by id): where it posts and its hidden fields (the anti-forgery one). */
export function formOf(html: string, id: string): { action: string; fields: Record<string, string> } {
  const form = new RegExp(`<form id="${id.replace('.', '\\.')}"[^>]*action="([^"]+)"[^>]*>([\\s\\S]*?)</form>`).exec(html);
  if (!form) throw new Error(`no form ${id} in ${html}`);
  const fields: Record<string, string> = {};
  for (const m of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields[m[1]!] = m[2]!;
  return { action: form[1]!, fields };
}

export { oidc };

/**
 * A whole authorization request answered through the consent API with the user's access token (what the account
 * kit's consent page does), without a browser; answers the application's tokens.
 */
export async function signInThroughConsentApi(svc: RunningService, project: TestProject, config: oidc.Configuration, accessToken: string, redirectUri: string, scope = ALL_SCOPES) {
  const jar = new CookieJar();
  const start = await startAuthorization(config, redirectUri, scope);
  const { interactionId } = await openAuthorization(jar, start);
  const answer = await project.client.post(`/oauth-provider/interactions/${interactionId}`, { allow: true }, { accessToken });
  if (answer.status !== 200) throw new Error(`consent not answered: ${answer.status} ${answer.text}`);
  const callback = await followToApplication(jar, answer.body.redirect_to, issuerUrl(svc, project.id));
  return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: start.verifier, expectedState: start.state });
}
