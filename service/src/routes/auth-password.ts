// Password sign-up, sign-in, update and set (protocol-auth §3.1). Reset by code lives in auth-password-reset.ts.
import { ACCESS_TYPES, STACK_HEADERS } from '@gatehouse/shared/constants';
import { Success } from '@gatehouse/shared/schemas/common';
import { PasswordSetBody, PasswordSignInBody, PasswordSignUpBody, PasswordUpdateBody, SignInTokens } from '@gatehouse/shared/schemas/auth';
import { route } from '../http/route';
import { signUpWithPassword } from '../auth/password-sign-up';
import { signInWithPassword } from '../auth/password-sign-in';
import { changePassword, setPassword } from '../auth/password-change';
import { signInTokensView } from '../presenters/sign-in';

export const passwordRoutes = [
  route({
    method: 'POST', path: '/auth/password/sign-up', summary: 'Sign up with email and password', tags: ['Password'],
    access: [...ACCESS_TYPES],
    body: PasswordSignUpBody,
    response: SignInTokens,
    async handler({ services, auth, body, origin }) {
      const tokens = await signUpWithPassword(services, {
        project: auth.project, email: body.email, password: body.password, verificationCallbackUrl: body.verification_callback_url, origin,
      });
      return signInTokensView(tokens);
    },
  }),
  route({
    method: 'POST', path: '/auth/password/sign-in', summary: 'Sign in with email and password', tags: ['Password'],
    access: [...ACCESS_TYPES],
    body: PasswordSignInBody,
    response: SignInTokens,
    async handler({ services, auth, body, origin }) {
      return signInTokensView(await signInWithPassword(services, { project: auth.project, email: body.email, password: body.password, origin }));
    },
  }),
  route({
    method: 'POST', path: '/auth/password/update', summary: "Change the signed-in user's password", tags: ['Password'],
    access: [...ACCESS_TYPES],
    body: PasswordUpdateBody,
    response: Success,
    async handler({ services, auth, body, headers, requireUser, userRequiredError }) {
      const user = await requireUser(userRequiredError);
      await changePassword(services, {
        caller: auth, userId: user.id, oldPassword: body.old_password, newPassword: body.new_password,
        keepRefreshToken: headers.get(STACK_HEADERS.refreshToken),
      });
      return { success: true as const };
    },
  }),
  route({
    method: 'POST', path: '/auth/password/set', summary: 'Set a password for a signed-in user who has none', tags: ['Password'],
    access: [...ACCESS_TYPES],
    body: PasswordSetBody,
    response: Success,
    async handler({ services, auth, body, requireUser, userRequiredError }) {
      const user = await requireUser(userRequiredError);
      await setPassword(services, { caller: auth, userId: user.id, password: body.password });
      return { success: true as const };
    },
  }),
];
