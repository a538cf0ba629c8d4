// Email verification (protocol-auth §3.3): sending the code for a channel (or, on the legacy route, for the primary
// email), checking it, and verifying the address with it.
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as channels from '../repo/contact-channels';
import * as users from '../repo/users';
import type { Project } from '../repo/projects';
import type { Caller } from '../auth/caller';
import { limitCodeSending, redeemFlowCode } from '../auth/flow-emails';
import { sendChannelVerificationEmail } from '../auth/verification-email';
import { CHANNEL_NOT_FOUND } from './access';

export interface ChannelVerificationSend {
  caller: Caller;
  /** The user named by the route (`me` resolved for servers; as given for a client). */
  userId: string;
  channelId: string;
  callbackUrl: string;
  ip: string;
}

/** POST /contact-channels/{user_id}/{id}/send-verification-code. */
export async function sendChannelVerificationCode(services: Services, input: ChannelVerificationSend): Promise<void> {
  const { caller, userId } = input;
  const project = caller.project;
  if (caller.type === 'client') {
    if (!caller.userId) throw new KnownErrors.CannotGetOwnUserWithoutUser();
    if (userId !== caller.userId) throw new StatusError(400, 'Can only send verification code for your own user');
  } else if (!(await users.exists(services.db, project.id, userId))) {
    throw new KnownErrors.UserIdDoesNotExist(userId);
  }
  const user = await users.load(services.db, project.id, userId);
  const channel = user && (await channels.find(services.db, project.id, userId, input.channelId));
  if (!user || !channel) throw new StatusError(404, CHANNEL_NOT_FOUND);
  if (channel.isVerified) throw new KnownErrors.EmailAlreadyVerified();
  await limitCodeSending(services, input.ip, project, channel.value);
  await sendChannelVerificationEmail(services, project, {
    userId, channelId: channel.id, email: channel.value, callbackUrl: input.callbackUrl, userDisplayName: user.display_name,
  });
}

/** POST /contact-channels/send-verification-code (legacy): the signed-in user's primary email, named in the body. */
export async function sendPrimaryEmailVerificationCode(services: Services, input: { project: Project; user: users.UserRow; email: string; callbackUrl: string; ip: string }): Promise<void> {
  const { project, user, email } = input;
  if (email !== user.primary_email) throw new KnownErrors.EmailIsNotPrimaryEmail(email, user.primary_email as string);
  if (user.primary_email_verified) throw new KnownErrors.EmailAlreadyVerified();
  const channel = await channels.findPrimaryEmail(services.db, project.id, user.id);
  if (!channel) throw new KnownErrors.EmailIsNotPrimaryEmail(email, null as unknown as string);
  await limitCodeSending(services, input.ip, project, channel.value);
  await sendChannelVerificationEmail(services, project, {
    userId: user.id, channelId: channel.id, email: channel.value, callbackUrl: input.callbackUrl, userDisplayName: user.display_name,
  });
}

/** Is the verification code valid (counted like a redemption, not used up)? */
export async function checkEmailVerificationCode(services: Services, input: { project: Project; code: string; ip: string }): Promise<void> {
  await redeemFlowCode(services, input.ip, input.project, { type: 'contact_channel_verification', code: input.code, consume: false });
}

/** Verifies the address the code was sent to. */
export async function verifyEmail(services: Services, input: { project: Project; code: string; ip: string }): Promise<void> {
  const { project } = input;
  await redeemFlowCode(services, input.ip, project, { type: 'contact_channel_verification', code: input.code, consume: true }, async (row) => {
    const data = row.data as { user_id?: string };
    const method = row.method as { email?: string };
    // The channel was deleted (or its address changed) since the mail went out: the code verifies nothing.
    if (!data.user_id || !method.email || !(await channels.markVerified(services.db, project.id, data.user_id, method.email))) {
      throw new KnownErrors.VerificationCodeNotFound();
    }
  });
}
