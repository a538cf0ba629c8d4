// Email verification mail after sign-up. Implemented with the email outbox (see issue: sign-in methods).
import type { Services } from '../services';
import type { Project } from '../repo/projects';

export async function sendVerificationEmailAfterSignUp(_services: Services, _project: Project, _userId: string, _email: string, _callbackUrl: string): Promise<void> {
  // Replaced by the email-verification flow when the outbox lands.
}
