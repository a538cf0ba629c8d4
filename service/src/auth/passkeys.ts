// WebAuthn ceremonies (protocol-auth §3.4). The server never knows the relying-party id: options carry the
// placeholder the SDK replaces with the page's hostname, and verification takes the origin from the signed
// client data, accepting it only when the project trusts it (localhost when allowed, or a configured domain).
import {
  generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse,
  type AuthenticationResponseJSON, type RegistrationResponseJSON, type WebAuthnCredential,
} from '@simplewebauthn/server';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { trustsLocalhost } from '../projects/config-validation';
import { PASSKEY_AUTHENTICATION_CHALLENGE_LIFETIME_MS, RELYING_PARTY_ID_PLACEHOLDER } from '@gatehouse/shared/constants';
import type { Project } from '../repo/projects';

/** Registration and authentication challenges live equally long (shared/src/constants.ts). */
export const PASSKEY_CHALLENGE_LIFETIME_MS = PASSKEY_AUTHENTICATION_CHALLENGE_LIFETIME_MS;
// EdDSA, ES256, RS256: what the protocol advertises (newer library defaults add ML-DSA, which SDKs don't expect).
const ALGORITHMS = [-8, -7, -257];

type Ceremony = 'registration' | 'authentication';
const failed = (ceremony: Ceremony, message: string) =>
  ceremony === 'registration' ? new KnownErrors.PasskeyRegistrationFailed(message) : new KnownErrors.PasskeyAuthenticationFailed(message);
const label = (c: Ceremony) => (c === 'registration' ? 'Passkey registration' : 'Passkey authentication');

export function assertPasskeysEnabled(project: Project) {
  if (!project.config.passkey_enabled) throw new KnownErrors.PasskeyAuthenticationNotEnabled();
}

export async function registrationOptions(project: Project, user: { id: string; display_name: string | null; primary_email: string | null }) {
  const name = user.display_name || user.primary_email || 'Stack Auth User';
  const options = await generateRegistrationOptions({
    rpName: project.displayName, rpID: RELYING_PARTY_ID_PLACEHOLDER,
    userID: new TextEncoder().encode(user.id), userName: name, userDisplayName: name,
    timeout: 60_000, attestationType: 'none', supportedAlgorithmIDs: ALGORITHMS,
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  const { hints: _hints, ...rest } = options;
  return rest;
}

export async function authenticationOptions() {
  const options = await generateAuthenticationOptions({ rpID: RELYING_PARTY_ID_PLACEHOLDER, timeout: 60_000, userVerification: 'preferred' });
  return { rpId: options.rpId, challenge: options.challenge, allowCredentials: [], timeout: options.timeout, userVerification: options.userVerification };
}

/** The origin the browser signed into the client data; a malformed response fails the ceremony. */
function signedOrigin(response: { response?: { clientDataJSON?: unknown } }, ceremony: Ceremony): URL {
  try {
    const clientData = JSON.parse(Buffer.from(String(response.response?.clientDataJSON), 'base64url').toString('utf8'));
    if (typeof clientData?.origin !== 'string') throw new Error('no origin');
    return new URL(clientData.origin);
  } catch {
    throw failed(ceremony, `${label(ceremony)} failed because the response is malformed`);
  }
}

/** Expected origin and RP id for the response, or PASSKEY_AUTHENTICATION_FAILED (for both ceremonies). */
export function expectedOriginAndRpId(project: Project, response: { response?: { clientDataJSON?: unknown } }, ceremony: Ceremony) {
  const url = signedOrigin(response, ceremony);
  const origin = url.origin;
  if (url.hostname === 'localhost') {
    if (!trustsLocalhost(project)) throw new KnownErrors.PasskeyAuthenticationFailed(`${label(ceremony)} failed because localhost is not allowed`);
  } else if (!project.config.domains.some((d) => d.domain.replace(/\/$/, '') === origin)) {
    throw new KnownErrors.PasskeyAuthenticationFailed(`${label(ceremony)} failed because the origin is not allowed`);
  }
  return { origin, rpId: url.hostname };
}

export async function verifyRegistration(project: Project, response: RegistrationResponseJSON, challenge: string) {
  const { origin, rpId } = expectedOriginAndRpId(project, response, 'registration');
  let result;
  try {
    result = await verifyRegistrationResponse({
      response, expectedChallenge: challenge, expectedOrigin: origin, expectedRPID: rpId,
      requireUserVerification: false, supportedAlgorithmIDs: ALGORITHMS,
    });
  } catch (err) {
    throw failed('registration', `Passkey registration failed because the verification response is invalid: ${(err as Error)?.message ?? err}`);
  }
  if (!result.verified) throw failed('registration', 'Passkey registration failed because the verification response is invalid');
  return result.registrationInfo;
}

export async function verifyAuthentication(project: Project, response: AuthenticationResponseJSON, challenge: string, credential: WebAuthnCredential) {
  const { origin, rpId } = expectedOriginAndRpId(project, response, 'authentication');
  const signatureError = () => failed('authentication',
    'The signature of the authentication response could not be verified with the stored public key tied to this credential ID');
  let result;
  try {
    result = await verifyAuthenticationResponse({
      response, expectedChallenge: challenge, expectedOrigin: origin, expectedRPID: rpId, credential, requireUserVerification: false,
    });
  } catch (err) {
    const message = (err as Error)?.message ?? String(err);
    if (/signature/i.test(message)) throw signatureError();
    throw failed('authentication', `Passkey authentication failed because the authentication response is invalid: ${message}`);
  }
  if (!result.verified) throw signatureError();
  return result.authenticationInfo;
}
