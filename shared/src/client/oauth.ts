// The outer OAuth flow between this library and the service (client-library §5): PKCE authorize navigation,
// verifier cookie (3600 s, consumed once) and the callback exchange.
import { KnownError, KnownErrors } from '../known-errors.ts';
import { base64UrlEncode } from '../rules/base64.ts';
import { randomBytes, sha256Bytes } from '../rules/codes.ts';
import { stripCodeAndState } from '../rules/urls.ts';
import { decodeKnownError, parseTokenAnswer } from './api-client.ts';
import {
  ACCESS_TOKEN_MIN_REMAINING_MS,
  NETWORK_RETRY_ATTEMPTS,
  NETWORK_RETRY_BASE_DELAY_MS,
  NETWORK_RETRY_JITTER_MIN,
  OAUTH_OUTER_SCOPE,
  OAUTH_STATE_COOKIE_MAX_AGE_SECONDS,
  OAUTH_VERIFIER_COOKIE_PREFIX,
} from './constants.ts';
import { documentCookieJar } from './cookies.ts';
import type { ClientCore } from './core.ts';
import { completeMfa, type SignInTokensJson } from './mfa.ts';
import type { InternalSession } from './session.ts';

export type OAuthFlow =
  | { type: 'authenticate'; provider: string }
  | { type: 'link'; provider: string; providerScope: string; session: InternalSession }
  /** Through a team's SSO connection (issue 28): found by the address's verified domain, or named. */
  | { type: 'sso'; email?: string; connectionId?: string };

export async function createPkce(): Promise<{ verifier: string; challenge: string; state: string }> {
  const verifier = base64UrlEncode(randomBytes(32));
  const challenge = base64UrlEncode(await sha256Bytes(verifier));
  return { verifier, challenge, state: base64UrlEncode(randomBytes(32)) };
}

function requireBrowser(core: ClientCore, what: string) {
  if (!core.browser) throw new Error(`${what} can currently only be called in a browser environment`);
  return core.browser;
}

function callbackRedirectUri(core: ClientCore): string {
  return stripCodeAndState(core.redirector.constructRedirectUrl(core.urls.oauthCallback, 'redirectUri'), (key) =>
    console.warn(`Redirect URL already contains ${key} parameter, removing it as it will be overwritten by the OAuth callback`),
  );
}

/**
 * Navigates to `/auth/oauth/authorize/<provider>` (or, for SSO, `/auth/sso/authorize`, which ends on the same
 * callback page with a code redeemed the same way); the returned promise never resolves.
 */
export async function startOAuthFlow(core: ClientCore, flow: OAuthFlow): Promise<never> {
  const browser = requireBrowser(core, 'signInWithOAuth');
  core.requireTokenStore();
  const { verifier, challenge, state } = await createPkce();
  documentCookieJar(browser.document, core.timers).set(OAUTH_VERIFIER_COOKIE_PREFIX + state, verifier, {
    maxAgeSeconds: OAUTH_STATE_COOKIE_MAX_AGE_SECONDS,
  });
  const redirectUri = callbackRedirectUri(core);
  const key = core.api.options.publishableClientKey;
  if (!key) throw new Error('Admin session token is currently not supported for OAuth');
  const url = new URL(flow.type === 'sso' ? `${core.api.apiRoot}/auth/sso/authorize` : `${core.api.apiRoot}/auth/oauth/authorize/${flow.provider.toLowerCase()}`);
  const params: Record<string, string> = {
    client_id: core.projectId,
    client_secret: key,
    redirect_uri: redirectUri,
    scope: OAUTH_OUTER_SCOPE,
    state,
    grant_type: 'authorization_code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    response_type: 'code',
    ...(flow.type === 'sso' ? {} : { type: flow.type }),
    error_redirect_url: core.redirector.constructRedirectUrl(core.urls.error, 'errorRedirectUrl'),
  };
  if (flow.type === 'link') {
    params.after_callback_redirect_url = core.redirector.constructRedirectUrl(undefined, 'afterCallbackRedirectUrl');
    const tokens = await flow.session.getOrFetchLikelyValidTokens(ACCESS_TOKEN_MIN_REMAINING_MS);
    params.token = tokens?.accessToken ?? '';
    if (flow.providerScope) params.provider_scope = flow.providerScope;
  }
  if (flow.type === 'sso') {
    if (flow.email) params.email = flow.email;
    if (flow.connectionId) params.connection_id = flow.connectionId;
  }
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  browser.location.assign(url.toString());
  return new Promise<never>(() => {});
}

const MISSING_COOKIE_WARNING = (state: string) =>
  [
    `Stack found an outer OAuth callback state in the query parameters, but not in cookies (cookie ${OAUTH_VERIFIER_COOKIE_PREFIX}${state}).`,
    '',
    'This could have multiple reasons:',
    '  - The cookie expired, because the OAuth flow took too long.',
    '  - The user\'s browser deleted the cookie, either manually or because of a very strict cookie policy.',
    '  - The cookie was already consumed by this page, and the user already logged in.',
    '  - You are using another OAuth client library with the same callback URL as Stack.',
    '  - The user opened the OAuth callback page from their history.',
    '',
    'Not doing anything.',
  ].join('\n');

