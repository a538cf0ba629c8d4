// Password sign-in (protocol-auth §3.1): POST /auth/password/sign-in. Two statements on success (issue 16 §3): the
// rate-limit hit carrying the account read, and the session insert carrying the hits' refund
// (service/test/signup-statements.test.ts counts them).
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import * as users from '../repo/users';
import type { ClientOrigin } from './activity';
import { assertPasswordAuthEnabled } from './password-policy';
import { byEmail, byEmailAndIp, byIp, countAttempt, isOwnerAddress, refundAttempt } from './rate-limits';
import type { IssuedTokens } from './session-tokens';
import { completeSignIn } from './sign-in';
import { noteScopeUser } from '../observability/security-events';
import { assertSsoNotRequired } from '../sso/required-domains';

export interface PasswordSignIn {
  project: Project;
  email: string;
  password: string;
  /** The caller's IP (the rate limits' key) and headers: where the new session is used (auth/activity.ts). */
  origin: ClientOrigin;
  /** The user of the access token the request carries, if any (a signed-in client signing in again). */
  signedInUserId?: string;
}

/**
 * Checks the email and password and issues a session (MULTI_FACTOR_AUTHENTICATION_REQUIRED with an attempt code for a
 * user with TOTP). Throws EMAIL_PASSWORD_MISMATCH for an unknown email or a wrong password alike.
 */
export async function signInWithPassword(services: Services, input: PasswordSignIn): Promise<IssuedTokens> {
  const { project, email, password, origin } = input;
  assertPasswordAuthEnabled(project);
  assertSsoNotRequired(project.id, email);
  // Failed attempts are limited per IP, per account from that IP (a guesser elsewhere cannot lock the owner out), and
  // per account over every address (auth/rate-limits.ts). The account's lookup rides in the hit's statement: one
  // round trip fewer beside the hash.
  const checks = [
    byIp(origin.ip, 'sign_in_ip', project.id), byEmailAndIp(origin.ip, 'sign_in_account', project.id, email), byEmail('sign_in_account_all', project.id, email),
  ];
  const { hits, row: found } = await countAttempt(services, checks, { read: 'password_sign_in_facts', projectId: project.id, email }, async (row, over) =>
    // The account's budget spent (issue 30 §3), its password is still checked for the owner's known ways in: a session
    // of the account, or the address that reset the password by mail. Everyone else waits for the window to end.
    over.length === 1 && over[0] === 'sign_in_account_all'
      && ((!!row && row.userId === input.signedInUserId) || (await isOwnerAddress(services, project.id, email, origin.ip))));
  try {
    const hash = found?.passwordHash;
    const checked = hash ? await services.passwords.check(password, hash) : { ok: await services.passwords.verifyAgainstNothing(password), rehash: false };
    if (!found || !checked.ok) {
      // The account's audit entry names its user (never the email typed); the answer stays the same for both.
      if (found) noteScopeUser(found.userId);
      throw new KnownErrors.EmailPasswordMismatch();
    }
    // Imported bcrypt hashes (and older forms) become argon2id of the NFKC password now that it is at hand.
    if (checked.rehash) await users.setPasswordHash(services.db, project.id, found.userId, await services.passwords.hash(password));
    // A success gives the attempt back: the session insert carries the refund.
    return await completeSignIn(services, { project, userId: found.userId, isNewUser: false, origin, hasTotp: found.hasTotp, refund: hits });
  } catch (err) {
    // Reaching MFA means the password was right: a success too, though no session was inserted to carry the refund.
    if (err instanceof KnownErrors.MultiFactorAuthenticationRequired) await refundAttempt(services, hits);
    throw err;
  }
}
