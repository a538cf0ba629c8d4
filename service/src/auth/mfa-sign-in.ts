// Second step of a sign-in for users with TOTP MFA (protocol-auth §3.5): the attempt code from
// MULTI_FACTOR_AUTHENTICATION_REQUIRED plus a TOTP code give the session the first step withheld.
// Wrong TOTP codes are limited per IP (code_attempt_ip, like every code redemption) and per user across attempt
// codes (mfa_attempt_account): a password sign-in that reaches MFA counts as a success, so whoever knows the
// password could otherwise fetch fresh attempt codes, each good for 20 guesses, without end.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import * as users from '../repo/users';
import { claimTotpStep } from '../repo/totp-steps';
import type { ClientOrigin } from './activity';
import { redeemFlowCode } from './flow-emails';
import { byUser, limitFailures } from './rate-limits';
import { issueSession, type IssuedTokens } from './session-tokens';
import { matchTotpStep, TOTP_DRIFT_STEPS, TOTP_PERIOD_SECONDS } from './totp';

// A claimed step must stay recorded while it can still validate (drift window on both sides), plus a margin.
const STEP_MEMORY_MS = (2 * TOTP_DRIFT_STEPS + 2) * TOTP_PERIOD_SECONDS * 1000;

interface AttemptData { user_id?: unknown; is_new_user?: unknown }

export interface TotpSignIn {
  project: Project;
  /** The attempt code of MULTI_FACTOR_AUTHENTICATION_REQUIRED. */
  code: string;
  totp: string;
  origin: ClientOrigin;
}

export async function signInWithTotp(services: Services, input: TotpSignIn): Promise<{ tokens: IssuedTokens; isNewUser: boolean }> {
  const { project, origin } = input;
  const projectId = project.id;
  const row = await redeemFlowCode(services, origin.ip, project, {
    type: 'mfa_attempt', code: input.code, consume: true,
    // A wrong TOTP leaves the attempt code usable (it still counts toward the attempt limit). The user's budget is
    // counted before the check, so parallel guesses cannot slip past it; over it, even the right TOTP is refused
    // (429) until the window ends.
    async validate(attempt) {
      const userId = String((attempt.data as AttemptData).user_id ?? '');
      if (!userId) throw new KnownErrors.InvalidTotpCode();
      await limitFailures(services, [byUser('mfa_attempt_account', projectId, userId)], async () => {
        const secret = await users.totpSecret(services.db, projectId, userId);
        const step = secret ? matchTotpStep(secret, input.totp) : null;
        if (step === null) throw new KnownErrors.InvalidTotpCode();
        if (!(await claimTotpStep(services.db, projectId, userId, step, STEP_MEMORY_MS))) throw new KnownErrors.InvalidTotpCode();
      });
    },
  });
  const data = row.data as AttemptData;
  const tokens = await issueSession(services, { projectId, userId: String(data.user_id), origin });
  return { tokens, isNewUser: data.is_new_user === true };
}