/** §5.3 step 4: the callback parameters must be a plain authorization response for our state and issuer. */
export function validateCallbackParams(params: URLSearchParams, expected: { state: string; issuer: string }): void {
  const problem =
    params.has('error') ? `OAuth error ${params.get('error')}: ${params.get('error_description') ?? ''}`
    : params.has('id_token') || params.has('token') ? 'implicit and hybrid flows are not supported'
    : params.has('iss') && params.get('iss') !== expected.issuer ? 'unexpected "iss" (issuer) response parameter value'
    : params.get('state') !== expected.state ? 'unexpected "state" response parameter value'
    : !params.get('code') ? 'missing "code" response parameter'
    : undefined;
  if (problem) throw new Error('Error validating outer OAuth response', { cause: new Error(problem) });
}

/**
 * Handles the `oauth-callback` page. The part before the first `await` is synchronous, so two concurrent calls
 * cannot both consume the verifier cookie. Returns true when signed in (a redirect has started).
 */
export async function callOAuthCallback(core: ClientCore): Promise<boolean> {
  const browser = requireBrowser(core, 'callOAuthCallback');
  const current = new URL(browser.location.href);
  for (const name of ['code', 'state']) {
    if (!current.searchParams.get(name)) {
      console.warn(`Missing required query parameter on OAuth callback: ${name}. Maybe you opened or reloaded the oauth-callback page from your history?`);
      return false;
    }
  }
  const params = new URLSearchParams(current.searchParams);
  const state = params.get('state')!;
  const jar = documentCookieJar(browser.document, core.timers);
  const cookieName = OAUTH_VERIFIER_COOKIE_PREFIX + state;
  const verifier = jar.get(cookieName);
  if (!verifier) {
    console.warn(MISSING_COOKIE_WARNING(state));
    return false;
  }
  jar.remove(cookieName);
  const cleaned = new URL(current);
  cleaned.searchParams.delete('code');
  cleaned.searchParams.delete('state');
  browser.history?.replaceState(null, '', cleaned.toString());

  let result: SignInTokensJson & { after_callback_redirect_url?: string | null };
  try {
    result = await exchangeCode(core, params, state, verifier);
  } catch (err) {
    if (err instanceof KnownErrors.InvalidTotpCode) {
      browser.alert?.('Invalid TOTP code. Please try signing in again.');
      return false;
    }
    throw err;
  }
  core.signInWithTokens({ accessToken: result.access_token, refreshToken: result.refresh_token });
  // Only to a page of this app's own origin (ASVS 5.1.5): a URL from elsewhere would make the sign-in an open redirect.
  if (result.after_callback_redirect_url && isSameOrigin(result.after_callback_redirect_url, current)) {
    await core.redirector.navigate(result.after_callback_redirect_url, { replace: true });
  } else await core.redirector.redirectTo(result.is_new_user ? 'afterSignUp' : 'afterSignIn', { replace: true });
  return true;
}

function isSameOrigin(url: string, current: string | URL): boolean {
  try { return new URL(url, current).origin === new URL(current).origin; } catch { return false; }
}

async function exchangeCode(core: ClientCore, params: URLSearchParams, state: string, verifier: string) {
  try {
    // Retried like a network failure (client-library §8 #13): a validation failure surfaces after 5 attempts.
    for (let attempt = 0; ; attempt++) {
      try {
        validateCallbackParams(params, { state, issuer: core.api.baseUrl });
        break;
      } catch (err) {
        if (attempt >= NETWORK_RETRY_ATTEMPTS - 1) throw err;
        await core.timers.sleep((core.timers.random() + NETWORK_RETRY_JITTER_MIN) * NETWORK_RETRY_BASE_DELAY_MS * 2 ** attempt);
      }
    }
    const res = await core.api.sendTokenRequest(
      {
        grant_type: 'authorization_code',
        code: params.get('code')!,
        redirect_uri: callbackRedirectUri(core),
        code_verifier: verifier,
        client_id: core.projectId,
        client_secret: core.api.options.publishableClientKey ?? '',
      },
      false,
    );
    const known = await decodeKnownError(res.clone()).catch(() => undefined);
    const body = parseTokenAnswer(await res.text());
    if (known instanceof KnownErrors.MultiFactorAuthenticationRequired || body?.code === 'MULTI_FACTOR_AUTHENTICATION_REQUIRED') {
      const attemptCode = body?.details?.attempt_code;
      return await completeMfa(core, typeof attemptCode === 'string' ? attemptCode : undefined);
    }
    if (known) throw known;
    if (!res.ok || typeof body?.error === 'string') throw new Error('Outer OAuth error during authorization code response', { cause: body });
    if (typeof body?.access_token !== 'string') throw new Error('Access token not found in outer OAuth response');
    if (typeof body?.refresh_token !== 'string') throw new Error('Refresh token not found in outer OAuth response');
    const afterCallback = body.after_callback_redirect_url;
    return {
      access_token: body.access_token,
      refresh_token: body.refresh_token,
      is_new_user: body.is_new_user === true,
      after_callback_redirect_url: typeof afterCallback === 'string' ? afterCallback : null,
    } satisfies SignInTokensJson & { after_callback_redirect_url: string | null };
  } catch (err) {
    if (err instanceof KnownError) throw err;
    throw new Error('Error signing in during OAuth callback. Please try again.', { cause: err });
  }
}
