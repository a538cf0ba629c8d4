// The inner OAuth client (protocol-auth §3.6): Gatehouse signing in with a provider, on oauth4webapi.
// Failures come back as typed results, never thrown, so the callback route can answer as §3.6.2 step 3 says.
// Nothing here logs; failures carry only the provider's error code/description, never tokens, codes or secrets.
import * as oauth from 'oauth4webapi';
import { resolveProviderEndpoints, unique, type ResolvedProvider } from './endpoints.ts';
import { mapOidcClaims, type ProviderId, type ProviderUserInfo } from './providers.ts';

export type ProviderRef = ProviderId | ResolvedProvider;

/** Per-project provider settings (protocol-auth §3.6: `microsoft_tenant_id`, `facebook_config_id`). */
export interface ProviderExtras {
  microsoftTenantId?: string | null;
  /** Facebook Login for Business configuration id, sent as `config_id`. */
  facebookConfigId?: string | null;
}

/**
 * How the callback answers each kind (protocol-auth §3.6.2 step 3):
 * invalid_grant ⇒ plain 400 "Inner OAuth callback failed due to invalid grant. Please try again.";
 * access_denied ⇒ OAUTH_PROVIDER_ACCESS_DENIED; invalid_client ⇒ plain 400 "Invalid client credentials…";
 * unauthorized_scope ⇒ plain 400 about the scope; invalid_state and other ⇒ 500.
 */
export type OAuthFailureKind = 'invalid_grant' | 'access_denied' | 'invalid_client' | 'unauthorized_scope' | 'invalid_state' | 'other';

export interface OAuthFailure {
  kind: OAuthFailureKind;
  /** Where it failed: resolving the provider, the callback parameters, the token endpoint, or user info. */
  stage: 'discovery' | 'callback' | 'token' | 'userinfo';
  /** The provider's `error` code, if it sent one. */
  providerError?: string;
  description?: string;
  /** For unauthorized_scope: the scope the provider refused, when it names it. */
  scope?: string;
  /** HTTP status of the provider's response, when there was one. */
  status?: number;
}

export type OAuthResult<T> = ({ ok: true } & T) | { ok: false; failure: OAuthFailure };

export interface ProviderTokens {
  accessToken: string;
  refreshToken?: string;
  expiresAt?: Date;
  /** The provider's base scopes plus the extra ones asked for: what the tokens are stored with (§3.6.2 step 5). */
  scopes: string[];
  /** Only when validated: Apple's, or the override issuer's. */
  idToken?: string;
}

export const generateState = oauth.generateRandomState;
export const generateCodeVerifier = oauth.generateRandomCodeVerifier;

const REQUEST_TIMEOUT_MS = 15_000;

async function resolve(provider: ProviderRef, extras?: ProviderExtras): Promise<ResolvedProvider> {
  if (typeof provider !== 'string') return provider;
  return resolveProviderEndpoints(provider, { microsoftTenantId: extras?.microsoftTenantId });
}

/** Base scopes of the provider plus `extraScopes` (protocol-auth's `provider_scope`), de-duplicated. */
export function providerScopes(provider: ResolvedProvider, extraScopes: readonly string[] = []): string[] {
  return unique([...provider.definition.baseScopes, ...extraScopes.flatMap((s) => s.split(/\s+/))]);
}

export interface AuthorizationUrlInput {
  provider: ProviderRef;
  clientId: string;
  redirectUri: string;
  state: string;
  /** Ignored for providers without PKCE (LinkedIn). */
  codeVerifier: string;
  /** Extra provider scopes, added to the base scopes. */
  scopes?: readonly string[];
  extras?: ProviderExtras;
}

/** The provider URL the authorize route redirects to (protocol-auth §3.6.1 "Response"). */
export async function buildAuthorizationUrl(input: AuthorizationUrlInput): Promise<URL> {
  const p = await resolve(input.provider, input.extras);
  const url = new URL(p.authorizationServer.authorization_endpoint!);
  const params = url.searchParams;
  params.set('client_id', input.clientId);
  params.set('redirect_uri', input.redirectUri);
  params.set('response_type', 'code');
  params.set('scope', unique([...p.requestScopes, ...providerScopes(p, input.scopes)]).join(' '));
  params.set('state', input.state);
  if (p.pkce) {
    params.set('code_challenge', await oauth.calculatePKCECodeChallenge(input.codeVerifier));
    params.set('code_challenge_method', 'S256');
  }
  params.set('access_type', 'offline');
  for (const [key, value] of Object.entries(p.authorizationParams)) params.set(key, value);
  if (p.id === 'facebook' && input.extras?.facebookConfigId) params.set('config_id', input.extras.facebookConfigId);
  return url;
}

