// The outer OAuth flow's first leg (protocol-auth §3.6.1): checks the app's request, stores the flow's state
// server-side for 10 minutes (GATEHOUSE_OAUTH_FLOW_LIFETIME_SECONDS), binds it to the browser with a cookie and
// sends the browser to the provider.
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import type { OAuthAuthorizeQuery } from '@gatehouse/shared/schemas/oauth';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import * as users from '../repo/users';
import * as flow from '../repo/oauth-flow';
import { assertTrustedCallback } from '../auth/flow-emails';
import { buildAuthorizationUrl, generateCodeVerifier, generateState } from './client';
import { enabledProviderConfig, providerClient, providerRedirectUri, resolveEndpoints } from './project-providers';
import type { ProviderId } from './providers';

export const INNER_COOKIE_PREFIX = 'stack-oauth-inner-';

/** What the callback needs from the authorize request (the `data` of an oauth_states row). */
export interface OuterFlowState {
  providerId: ProviderId;
  redirectUri: string;
  scope: string;
  state: string;
  grantType: string;
  codeChallenge: string;
  codeChallengeMethod: 'S256' | 'plain';
  responseType: string;
  innerCodeVerifier: string;
  type: 'authenticate' | 'link';
  linkUserId: string | null;
  providerScope: string | null;
  errorRedirectUrl: string | null;
  afterCallbackRedirectUrl: string | null;
}

/**
 * The browser-binding cookie. HttpOnly; Secure outside development (or whenever the API is served over https).
 * SameSite=Lax keeps it on the provider's top-level redirect back; a form_post callback (Apple) is a cross-site
 * POST, which Lax would strip, so there it is SameSite=None when Secure, and left unset otherwise.
 */
function innerCookieSecure(services: Services): boolean {
  return services.config.isProduction || services.config.publicUrl.startsWith('https:');
}

/**
 * The cookie's name. When it is Secure it carries the `__Host-` prefix (ASVS 3.4.4): the browser then takes it only
 * from a secure origin, with Path=/ and no Domain, so a sibling subdomain or a plain-http page cannot plant or
 * overwrite it. Over http (development on http://localhost) the prefix would make browsers drop it, so the
 * protocol's plain name is used there. Only the service sets and reads this cookie; the Stack client never sees it.
 */
export function innerCookieName(services: Services, innerState: string): string {
  return `${innerCookieSecure(services) ? '__Host-' : ''}${INNER_COOKIE_PREFIX}${innerState}`;
}

export function innerCookie(services: Services, innerState: string, value: string, opts: { maxAgeSeconds: number; formPost: boolean }): string {
  const secure = innerCookieSecure(services);
  const expires = new Date(opts.maxAgeSeconds > 0 ? Date.now() + opts.maxAgeSeconds * 1000 : 0).toUTCString();
  const parts = [`${innerCookieName(services, innerState)}=${value}`, 'Path=/', `Expires=${expires}`, `Max-Age=${opts.maxAgeSeconds}`, 'HttpOnly'];
  if (secure) parts.push('Secure');
  if (!opts.formPost) parts.push('SameSite=Lax');
  else if (secure) parts.push('SameSite=None');
  return parts.join('; ');
}

export function clearInnerCookie(services: Services, innerState: string): string {
  return innerCookie(services, innerState, '', { maxAgeSeconds: 0, formPost: false });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** client_id = project id, client_secret = one of its publishable keys. */
export async function authorizeClient(services: Services, clientId: string, clientSecret: string): Promise<Project> {
  const project = clientId === 'internal' || UUID.test(clientId) ? await services.projects.get(clientId) : null;
  if (!project) throw new KnownErrors.InvalidOAuthClientIdOrSecret(clientId);
  if (!(await services.apiKeys.isValid(project.id, 'publishable_client_key', clientSecret))) {
    throw new KnownErrors.InvalidPublishableClientKey(project.id);
  }
  return project;
}

/** `type=link`: the user's access token must be valid and for this project (and its main branch). */
async function linkingUser(services: Services, project: Project, token: string): Promise<string> {
  const claims = await services.tokens.verify(token);
  if (claims.aud !== project.id) throw new StatusError(403, 'The access token is not valid for this project');
  if (services.revokedSessions.has(claims.refreshTokenId)) throw new KnownErrors.AccessTokenExpired(null);
  if (claims.branchId !== 'main') throw new StatusError(403, 'The access token is not valid for this branch');
  if (!(await users.exists(services.db, project.id, claims.sub))) throw new KnownErrors.UserNotFound();
  return claims.sub;
}

/** Where to send the browser (the provider's authorization URL) and the flow's cookie (the route redirects). */
export async function startAuthorization(services: Services, providerId: string, q: OAuthAuthorizeQuery): Promise<{ location: string; setCookie: string }> {
  const project = await authorizeClient(services, q.client_id, q.client_secret);
  if (q.scope !== 'legacy') throw new KnownErrors.InvalidScope(q.scope);
  const config = enabledProviderConfig(project, providerId);
  const type = q.type ?? 'authenticate';
  const linkUserId = type === 'link' ? await linkingUser(services, project, q.token ?? '') : null;
  const providerScope = q.provider_scope?.trim() ? q.provider_scope.trim() : null;
  if (providerScope && config.type === 'shared') throw new KnownErrors.OAuthExtraScopeNotAvailableWithSharedOAuthKeys();

  const client = providerClient(services, config);
  const resolved = await resolveEndpoints(services, client);
  const innerState = generateState();
  const innerCodeVerifier = generateCodeVerifier();
  // Kept as sent (minus the fragment): the token request must repeat it exactly, so no URL normalisation.
  const redirectUri = q.redirect_uri.split('#')[0];
  // Checked now, not only when used (ASVS 5.1.5): the flow must not end on a page outside the project's domains.
  if (q.after_callback_redirect_url) assertTrustedCallback(project, q.after_callback_redirect_url);
  const data: OuterFlowState = {
    providerId: client.id,
    redirectUri,
    scope: q.scope,
    state: q.state,
    grantType: q.grant_type,
    codeChallenge: q.code_challenge,
    codeChallengeMethod: q.code_challenge_method,
    responseType: q.response_type,
    innerCodeVerifier,
    type,
    linkUserId,
    providerScope,
    errorRedirectUrl: q.error_redirect_uri ?? q.error_redirect_url ?? null,
    afterCallbackRedirectUrl: q.after_callback_redirect_url ?? null,
  };
  const location = await buildAuthorizationUrl({
    provider: resolved,
    clientId: client.clientId,
    redirectUri: providerRedirectUri(services, client.id),
    state: innerState,
    codeVerifier: innerCodeVerifier,
    scopes: providerScope ? providerScope.split(/\s+/) : [],
    extras: client.extras,
  });
  await flow.purgeExpiredStates(services.db, project.id);
  const lifetimeSeconds = services.config.oauthFlowLifetimeSeconds;
  await flow.insertState(services.db, { innerState, projectId: project.id, data, expiresAt: new Date(Date.now() + lifetimeSeconds * 1000) });
  const formPost = resolved.authorizationParams.response_mode === 'form_post';
  return { location: location.toString(), setCookie: innerCookie(services, innerState, 'true', { maxAgeSeconds: lifetimeSeconds, formPost }) };
}
