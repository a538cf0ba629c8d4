// Passkey registration and sign-in (protocol-auth §3.4; the ceremonies: auth/passkey-registration.ts,
// auth/passkey-sign-in.ts).
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { PasskeyOptionsResponse, PasskeyRegisterRequest, PasskeyRegisterResponse, PasskeySignInRequest } from '@gatehouse/shared/schemas/passkeys';
import { SignInTokensWithNewUser } from '@gatehouse/shared/schemas/mfa';
import { IgnoredBody } from '@gatehouse/shared/schemas/auth';
import { route } from '../http/route';
import { registerPasskey, startPasskeyRegistration } from '../auth/passkey-registration';
import { signInWithPasskey, startPasskeySignIn } from '../auth/passkey-sign-in';
import { signInTokensWithNewUserView } from '../presenters/sign-in';

export const passkeyRoutes = [
  route({
    method: 'POST', path: '/auth/passkey/initiate-passkey-registration', summary: 'Start registering a passkey for the signed-in user', tags: ['Passkeys'],
    access: [...ACCESS_TYPES],
    body: IgnoredBody,
    response: PasskeyOptionsResponse,
    async handler({ services, auth, requireUser, userRequiredError }) {
      const { options, code } = await startPasskeyRegistration(services, { project: auth.project, user: await requireUser(userRequiredError) });
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
      const credentialId = await registerPasskey(services, {
        project: auth.project, userId: user.id, code: body.code, credential: body.credential as unknown as RegistrationResponseJSON,
      });
      return { user_handle: credentialId };
    },
  }),
  route({
    method: 'POST', path: '/auth/passkey/initiate-passkey-authentication', summary: 'Start a passkey sign-in', tags: ['Passkeys'],
    access: [...ACCESS_TYPES],
    body: IgnoredBody,
    response: PasskeyOptionsResponse,
    async handler({ services, auth }) {
      const { options, code } = await startPasskeySignIn(services, { project: auth.project });
      return { options_json: options, code };
    },
  }),
  route({
    method: 'POST', path: '/auth/passkey/sign-in', summary: 'Sign in with a passkey', tags: ['Passkeys'],
    access: [...ACCESS_TYPES],
    body: PasskeySignInRequest,
    response: SignInTokensWithNewUser,
    async handler({ services, auth, body, origin }) {
      const tokens = await signInWithPasskey(services, {
        project: auth.project, code: body.code, response: body.authentication_response as unknown as AuthenticationResponseJSON, origin,
      });
      return signInTokensWithNewUserView(tokens, false);
    },
  }),
];
