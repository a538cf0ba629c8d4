// Passkey sign-in and registration (client-library §1.4.2, §1.7.4) through @simplewebauthn/browser.
import { KnownErrors } from '../known-errors.ts';
import { RELYING_PARTY_ID_PLACEHOLDER } from './constants.ts';
import type { ClientCore } from './core.ts';
import { withMfa, type SignInTokensJson } from './mfa.ts';
import { Result } from './result.ts';
import type { InternalSession } from './session.ts';
import type { EmptyBody, PasskeyOptionsJson, PasskeyRegisterBody, PasskeySignInBody, SignInTokensWithNewUserJson } from './wire.ts';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';

/** The WebAuthn ceremonies; replaceable (option `webauthn`) for non-browser hosts and tests. */
export interface WebAuthnCeremonies {
  startAuthentication(options: { optionsJSON: PublicKeyCredentialRequestOptionsJSON }): Promise<AuthenticationResponseJSON>;
  startRegistration(options: { optionsJSON: PublicKeyCredentialCreationOptionsJSON }): Promise<RegistrationResponseJSON>;
}

// Loaded on first use: most page loads never run a ceremony, and browser bundles stay smaller without it.
const webAuthnLibrary = () => import('@simplewebauthn/browser');

export const browserWebAuthn: WebAuthnCeremonies = {
  startAuthentication: async (options) => (await webAuthnLibrary()).startAuthentication(options),
  startRegistration: async (options) => (await webAuthnLibrary()).startRegistration(options),
};

export type PasskeyRegistrationResult = Result<undefined, KnownErrors['PasskeyRegistrationFailed'] | KnownErrors['PasskeyWebAuthnError']>;
export type PasskeySignInError = KnownErrors['PasskeyAuthenticationFailed'] | KnownErrors['InvalidTotpCode'] | KnownErrors['PasskeyWebAuthnError'];

async function isWebAuthnLibraryError(err: unknown): Promise<boolean> {
  return err instanceof (await webAuthnLibrary()).WebAuthnError;
}

function ceremonies(core: ClientCore): WebAuthnCeremonies {
  return core.options.webauthn ?? browserWebAuthn;
}

/** Steps 1–4 of §1.4.2; returns the sign-in tokens. */
export async function passkeySignInTokens(core: ClientCore): Promise<Result<SignInTokensJson, PasskeySignInError>> {
  const hostname = core.redirector.currentUrl()?.hostname;
  try {
    const tokens = await withMfa(core, async () => {
      const init = await core.json<PasskeyOptionsJson, EmptyBody>('/auth/passkey/initiate-passkey-authentication', { method: 'POST', body: {} }, core.defaultSession(), 'client');
      // The service's options are WebAuthn's JSON encoding (its schema leaves them open); the relying party is ours.
      const options = init.options_json as unknown as PublicKeyCredentialRequestOptionsJSON;
      if (options?.rpId !== RELYING_PARTY_ID_PLACEHOLDER) {
        throw new Error(`Expected returned RP ID from server to equal sentinel ${RELYING_PARTY_ID_PLACEHOLDER}`);
      }
      if (!hostname) throw new Error('Passkey sign-in needs a browser page (no current URL)');
      const response = await ceremonies(core).startAuthentication({ optionsJSON: { ...options, rpId: hostname } });
      return core.json<SignInTokensWithNewUserJson, PasskeySignInBody>('/auth/passkey/sign-in', {
        method: 'POST',
        body: { authentication_response: response, code: init.code },
      }, null, 'client');
    });
    return Result.ok(tokens);
  } catch (err) {
    if (err instanceof Error && (await isWebAuthnLibraryError(err))) return Result.error(new KnownErrors.PasskeyWebAuthnError(err.message, err.name));
    return Result.error(new KnownErrors.PasskeyAuthenticationFailed('Failed to sign in with passkey'));
  }
}

export async function registerPasskey(core: ClientCore, session: InternalSession, _options?: { hostname?: string }): Promise<PasskeyRegistrationResult> {
  if (core.redirector.method === 'none') throw new Error('hostname must be provided if the Stack App does not have a redirect method');
  const hostname = core.redirector.currentUrl()?.hostname;
  if (!hostname) throw new Error('Passkey registration needs a browser page (no current URL)');
  const init = await core.json<PasskeyOptionsJson, EmptyBody>('/auth/passkey/initiate-passkey-registration', { method: 'POST', body: {} }, session, 'client');
  const options = init.options_json as unknown as PublicKeyCredentialCreationOptionsJSON;
  if (options?.rp?.id !== RELYING_PARTY_ID_PLACEHOLDER) {
    throw new Error(`Expected returned RP ID from server to equal sentinel ${RELYING_PARTY_ID_PLACEHOLDER}`);
  }
  let credential: RegistrationResponseJSON;
  try {
    credential = await ceremonies(core).startRegistration({ optionsJSON: { ...options, rp: { ...options.rp, id: hostname } } });
  } catch (err) {
    if (err instanceof Error && (await isWebAuthnLibraryError(err))) return Result.error(new KnownErrors.PasskeyWebAuthnError(err.message, err.name));
    console.error('Passkey registration failed', err);
    return Result.error(new KnownErrors.PasskeyRegistrationFailed('Failed to start passkey registration due to unknown error'));
  }
  try {
    await core.json<unknown, PasskeyRegisterBody>('/auth/passkey/register', { method: 'POST', body: { credential, code: init.code } }, session, 'client');
  } catch (err) {
    if (err instanceof KnownErrors.PasskeyRegistrationFailed) return Result.error(err);
    throw err;
  }
  return Result.ok(undefined);
}
