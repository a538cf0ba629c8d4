// The end of every interactive sign-in: users with TOTP MFA get an attempt code instead of tokens.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { MFA_ATTEMPT_CODE_LIFETIME_MS } from '@gatehouse/shared/constants';
import type { Services } from '../services';
import * as users from '../repo/users';
import { createCode } from '../repo/verification-codes';
import { issueSession, type IssuedTokens } from './session-tokens';
import type { ClientOrigin } from './activity';
import type { CounterHit } from '../repo/rate-limits';
import type { Project } from '../repo/projects';

/**
 * Issues a new session for the user, unless the user requires TOTP MFA: then throws
 * MULTI_FACTOR_AUTHENTICATION_REQUIRED with an attempt code redeemable at /auth/mfa/sign-in.
 */
export async function completeSignIn(
  services: Services,
  p: {
    /** The caller's project: its session lifetime is the new session's (no read of the project on the sign-in's path). */
    project: Project; userId: string; isNewUser: boolean; origin?: ClientOrigin; /** when the caller already read it */ hasTotp?: boolean;
    /** A password sign-in's rate-limit hits, given back by the session insert (auth/rate-limits.ts `countAttempt`). */
    refund?: readonly CounterHit[];
  },
): Promise<IssuedTokens> {
  const projectId = p.project.id;
  if (p.hasTotp ?? (await users.totpSecret(services.db, projectId, p.userId)) !== null) {
    const { code } = await createCode(services.db, {
      projectId, type: 'mfa_attempt', expiresInMs: MFA_ATTEMPT_CODE_LIFETIME_MS,
      data: { user_id: p.userId, is_new_user: p.isNewUser },
    });
    throw new KnownErrors.MultiFactorAuthenticationRequired(code);
  }
  return issueSession(services, {
    projectId, userId: p.userId, origin: p.origin, refund: p.refund, expiresInMs: p.project.security.session_lifetime_seconds * 1000,
    accessTokenClaims: p.project.accessTokenClaims,
  });
}