export interface ExchangeCodeInput {
  provider: ProviderRef;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** The callback's query (or, for Apple's form_post, its body). */
  callbackParams: URLSearchParams;
  expectedState: string;
  codeVerifier: string;
  /** Extra provider scopes the flow asked for (reported back in `scopes`). */
  scopes?: readonly string[];
  extras?: ProviderExtras;
}

/** Callback step 3: check the callback, redeem the code, fetch and map the provider's user info. */
export async function exchangeCode(input: ExchangeCodeInput): Promise<OAuthResult<ProviderTokens & { userInfo: ProviderUserInfo }>> {
  let p: ResolvedProvider;
  try {
    p = await resolve(input.provider, input.extras);
  } catch (err) {
    return fail(classify(err, 'discovery'));
  }
  const client: oauth.Client = { client_id: input.clientId };

  let validated: URLSearchParams;
  try {
    const params = new URLSearchParams(input.callbackParams);
    // A real provider's callback has its own URL, so mix-up is moot, and we know no provider's exact `iss` string.
    if (!p.issuerOverride) params.delete('iss');
    validated = oauth.validateAuthResponse(p.authorizationServer, client, params, input.expectedState);
    if (!validated.get('code')) return fail({ kind: 'invalid_grant', stage: 'callback', description: 'no code in the callback' });
  } catch (err) {
    return fail(classify(err, 'callback'));
  }

  let token: oauth.TokenEndpointResponse;
  try {
    const response = await oauth.authorizationCodeGrantRequest(
      p.authorizationServer,
      client,
      clientAuth(p, input.clientSecret),
      validated,
      input.redirectUri,
      p.pkce ? input.codeVerifier : oauth.nopkce,
      requestOptions(p),
    );
    token = await oauth.processAuthorizationCodeResponse(p.authorizationServer, client, await normalizeTokenResponse(p, response));
  } catch (err) {
    return fail(classify(err, 'token'));
  }

  const idTokenClaims = oauth.getValidatedIdTokenClaims(token) as Record<string, unknown> | undefined;
  let userInfo: ProviderUserInfo;
  try {
    userInfo = await fetchUserInfo(p, client, token.access_token, idTokenClaims, input.callbackParams);
  } catch (err) {
    return fail(classify(err, 'userinfo'));
  }
  return { ok: true, ...tokensOf(p, token, input.scopes), userInfo };
}

export interface RefreshInput {
  provider: ProviderRef;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  /** Extra provider scopes the stored token was granted (reported back in `scopes`). */
  scopes?: readonly string[];
  extras?: ProviderExtras;
}

/** New provider tokens from a stored refresh token (§3.6.5). Keeps the old refresh token if none is issued. */
export async function refreshAccessToken(input: RefreshInput): Promise<OAuthResult<ProviderTokens>> {
  try {
    const p = await resolve(input.provider, input.extras);
    const client: oauth.Client = { client_id: input.clientId };
    try {
      const response = await oauth.refreshTokenGrantRequest(
        p.authorizationServer,
        client,
        clientAuth(p, input.clientSecret),
        input.refreshToken,
        requestOptions(p),
      );
      const token = await oauth.processRefreshTokenResponse(p.authorizationServer, client, await normalizeTokenResponse(p, response));
      const tokens = tokensOf(p, token, input.scopes);
      return { ok: true, ...tokens, refreshToken: tokens.refreshToken ?? input.refreshToken };
    } catch (err) {
      return fail(classify(err, 'token'));
    }
  } catch (err) {
    return fail(classify(err, 'discovery'));
  }
}

// ── internals ───────────────────────────────────────────────────────────────────────────────────────────────────

function fail(failure: OAuthFailure): { ok: false; failure: OAuthFailure } {
  return { ok: false, failure };
}

function clientAuth(p: ResolvedProvider, clientSecret: string): oauth.ClientAuth {
  return p.tokenEndpointAuthMethod === 'client_secret_basic' ? oauth.ClientSecretBasic(clientSecret) : oauth.ClientSecretPost(clientSecret);
}

function requestOptions(p: ResolvedProvider) {
  return { [oauth.allowInsecureRequests]: p.allowInsecureRequests, signal: () => AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
}

function tokensOf(p: ResolvedProvider, token: oauth.TokenEndpointResponse, extraScopes?: readonly string[]): ProviderTokens {
  return {
    accessToken: token.access_token,
    ...(token.refresh_token ? { refreshToken: token.refresh_token } : {}),
    ...(typeof token.expires_in === 'number' ? { expiresAt: new Date(Date.now() + token.expires_in * 1000) } : {}),
    scopes: providerScopes(p, extraScopes),
    ...(token.id_token ? { idToken: token.id_token } : {}),
  };
}

/**
 * Smooths over token responses oauth4webapi would reject though nothing is wrong with the tokens, and over
 * GitHub's habit of answering errors with 200. id_tokens Gatehouse does not use are dropped unvalidated: their
 * issuers are not fixed strings (Microsoft's names the user's tenant) and would fail sign-in for nothing.
 */
async function normalizeTokenResponse(p: ResolvedProvider, response: Response): Promise<Response> {
  if (response.status !== 200) return response;
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    return response;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return response;
  const json: Record<string, unknown> = { ...body };
  let status = 200;
  if (typeof json.error === 'string') {
    status = 400;
  } else {
    json.token_type ??= 'bearer';
    if (json.scope === undefined && typeof json.scopes === 'string') json.scope = json.scopes; // Bitbucket
    if (Array.isArray(json.scope)) json.scope = json.scope.join(' ');
    if (!p.issuerOverride && !p.definition.usesIdToken) delete json.id_token;
  }
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(json), { status, headers });
}

