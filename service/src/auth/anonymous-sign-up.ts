// Anonymous sign-up (protocol-auth §3.9). The reference server allows it only for a hard-coded list of its own
// projects; here that list is the `internal` project (the project configuration has no switch for it), and only when
// the operator turns it on (GATEHOUSE_INTERNAL_ANONYMOUS_SIGN_UP): an anonymous owner-plane account helps nobody.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import { createUser } from '../users/create';
import type { ClientOrigin } from './activity';
import { byIp, limitRequests } from './rate-limits';
import { issueSession, type IssuedTokens } from './session-tokens';

const ANONYMOUS_PROJECTS = new Set(['internal']);

export async function signUpAnonymously(services: Services, input: { project: Project; origin: ClientOrigin }): Promise<IssuedTokens> {
  const { project, origin } = input;
  if (!ANONYMOUS_PROJECTS.has(project.id) || !services.config.internalAnonymousSignUp) throw new KnownErrors.AnonymousAccountsNotEnabled();
  await limitRequests(services, [byIp(origin.ip, 'sign_up_ip', project.id)]);
  const { user } = await createUser(services, { project, user: { displayName: 'Anonymous user', isAnonymous: true } });
  // Anonymous users have no second factor, so there is no MFA step.
  return issueSession(services, { projectId: project.id, userId: user.id, origin });
}
