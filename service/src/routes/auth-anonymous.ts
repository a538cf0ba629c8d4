// Anonymous sign-up (protocol-auth §3.9; who may: auth/anonymous-sign-up.ts).
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { IgnoredBody, SignInTokens } from '@gatehouse/shared/schemas/auth';
import { route } from '../http/route';
import { signUpAnonymously } from '../auth/anonymous-sign-up';
import { signInTokensView } from '../presenters/sign-in';

export const anonymousRoutes = [
  route({
    method: 'POST', path: '/auth/anonymous/sign-up', summary: 'Create an anonymous user and sign it in', tags: ['Anonymous'],
    access: [...ACCESS_TYPES],
    body: IgnoredBody,
    response: SignInTokens,
    async handler({ services, auth, origin }) {
      return signInTokensView(await signUpAnonymously(services, { project: auth.project, origin }));
    },
  }),
];
