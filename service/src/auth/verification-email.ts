// The email-verification mail (protocol-auth §3.3, §5.1): a CONTACT_CHANNEL_VERIFICATION code for (user, email)
// and the `email_verification` template linking to the callback URL with `code=`. Sent after password sign-up
// (best effort: the caller swallows failures, e.g. an untrusted callback) and by both send-verification-code
// endpoints.
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import { createCodeAndQueueEmail } from './flow-emails';
import { findByValue } from '../repo/contact-channels';

export async function sendChannelVerificationEmail(services: Services, project: Project, p: {
  userId: string; channelId: string; email: string; callbackUrl: string; userDisplayName?: string | null;
}): Promise<void> {
  await createCodeAndQueueEmail(services, project, {
    template: 'email_verification', to: p.email, callbackUrl: p.callbackUrl,
    method: { email: p.email }, data: { user_id: p.userId, contact_channel_id: p.channelId },
    variables: () => ({ userDisplayName: p.userDisplayName ?? null }),
  });
}

export async function sendVerificationEmailAfterSignUp(services: Services, project: Project, userId: string, email: string, callbackUrl: string): Promise<void> {
  const channel = await findByValue(services.db, project.id, userId, email);
  if (!channel) return;
  await sendChannelVerificationEmail(services, project, { userId, channelId: channel.id, email, callbackUrl });
}
