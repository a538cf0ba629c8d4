// An OIDC connection's relying party, on openid-client (a certified RP): discovery through the outbound guard,
// authorization code with PKCE (S256) and a nonce, and the ID token checked (issuer, audience, nonce, expiry, and its
// signature against the provider's JWKS: non-repudiation checks on).
import * as client from 'openid-client';
import type { Services } from '../services';
import { pinnedFetchTarget } from '../net/outbound-targets';
import type { OidcSettings } from './settings';

/** Requests to the provider go to the address the outbound guard checked (no private targets in production). */
function guardedFetch(services: Services): client.CustomFetch {
  return async (url, options) => {
    const target = await pinnedFetchTarget(url, services.config.outbound);
    const headers = new Headers(options.headers as HeadersInit);
    headers.set('host', target.host);
    return fetch(target.url, {
      ...(options as RequestInit), headers, redirect: 'manual', signal: options.signal ?? AbortSignal.timeout(10_000),
      ...(target.serverName ? { tls: { serverName: target.serverName } } : {}),
    } as RequestInit);
  };
}

const configs = new Map<string, { at: number; config: Promise<client.Configuration> }>();
const CONFIG_TTL_MS = 5 * 60_000;

/** The provider's configuration (discovered, then kept five minutes per issuer, client and secret). */
export function discoverOidc(services: Services, settings: OidcSettings, clientSecret: string | null): Promise<client.Configuration> {
  const key = `${settings.issuer}\u0000${settings.clientId}\u0000${clientSecret ?? ''}`;
  const kept = configs.get(key);
  if (kept && Date.now() - kept.at < CONFIG_TTL_MS) return kept.config;
  const execute = [client.enableNonRepudiationChecks, ...(services.config.isProduction ? [] : [client.allowInsecureRequests])];
  const config = client.discovery(new URL(settings.issuer), settings.clientId, undefined,
    clientSecret ? client.ClientSecretPost(clientSecret) : client.None(),
    { execute, [client.customFetch]: guardedFetch(services), timeout: 10 });
  configs.set(key, { at: Date.now(), config });
  config.catch(() => configs.delete(key));
  return config;
}

export interface OidcStart { location: string; codeVerifier: string; nonce: string }

export async function oidcAuthorizationUrl(config: client.Configuration, input: { redirectUri: string; state: string; loginHint?: string }): Promise<OidcStart> {
  const codeVerifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: input.redirectUri,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state: input.state,
    nonce,
    ...(input.loginHint ? { login_hint: input.loginHint } : {}),
  });
  return { location: url.href, codeVerifier, nonce };
}

/**
 * The ID token's claims after the code exchange, with the UserInfo endpoint's where the ID token leaves them out
 * (providers put `email` and `name` there unless asked otherwise); the UserInfo subject must be the ID token's.
 * Throws with the library's reason when any check fails.
 */
export async function oidcCallback(config: client.Configuration, input: { callbackUrl: URL; state: string; codeVerifier: string; nonce: string }): Promise<Record<string, unknown>> {
  const tokens = await client.authorizationCodeGrant(config, input.callbackUrl, {
    pkceCodeVerifier: input.codeVerifier, expectedState: input.state, expectedNonce: input.nonce, idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error('the provider sent no ID token.');
  if (typeof claims.email === 'string' || !config.serverMetadata().userinfo_endpoint) return claims as Record<string, unknown>;
  const userInfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
  return { ...userInfo, ...claims } as Record<string, unknown>;
}
