// Passkey sign-in (protocol-auth §3.4): the options with a challenge (kept in a verification code, 65 s, single
// use), then the authenticator's assertion checked against it and the stored credential; a user whose primary email
// is at a domain that requires SSO is sent to SSO (SSO_REQUIRED).
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import * as passkeys from '../repo/passkeys';
import * as users from '../repo/users';
import { createCode, redeemCode } from '../repo/verification-codes';
import type { ClientOrigin } from './activity';
import { assertPasskeysEnabled, authenticationOptions, PASSKEY_CHALLENGE_LIFETIME_MS, verifyAuthentication } from './passkeys';
import type { IssuedTokens } from './session-tokens';
import { completeSignIn } from './sign-in';
import { assertSsoNotRequired } from '../sso/required-domains';

/** The authentication options and the code that holds their challenge. */
export async function startPasskeySignIn(services: Services, input: { project: Project }) {
  const { project } = input;
  assertPasskeysEnabled(project);
  const options = await authenticationOptions();
  const { code } = await createCode(services.db, {
    projectId: project.id, type: 'passkey_authentication', expiresInMs: PASSKEY_CHALLENGE_LIFETIME_MS,
    data: { challenge: options.challenge },
  });
  return { options, code };
}

export interface PasskeySignIn { project: Project; code: string; response: AuthenticationResponseJSON; origin: ClientOrigin }

export async function signInWithPasskey(services: Services, input: PasskeySignIn): Promise<IssuedTokens> {
  const { project, response } = input;
  assertPasskeysEnabled(project);
  // Filled in by the check below, which runs before the challenge code is consumed.
  const verified: { passkey?: passkeys.PasskeyRow; newCounter?: number } = {};
  await redeemCode(services.db, {
    projectId: project.id, type: 'passkey_authentication', code: input.code, consume: true,
    async validate(row) {
      const passkey = typeof response.id === 'string' ? await passkeys.findByCredentialId(services.db, project.id, response.id) : null;
      if (!passkey) throw new KnownErrors.PasskeyAuthenticationFailed('Passkey not found');
      const result = await verifyAuthentication(project, response, String((row.data as { challenge?: string }).challenge), {
        id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.counter, transports: passkey.transports,
      });
      Object.assign(verified, { passkey, newCounter: result.newCounter });
    },
  });
  const passkey = verified.passkey!;
  await passkeys.updateCounter(services.db, project.id, passkey.id, verified.newCounter!);
  // A passkey is not a way around a domain that requires SSO: the user's primary email decides, as the typed address
  // does for password and code sign-ins.
  const facts = await users.signInFacts(services.db, project.id, passkey.userId);
  if (!facts) throw new KnownErrors.PasskeyAuthenticationFailed('Passkey not found');
  assertSsoNotRequired(project.id, facts.primaryEmail);
  return completeSignIn(services, { project, userId: passkey.userId, isNewUser: false, origin: input.origin, hasTotp: facts.totpSecret !== null });
}
