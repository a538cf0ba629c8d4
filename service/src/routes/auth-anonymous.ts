// Anonymous sign-up (protocol-auth §3.9). The reference server allows it only for a hard-coded list of its own
// projects; here that list is the `internal` project (the project configuration has no switch for it), and only when
// the operator turns it on (GATEHOUSE_INTERNAL_ANONYMOUS_SIGN_UP): an anonymous owner-plane account helps nobody.
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { IgnoredBody, SignInTokens } from '@gatehouse/shared/schemas/auth';
import { route } from '../http/route';
import { createUser } from '../users/create';
import { issueSession } from '../auth/session-tokens';
import { byIp, limitRequests } from '../auth/rate-limits';

const ANONYMOUS_PROJECTS = new Set(['internal']);

export const anonymousRoutes = [
  route({
    method: 'POST', path: '/auth/anonymous/sign-up', summary: 'Create an anonymous user and sign it in', tags: ['Anonymous'],
    access: [...ACCESS_TYPES],
    body: IgnoredBody,
    response: SignInTokens,
    async handler({ services, auth, origin, ip }) {
      const project = auth.project;
      if (!ANONYMOUS_PROJECTS.has(project.id) || !services.config.internalAnonymousSignUp) throw new KnownErrors.AnonymousAccountsNotEnabled();
      await limitRequests(services, [byIp(ip, 'sign_up_ip', project.id)]);
      const { user } = await services.db.transaction((tx) => createUser(services.events, tx, project, { displayName: 'Anonymous user', isAnonymous: true }));
      const userId = user.id;
      // Anonymous users have no second factor, so there is no MFA step.
      const tokens = await issueSession(services, { projectId: project.id, userId, origin });
      return { access_token: tokens.access_token, refresh_token: tokens.refresh_token, user_id: tokens.user_id };
    },
  }),
];
