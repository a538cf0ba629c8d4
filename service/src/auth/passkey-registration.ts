// Registering a passkey for the signed-in user (protocol-auth §3.4): the options with a challenge (kept in a
// verification code, 65 s, single use), then the authenticator's answer checked against it.
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import type { UserRow } from '../repo/users';
import * as passkeys from '../repo/passkeys';
import { createCode, redeemCode } from '../repo/verification-codes';
import { assertPasskeysEnabled, PASSKEY_CHALLENGE_LIFETIME_MS, registrationOptions, verifyRegistration } from './passkeys';
import { queueNotice } from './security-notices';

interface ChallengeData { challenge?: string; user_id?: string; user_handle?: string }

/** The registration options for `user` and the code that holds their challenge. */
export async function startPasskeyRegistration(services: Services, input: { project: Project; user: UserRow }) {
  const { project, user } = input;
  assertPasskeysEnabled(project);
  const options = await registrationOptions(project, user);
  const { code } = await createCode(services.db, {
    projectId: project.id, type: 'passkey_registration', expiresInMs: PASSKEY_CHALLENGE_LIFETIME_MS,
    data: { challenge: options.challenge, user_handle: options.user.id, user_id: user.id },
  });
  return { options, code };
}

/** Registers (or replaces) the user's passkey; returns its credential id (the protocol's `user_handle`). */
export async function registerPasskey(services: Services, input: { project: Project; userId: string; code: string; credential: RegistrationResponseJSON }): Promise<string> {
  const { project, userId } = input;
  assertPasskeysEnabled(project);
  let info: Awaited<ReturnType<typeof verifyRegistration>> | undefined;
  await redeemCode(services.db, {
    projectId: project.id, type: 'passkey_registration', code: input.code, consume: true,
    async validate(row) {
      const data = row.data as ChallengeData;
      // Unlike the reference server, a challenge only registers a passkey for the user it was issued to.
      if (data.user_id !== userId) throw new KnownErrors.VerificationCodeNotFound();
      info = await verifyRegistration(project, input.credential, String(data.challenge));
    },
  });
  const { credential: c, credentialDeviceType, credentialBackedUp } = info!;
  const stored = await passkeys.replaceForUser(services.db, project.id, userId, {
    credentialId: c.id, publicKey: c.publicKey, counter: c.counter, transports: c.transports ?? [],
    deviceType: credentialDeviceType, backedUp: credentialBackedUp,
  });
  if (!stored) throw new KnownErrors.PasskeyRegistrationFailed('Passkey registration failed because this passkey is already registered to another account');
  await queueNotice(services.db, services, project, { userId, type: 'passkey_added', extra: {} });
  return c.id;
}
