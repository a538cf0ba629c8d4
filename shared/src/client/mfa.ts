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
 * Asks for the TOTP code: the `mfaPrompt` option, else a prompt installed by a UI layer, else the browser's
 * blocking prompt; nothing → InvalidTotpCode.
 */
async function askForTotp(core: ClientCore, attemptCode: string): Promise<string> {
  const prompt =
    core.options.mfaPrompt ?? core.uiMfaPrompt ?? (core.browser?.prompt ? () => core.browser!.prompt!(TOTP_PROMPT_TEXT) : undefined);
  const answer = prompt ? await prompt({ attemptCode }) : undefined;
  if (!answer) throw new (await loadKnownErrors()).KnownErrors.InvalidTotpCode();
  return answer;
}

/** POST `/auth/mfa/sign-in` for an attempt code. */
export async function completeMfa(core: ClientCore, attemptCode: string | undefined): Promise<SignInTokensJson> {
  if (!attemptCode) throw new Error('attempt code missing');
  const totp = await askForTotp(core, attemptCode);
  return core.json<SignInTokensWithNewUserJson, MfaSignInBody>('/auth/mfa/sign-in', { method: 'POST', body: { code: attemptCode, type: 'totp', totp } }, null, 'client');
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
