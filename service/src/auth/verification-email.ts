// The email-verification mail (protocol-auth §3.3, §5.1): a CONTACT_CHANNEL_VERIFICATION code for (user, email)
// and the `email_verification` template linking to the callback URL with `code=`. Sent after password sign-up
// (best effort: the sign-up logs a failure, e.g. an untrusted callback, and goes on) and by both send-verification-code
// endpoints.
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import { createCodeAndQueueEmail } from './flow-emails';

export async function sendChannelVerificationEmail(services: Services, project: Project, p: {
  userId: string; channelId: string; email: string; callbackUrl: string; userDisplayName?: string | null;
}): Promise<void> {
  await createCodeAndQueueEmail(services, project, {
    template: 'email_verification', to: p.email, callbackUrl: p.callbackUrl,
    method: { email: p.email }, data: { user_id: p.userId, contact_channel_id: p.channelId },
    variables: () => ({ userDisplayName: p.userDisplayName ?? null }),
  });
}
