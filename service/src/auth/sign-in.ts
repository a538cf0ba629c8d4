// The end of every interactive sign-in: users with TOTP MFA get an attempt code instead of tokens.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { MFA_ATTEMPT_CODE_LIFETIME_MS } from '@gatehouse/shared/constants';
import type { Services } from '../services';
import * as users from '../repo/users';
import { createCode } from '../repo/verification-codes';
import { issueSession, type IssuedTokens } from './session-tokens';
import type { ClientOrigin } from './activity';
import type { CounterHit } from '../repo/rate-limits';

/**
 * Issues a new session for the user, unless the user requires TOTP MFA: then throws
 * MULTI_FACTOR_AUTHENTICATION_REQUIRED with an attempt code redeemable at /auth/mfa/sign-in.
 */
export async function completeSignIn(
  services: Services,
  p: {
    projectId: string; userId: string; isNewUser: boolean; origin?: ClientOrigin; /** when the caller already read it */ hasTotp?: boolean;
    /** A password sign-in's rate-limit hits, given back by the session insert (auth/rate-limits.ts `countAttempt`). */
    refund?: readonly CounterHit[];
  },
): Promise<IssuedTokens> {
  if (p.hasTotp ?? (await users.totpSecret(services.db, p.projectId, p.userId)) !== null) {
    const { code } = await createCode(services.db, {
      projectId: p.projectId, type: 'mfa_attempt', expiresInMs: MFA_ATTEMPT_CODE_LIFETIME_MS,
      data: { user_id: p.userId, is_new_user: p.isNewUser },
    });
    throw new KnownErrors.MultiFactorAuthenticationRequired(code);
  }
  return issueSession(services, { projectId: p.projectId, userId: p.userId, origin: p.origin, refund: p.refund });
}
