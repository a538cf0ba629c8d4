// Password sign-up (protocol-auth §3.1): POST /auth/password/sign-up. Two statements (issue 13 §3, issue 16 §3,
// issue 31; service/test/signup-statements.test.ts): the rate-limit hit carrying the email check, then the user's rows,
// its event and its first session in one; and the verification mail when asked for.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import { createUser } from '../users/create';
import type { ClientOrigin } from './activity';
import { assertPasswordAcceptable, assertPasswordAuthEnabled } from './password-policy';
import { byIp, limitRequestsReading } from './rate-limits';
import { sessionToOpen, tokensFor, type IssuedTokens } from './session-tokens';
import { sendChannelVerificationEmail } from './verification-email';
import { assertSsoNotRequired } from '../sso/required-domains';

export interface PasswordSignUp {
  project: Project;
  email: string;
  password: string;
  /** Where the verification link leads; no mail without it. */
  verificationCallbackUrl?: string;
  origin: ClientOrigin;
}

export async function signUpWithPassword(services: Services, input: PasswordSignUp): Promise<IssuedTokens> {
  const { project, email, password, origin } = input;
  assertPasswordAuthEnabled(project);
  assertSsoNotRequired(project.id, email);
  await assertPasswordAcceptable(project, password);
  if (!project.config.sign_up_enabled) throw new KnownErrors.SignUpNotEnabled();
  // Counted with the lookup (one statement): the "already exists" answer is not a free oracle, nor sign-up a free
  // mass action.
  const owner = await limitRequestsReading(services, [byIp(origin.ip, 'sign_up_ip', project.id)], { read: 'auth_email_owner', projectId: project.id, email });
  if (owner) throw new KnownErrors.UserEmailAlreadyExists(email);
  const passwordHash = await services.passwords.hash(password);
  // The first session is written with the user, in its statement (a new user has no second factor: no MFA step).
  const userId = crypto.randomUUID();
  const open = await sessionToOpen(services, {
    projectId: project.id, userId, origin, expiresInMs: project.security.session_lifetime_seconds * 1000, accessTokenClaims: project.accessTokenClaims,
  });
  const { channel, session } = await createUser(services, {
    project, user: { primaryEmail: email, primaryEmailAuthEnabled: true, passwordHash }, emailCheckedFree: true, id: userId, session: open.session,
  });
  // The verification email is best effort: its failures (e.g. an untrusted callback) never fail the sign-up.
  if (input.verificationCallbackUrl && channel) {
    void sendChannelVerificationEmail(services, project, { userId, channelId: channel.id, email, callbackUrl: input.verificationCallbackUrl })
      .catch((err) => console.error(`[sign-up] the verification email to a new user of project ${project.id} was not queued:`, err));
  }
  return tokensFor(services, open, session!);
}