async function fetchUserInfo(
  p: ResolvedProvider,
  client: oauth.Client,
  accessToken: string,
  idTokenClaims: Record<string, unknown> | undefined,
  callbackParams: URLSearchParams,
): Promise<ProviderUserInfo> {
  if (p.issuerOverride) {
    const response = await oauth.userInfoRequest(p.authorizationServer, client, accessToken, requestOptions(p));
    const expectedSubject = typeof idTokenClaims?.sub === 'string' ? idTokenClaims.sub : oauth.skipSubjectCheck;
    const claims = await oauth.processUserInfoResponse(p.authorizationServer, client, expectedSubject, response);
    return mapOidcClaims(claims, p.id);
  }
  if (p.definition.usesIdToken && !idTokenClaims) throw new Error(`${p.id} returned no id_token`);
  const entries = await Promise.all(
    Object.entries(p.definition.userInfoRequests).map(async ([key, url]) => {
      const response = await fetch(url, {
        headers: { accept: 'application/json', 'user-agent': 'Gatehouse', ...p.definition.userInfoHeaders, authorization: `Bearer ${accessToken}` },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      if (!response.ok) throw new UserInfoHttpError(response.status);
      return [key, await response.json()] as const;
    }),
  );
  return p.definition.mapUserInfo({ responses: Object.fromEntries(entries), idTokenClaims, callbackParams });
}

class UserInfoHttpError extends Error {
  constructor(readonly status: number) {
    super(`user info request failed with HTTP ${status}`);
  }
}

/** Provider error codes by kind; anything unlisted is "other". */
const ERROR_KINDS: Record<string, OAuthFailureKind> = {
  invalid_grant: 'invalid_grant',
  bad_verification_code: 'invalid_grant', // GitHub: expired or already used code
  access_denied: 'access_denied',
  consent_required: 'access_denied',
  invalid_client: 'invalid_client',
  unauthorized_client: 'invalid_client',
  incorrect_client_credentials: 'invalid_client', // GitHub
  invalid_scope: 'unauthorized_scope',
  unauthorized_scope_error: 'unauthorized_scope', // LinkedIn
};

function fromProviderError(
  stage: OAuthFailure['stage'],
  error: string,
  description: string | undefined,
  extra: { status?: number; scope?: unknown } = {},
): OAuthFailure {
  const kind = ERROR_KINDS[error] ?? 'other';
  const failure: OAuthFailure = { kind, stage, providerError: error };
  if (description) failure.description = description;
  if (extra.status !== undefined) failure.status = extra.status;
  if (kind === 'unauthorized_scope') {
    // LinkedIn: `Scope "r_emailaddress" is not authorized for your application`.
    const named = typeof extra.scope === 'string' ? extra.scope : description?.match(/scope "([^"]+)"/i)?.[1];
    if (named) failure.scope = named;
  }
  return failure;
}

function classify(err: unknown, stage: OAuthFailure['stage']): OAuthFailure {
  if (err instanceof oauth.AuthorizationResponseError) {
    return fromProviderError(stage, err.error, err.error_description, { scope: err.cause.get('scope') ?? undefined });
  }
  if (err instanceof oauth.ResponseBodyError) {
    return fromProviderError(stage, err.error, err.error_description, { status: err.status, scope: err.cause.scope });
  }
  if (err instanceof oauth.WWWAuthenticateChallengeError) {
    const params = err.cause[0]?.parameters;
    if (params?.error) return fromProviderError(stage, params.error, params.error_description, { status: err.status, scope: params.scope });
    // A bare 401 challenge from the token endpoint means it did not accept our client credentials.
    return { kind: err.status === 401 && stage === 'token' ? 'invalid_client' : 'other', stage, status: err.status };
  }
  if (err instanceof UserInfoHttpError) return { kind: 'other', stage, status: err.status, description: err.message };
  const description = err instanceof Error ? err.message : String(err);
  if (stage === 'callback' && err instanceof oauth.OperationProcessingError && /"state"/.test(description)) {
    return { kind: 'invalid_state', stage, description };
  }
  return { kind: 'other', stage, description };
}
