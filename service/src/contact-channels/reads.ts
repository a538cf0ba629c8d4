// Reading contact channels (protocol-resources §9.2).
import { StatusError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as channels from '../repo/contact-channels';
import type { Caller } from '../auth/caller';
import { assertOwnChannels, CHANNEL_NOT_FOUND } from './access';

/** The channels of the project, of one user, or one channel (`channelId`), oldest first. */
export async function listContactChannels(services: Services, input: { caller: Caller; userId?: string; channelId?: string }): Promise<channels.ChannelRow[]> {
  assertOwnChannels(input.caller, input.userId, 'list');
  return channels.list(services.db, input.caller.project.id, { userId: input.userId, channelId: input.channelId });
}

export async function getContactChannel(services: Services, input: { caller: Caller; userId: string; channelId: string }): Promise<channels.ChannelRow> {
  assertOwnChannels(input.caller, input.userId, 'read');
  const row = await channels.find(services.db, input.caller.project.id, input.userId, input.channelId);
  if (!row) throw new StatusError(404, `${CHANNEL_NOT_FOUND}.`);
  return row;
}
