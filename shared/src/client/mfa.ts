// TOTP multi-factor continuation of a sign-in (client-library §3.7).
import { hasCode, loadKnownErrors } from './known-error-catalogue.ts';
import type { ClientCore } from './core.ts';
import type { MfaSignInBody, SignInTokensWithNewUserJson } from './wire.ts';

/**
 * What a sign-in answers (shared/src/schemas/mfa.ts, auth.ts); the OAuth token endpoint's answer (RFC 6749) has
 * neither `is_new_user` nor `user_id`, hence optional here.
 */
export type SignInTokensJson = Omit<SignInTokensWithNewUserJson, 'is_new_user' | 'user_id'> & Partial<Pick<SignInTokensWithNewUserJson, 'is_new_user' | 'user_id'>>;

export const TOTP_PROMPT_TEXT = 'Please enter the six-digit TOTP code from your authenticator app.';

/**
 * Asks for the TOTP code (the `mfaPrompt` option, else a prompt installed by a UI layer, else the browser's
 * blocking prompt) and POSTs `/auth/mfa/sign-in` with the attempt code. A prompt may check codes itself through
 * `verify` (the account kit's dialog does, so a mistyped code is shown under the field and the person tries again:
 * the server keeps the attempt code after a wrong TOTP, protocol-auth §3.5). Cancelled, or the attempt over →
 * InvalidTotpCode ("please try signing in again").
 */
export async function completeMfa(core: ClientCore, attemptCode: string | undefined): Promise<SignInTokensJson> {
  if (!attemptCode) throw new Error('attempt code missing');
  const post = (totp: string) =>
    core.json<SignInTokensWithNewUserJson, MfaSignInBody>('/auth/mfa/sign-in', { method: 'POST', body: { code: attemptCode, type: 'totp', totp } }, null, 'client');
  let signedIn: SignInTokensJson | undefined;
  let failure: unknown;
  const verify = async (totp: string): Promise<'ok' | 'invalid' | 'failed'> => {
    try {
      signedIn = await post(totp);
      return 'ok';
    } catch (err) {
      if (hasCode('INVALID_TOTP_CODE')(err)) return 'invalid';
      failure = err;
      return 'failed';
    }
  };
  const prompt =
    core.options.mfaPrompt ?? core.uiMfaPrompt ?? (core.browser?.prompt ? () => core.browser!.prompt!(TOTP_PROMPT_TEXT) : undefined);
  const answer = prompt ? await prompt({ attemptCode, verify }) : undefined;
  if (signedIn) return signedIn;
  // An attempt code that expired or was used up asks for a new sign-in, which is what InvalidTotpCode says; other
  // failures (the network) are thrown as they are.
  if (failure && !hasCode('VERIFICATION_CODE_NOT_FOUND', 'VERIFICATION_CODE_EXPIRED', 'VERIFICATION_CODE_ALREADY_USED', 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED')(failure)) throw failure;
  if (failure || !answer) throw new (await loadKnownErrors()).KnownErrors.InvalidTotpCode();
  return post(answer);
}

/** Runs a sign-in call; if the server asks for MFA, prompts and finishes through `/auth/mfa/sign-in`. */
export async function withMfa(core: ClientCore, signIn: () => Promise<SignInTokensJson>): Promise<SignInTokensJson> {
  try {
    return await signIn();
  } catch (err) {
    if (!hasCode('MULTI_FACTOR_AUTHENTICATION_REQUIRED')(err)) throw err;
    return completeMfa(core, (err.details as { attempt_code?: string } | undefined)?.attempt_code);
  }
}
