// The authorization_code grant of the outer OAuth flow (protocol-auth §3.6.3): the app redeems the code the
// callback issued, proving with PKCE that it is the app that started the flow.
import { createHash } from 'node:crypto';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as flow from '../repo/oauth-flow';
import { completeSignIn } from '../auth/sign-in';
import type { ClientOrigin } from '../auth/activity';
import { constantTimeEqual, hashSecret } from '../db/secret-hash';
import { trusts } from './callback';

/** An OAuth 2 error response (RFC 6749 §5.2: `error`, `error_description`, status 400); the route renders it. */
export class OAuthRequestError extends Error {
  constructor(readonly error: string, readonly description: string) { super(description); }
}

/** Checks that the client is a project and the secret one of its valid publishable keys. */
export async function assertValidClient(services: Services, clientId: string | undefined, clientSecret: string | undefined, opts: { secretRequired: boolean }) {
  if (!clientId || (opts.secretRequired && !clientSecret)) throw new KnownErrors.InvalidOAuthClientIdOrSecret(null);
  const project = await services.projects.get(clientId);
  if (!project) throw new KnownErrors.InvalidOAuthClientIdOrSecret(null);
  if (clientSecret !== undefined && !(await services.apiKeys.isValid(project.id, 'publishable_client_key', clientSecret))) {
    throw new KnownErrors.InvalidOAuthClientIdOrSecret(null);
  }
  return project;
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

function pkceMatches(method: string, challenge: string, verifier: string | undefined): boolean {
  if (!verifier || !challenge) return false;
  if (method === 'S256') return constantTimeEqual(createHash('sha256').update(verifier).digest('base64url'), challenge);
  if (method === 'plain') return constantTimeEqual(verifier, challenge);
  return false;
}

/** The token response of a redeemed code (the route sends it uncached). */
export async function authorizationCodeGrant(services: Services, body: Record<string, unknown>, clientId?: string, clientSecret?: string, origin?: ClientOrigin): Promise<Record<string, unknown>> {
  const code = str(body.code);
  const redirectUri = str(body.redirect_uri);
  const verifier = str(body.code_verifier);
  if (!clientId) throw new OAuthRequestError('invalid_request', 'Missing parameter: `client_id`');
  // With PKCE the publishable key may be omitted (public client); if sent, it must be valid.
  const project = await assertValidClient(services, clientId, str(clientSecret), { secretRequired: !verifier });
  if (!code) throw new OAuthRequestError('invalid_request', 'Missing parameter: `code`');
  if (!redirectUri) throw new OAuthRequestError('invalid_request', 'Missing parameter: `redirect_uri`');
  if (!URL.canParse(redirectUri)) throw new OAuthRequestError('invalid_request', 'Invalid request: `redirect_uri` is not a valid URI');

  const codeHash = hashSecret(code);
  const row = await flow.findCode(services.db, project.id, codeHash);
  if (!row || row.expiresAt.getTime() <= Date.now()) throw new KnownErrors.InvalidAuthorizationCode();
  if (redirectUri !== row.redirectUri || !trusts(project, redirectUri)) throw new KnownErrors.RedirectUrlNotWhitelisted();
  // A wrong verifier does not burn the code: whoever holds it without the verifier cannot spoil the real exchange.
  if (!pkceMatches(row.codeChallengeMethod, row.codeChallenge, verifier)) throw new KnownErrors.InvalidAuthorizationCode();
  // Of concurrent exchanges of one code, exactly one gets the row.
  const taken = await flow.consumeCode(services.db, project.id, codeHash);
  if (!taken) throw new KnownErrors.InvalidAuthorizationCode();

  // MFA users get MULTI_FACTOR_AUTHENTICATION_REQUIRED with an attempt code (is_new_user false, §3.0), unless the
  // code came from an SSO connection whose IdP enforces MFA itself (sso/sign-in.ts).
  const tokens = await completeSignIn(services, { project, userId: taken.userId, isNewUser: false, origin, ...(taken.mfaSatisfied ? { hasTotp: false } : {}) });
  return {
    access_token: tokens.access_token,
    afterCallbackRedirectUrl: taken.afterCallbackRedirectUrl,
    after_callback_redirect_url: taken.afterCallbackRedirectUrl,
    expires_in: services.config.accessTokenLifetimeSeconds,
    is_new_user: taken.isNewUser,
    newUser: taken.isNewUser,
    refresh_token: tokens.refresh_token,
    scope: 'legacy',
    token_type: 'Bearer',
  };
}
