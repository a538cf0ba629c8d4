// Follow-ups of sign-up that belong to other flows, kept behind one seam so the password routes stay small.
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import { sendVerificationEmailAfterSignUp } from './verification-email';

/** After a password sign-up: the email-verification mail (best effort; callers swallow failures). */
export async function onPasswordSignUp(services: Services, project: Project, userId: string, email: string, callbackUrl?: string) {
  if (!callbackUrl) return;
  await sendVerificationEmailAfterSignUp(services, project, userId, email, callbackUrl);
}
