// The outer OAuth flow's second leg (protocol-auth §3.6.2): the provider sends the browser back here; the
// provider code is exchanged, the account resolved (link / sign-in / sign-up), provider tokens stored, and the
// browser sent to the app's redirect_uri with an outer authorization code (5 minutes, single use, stored hashed).
import { randomBytes } from 'node:crypto';
import { redirectTrust } from '../projects/config-validation';
import { KnownError, KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import { isTrustedRedirect } from '@gatehouse/shared/rules/urls';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import * as users from '../repo/users';
import * as accounts from '../repo/oauth-accounts';
import * as flow from '../repo/oauth-flow';
import { isUniqueViolation } from '../db/errors';
import { hashSecret } from '../db/secret-hash';
import { exchangeCode, type OAuthFailure } from './client';
import { clearInnerCookie, innerCookieName, type OuterFlowState } from './outer-flow';
import { enabledProviderConfig, providerClient, providerRedirectUri, resolveEndpoints } from './project-providers';
import { resolveAccount } from './account-resolution';
import { storeProviderTokens } from './provider-tokens';

export const AUTHORIZATION_CODE_LIFETIME_MS = 5 * 60 * 1000;

const COOKIE_NOT_FOUND = 'Inner OAuth cookie not found. This is likely because you refreshed the page during the OAuth sign in process. Please try signing in again';
const INVALID_COOKIE = 'Invalid OAuth cookie. Please try signing in again.';

/** A cookie's value from a Cookie header (the outer flows' browser binding: OAuth's and SSO's). */
export function readCookie(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function trusts(project: Project, url: string): boolean {
  return isTrustedRedirect(url, redirectTrust(project));
}

/** Step 3's failures, as the protocol answers them. */
function exchangeError(providerId: string, failure: OAuthFailure): Error {
  switch (failure.kind) {
    case 'invalid_grant':
      return new StatusError(400, 'Inner OAuth callback failed due to invalid grant. Please try again.');
    case 'access_denied':
      return new KnownErrors.OAuthProviderAccessDenied();
    case 'invalid_client':
      return new StatusError(400, 'Invalid client credentials for this OAuth provider. Please ensure the configuration in the Stack Auth dashboard is correct.');
    case 'unauthorized_scope':
      return new StatusError(400, `The OAuth provider does not allow the requested scope${failure.scope ? ` "${failure.scope}"` : ''}. Please ensure the scope is configured correctly in the provider's settings.`);
    default:
      // The reference answers 500; an upstream failure is the provider's, so 502 with nothing of its response.
      console.error(`OAuth provider ${providerId}: callback failed (${failure.kind} at ${failure.stage}${failure.providerError ? `: ${failure.providerError}` : ''}${failure.status ? `, HTTP ${failure.status}` : ''})`);
      return new StatusError(502, 'The OAuth provider could not complete the sign-in. Please try signing in again.');
  }
}

/**
 * How a callback ended (the route renders it): `completed` (307 to the app's redirect URL with the code), `redirect`
 * (a known error sent to the flow's error redirect URL) or `error` (answered as the error). `clearCookie` expires the
 * flow's cookie, in every outcome.
 */
export type CallbackOutcome = { clearCookie?: string } & (
  | { type: 'completed'; location: string } | { type: 'redirect'; location: string } | { type: 'error'; error: unknown });

export async function handleCallback(services: Services, providerId: string, params: URLSearchParams, cookieHeader: string | null): Promise<CallbackOutcome> {
  // Inner states are ours (base64url); anything else cannot have a cookie, and must not reach a header.
  const given = params.get('state') ?? '';
  const innerState = /^[A-Za-z0-9_-]{1,128}$/.test(given) ? given : '';
  // The cookie is expired in every outcome.
  const clearCookie = innerState ? clearInnerCookie(services, innerState) : undefined;
  try {
    if (!innerState || readCookie(cookieHeader, innerCookieName(services, innerState)) !== 'true') throw new StatusError(400, COOKIE_NOT_FOUND);
    const row = await flow.takeState(services.db, innerState);
    const project = row && (await services.projects.get(row.projectId));
    const data = row?.data as OuterFlowState | undefined;
    if (!row || !project || !data || data.providerId !== providerId) throw new StatusError(400, INVALID_COOKIE);
    try {
      if (row.expiresAt.getTime() <= Date.now()) throw new KnownErrors.OuterOAuthTimeout();
      const location = await complete(services, project, providerId, innerState, data, params);
      return { type: 'completed', location, clearCookie };
    } catch (err) {
      if (err instanceof KnownError && data.errorRedirectUrl && trusts(project, data.errorRedirectUrl)) {
        const url = new URL(data.errorRedirectUrl);
        url.searchParams.set('errorCode', err.errorCode);
        url.searchParams.set('message', err.message);
        url.searchParams.set('details', JSON.stringify(err.details ?? {}));
        return { type: 'redirect', location: url.toString(), clearCookie };
      }
      throw err;
    }
  } catch (err) {
    return { type: 'error', error: err, clearCookie };
  }
}

async function complete(services: Services, project: Project, providerId: string, innerState: string, data: OuterFlowState, params: URLSearchParams): Promise<string> {
  const client = providerClient(services, enabledProviderConfig(project, providerId));
  const resolved = await resolveEndpoints(services, client);
  const exchanged = await exchangeCode({
    provider: resolved,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    redirectUri: providerRedirectUri(services, client.id),
    callbackParams: params,
    expectedState: innerState,
    codeVerifier: data.innerCodeVerifier,
    scopes: data.providerScope ? data.providerScope.split(/\s+/) : [],
    extras: client.extras,
  });
  if (!exchanged.ok) throw exchangeError(providerId, exchanged.failure);
  const info = exchanged.userInfo;

  const linkUserId = data.type === 'link' ? data.linkUserId : null;
  if (linkUserId) {
    if (!(await users.exists(services.db, project.id, linkUserId))) throw new KnownErrors.UserNotFound();
    const connected = await accounts.listForUser(services.db, project.id, linkUserId, providerId);
    if (connected.some((a) => a.providerAccountId !== info.accountId)) throw new KnownErrors.UserAlreadyConnectedToAnotherOAuthConnection();
  }
  if (!trusts(project, data.redirectUri)) throw new KnownErrors.RedirectUrlNotWhitelisted();

  const code = randomBytes(32).toString('hex');
  const run = () =>
    services.db.transaction(async (tx) => {
      const account = await resolveAccount(services.events, tx, project, { providerId, info, type: data.type, linkUserId });
      await storeProviderTokens(tx, services, { projectId: project.id, userId: account.userId, providerId, providerAccountId: info.accountId, tokens: exchanged });
      await flow.purgeExpiredCodes(tx, project.id);
      await flow.insertCode(tx, {
        codeHash: hashSecret(code),
        projectId: project.id,
        userId: account.userId,
        redirectUri: data.redirectUri,
        codeChallenge: data.codeChallenge,
        codeChallengeMethod: data.codeChallengeMethod,
        isNewUser: account.isNewUser,
        afterCallbackRedirectUrl: data.afterCallbackRedirectUrl,
        expiresAt: new Date(Date.now() + AUTHORIZATION_CODE_LIFETIME_MS),
      });
    });
  try {
    await run();
  } catch (err) {
    // Two first sign-ins of one account (or email) at once: the loser's transaction is undone; once more, it
    // finds what the winner created and signs in (or merges) instead.
    if (!isUniqueViolation(err) && !(err instanceof KnownErrors.UserEmailAlreadyExists)) throw err;
    await run();
  }

  const target = new URL(data.redirectUri);
  target.searchParams.set('code', code);
  target.searchParams.set('state', data.state);
  return target.toString();
}
