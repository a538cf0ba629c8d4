// Passkey registration and sign-in (protocol-auth §3.4). Challenges live in verification codes (65 s, single use).
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { PasskeyOptionsResponse, PasskeyRegisterRequest, PasskeyRegisterResponse, PasskeySignInRequest } from '@gatehouse/shared/schemas/passkeys';
import { SignInTokensWithNewUser } from '@gatehouse/shared/schemas/mfa';
import { IgnoredBody } from '@gatehouse/shared/schemas/auth';
import { route } from '../http/route';
import * as passkeys from '../repo/passkeys';
import { createCode, redeemCode } from '../repo/verification-codes';
import { completeSignIn } from '../auth/sign-in';
import { queueNotice } from '../auth/security-notices';
import {
  assertPasskeysEnabled, authenticationOptions, PASSKEY_CHALLENGE_LIFETIME_MS, registrationOptions, verifyAuthentication, verifyRegistration,
} from '../auth/passkeys';

interface ChallengeData { challenge?: string; user_id?: string; user_handle?: string }

export const passkeyRoutes = [
  route({
    method: 'POST', path: '/auth/passkey/initiate-passkey-registration', summary: 'Start registering a passkey for the signed-in user', tags: ['Passkeys'],
    access: [...ACCESS_TYPES],
    body: IgnoredBody,
    response: PasskeyOptionsResponse,
    async handler({ services, auth, requireUser, userRequiredError }) {
      const user = await requireUser(userRequiredError);
      assertPasskeysEnabled(auth.project);
      const options = await registrationOptions(auth.project, user);
      const { code } = await createCode(services.db, {
        projectId: auth.project.id, type: 'passkey_registration', expiresInMs: PASSKEY_CHALLENGE_LIFETIME_MS,
        data: { challenge: options.challenge, user_handle: options.user.id, user_id: user.id },
      });
      return { options_json: options, code };
    },
  }),
  route({
    method: 'POST', path: '/auth/passkey/register', summary: "Register (or replace) the signed-in user's passkey", tags: ['Passkeys'],
    access: [...ACCESS_TYPES],
    body: PasskeyRegisterRequest,
    response: PasskeyRegisterResponse,
    async handler({ services, auth, body, requireUser, userRequiredError }) {
      // The reference server fails with a 500 without a user; here it is the usual "auth.user must be defined".
      const user = await requireUser(userRequiredError);
      assertPasskeysEnabled(auth.project);
      const credential = body.credential as unknown as RegistrationResponseJSON;
      let info: Awaited<ReturnType<typeof verifyRegistration>> | undefined;
      await redeemCode(services.db, {
        projectId: auth.project.id, type: 'passkey_registration', code: body.code, consume: true,
        async validate(row) {
          const data = row.data as ChallengeData;
          // Unlike the reference server, a challenge only registers a passkey for the user it was issued to.
          if (data.user_id !== user.id) throw new KnownErrors.VerificationCodeNotFound();
          info = await verifyRegistration(auth.project, credential, String(data.challenge));
        },
      });
      const { credential: c, credentialDeviceType, credentialBackedUp } = info!;
      const stored = await passkeys.replaceForUser(services.db, auth.project.id, user.id, {
        credentialId: c.id, publicKey: c.publicKey, counter: c.counter, transports: c.transports ?? [],
        deviceType: credentialDeviceType, backedUp: credentialBackedUp,
      });
      if (!stored) throw new KnownErrors.PasskeyRegistrationFailed('Passkey registration failed because this passkey is already registered to another account');
      await queueNotice(services.db, services, auth.project, { userId: user.id, type: 'passkey_added', extra: {} });
      return { user_handle: c.id };
    },
  }),
  route({
    method: 'POST', path: '/auth/passkey/initiate-passkey-authentication', summary: 'Start a passkey sign-in', tags: ['Passkeys'],
    access: [...ACCESS_TYPES],
    body: IgnoredBody,
    response: PasskeyOptionsResponse,
    async handler({ services, auth }) {
      assertPasskeysEnabled(auth.project);
      const options = await authenticationOptions();
      const { code } = await createCode(services.db, {
        projectId: auth.project.id, type: 'passkey_authentication', expiresInMs: PASSKEY_CHALLENGE_LIFETIME_MS,
        data: { challenge: options.challenge },
      });
      return { options_json: options, code };
    },
  }),
  route({
    method: 'POST', path: '/auth/passkey/sign-in', summary: 'Sign in with a passkey', tags: ['Passkeys'],
    access: [...ACCESS_TYPES],
    body: PasskeySignInRequest,
    response: SignInTokensWithNewUser,
    async handler({ services, auth, body, origin }) {
      const project = auth.project;
      assertPasskeysEnabled(project);
      const response = body.authentication_response as unknown as AuthenticationResponseJSON;
      // Filled in by the check below, which runs before the challenge code is consumed.
      const verified: { passkey?: passkeys.PasskeyRow; newCounter?: number } = {};
      await redeemCode(services.db, {
        projectId: project.id, type: 'passkey_authentication', code: body.code, consume: true,
        async validate(row) {
          const passkey = typeof response.id === 'string' ? await passkeys.findByCredentialId(services.db, project.id, response.id) : null;
          if (!passkey) throw new KnownErrors.PasskeyAuthenticationFailed('Passkey not found');
          const result = await verifyAuthentication(project, response, String((row.data as ChallengeData).challenge), {
            id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.counter, transports: passkey.transports,
          });
          Object.assign(verified, { passkey, newCounter: result.newCounter });
        },
      });
      const passkey = verified.passkey!;
      await passkeys.updateCounter(services.db, project.id, passkey.id, verified.newCounter!);
      const tokens = await completeSignIn(services, { projectId: project.id, userId: passkey.userId, isNewUser: false, origin });
      return { access_token: tokens.access_token, is_new_user: false, refresh_token: tokens.refresh_token, user_id: tokens.user_id };
    },
  }),
];
