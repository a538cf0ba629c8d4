// Contact channels (protocol-resources §9.2) and email verification (protocol-auth §3.3); the operations are in
// contact-channels/.
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { Success } from '@gatehouse/shared/schemas/common';
import {
  ClientContactChannelCreate,
  ClientContactChannelUpdate,
  CodeBody,
  ContactChannel,
  ContactChannelListQuery,
  ContactChannelParams,
  IsCodeValid,
  LegacySendVerificationCodeBody,
  SendVerificationCodeBody,
  ServerContactChannelCreate,
  ServerContactChannelUpdate,
  ContactChannelList,
} from '@gatehouse/shared/schemas/contact-channels';
import { perAccess, route } from '../http/route';
import { createContactChannel } from '../contact-channels/create-channel';
import { updateContactChannel } from '../contact-channels/update-channel';
import { deleteContactChannel } from '../contact-channels/delete-channel';
import { getContactChannel, listContactChannels } from '../contact-channels/reads';
import {
  checkEmailVerificationCode, sendChannelVerificationCode, sendPrimaryEmailVerificationCode, verifyEmail,
} from '../contact-channels/verification';
import { contactChannelView } from '../presenters/contact-channels';

export const contactChannelRoutes = [
  route({
    method: 'POST', path: '/contact-channels', summary: 'Create a contact channel', tags: ['Contact channels'],
    access: [...ACCESS_TYPES], status: 201,
    body: perAccess({ client: ClientContactChannelCreate, server: ServerContactChannelCreate }),
    response: ContactChannel,
    async handler({ services, auth, body, resolveUserId }) {
      const row = await createContactChannel(services, {
        caller: auth, userId: resolveUserId(body.user_id), value: body.value, usedForAuth: body.used_for_auth,
        isPrimary: body.is_primary, isVerified: body.is_verified,
      });
      return contactChannelView(row);
    },
  }),
  route({
    method: 'GET', path: '/contact-channels', summary: "List a user's contact channels", tags: ['Contact channels'],
    access: [...ACCESS_TYPES], query: ContactChannelListQuery, response: ContactChannelList,
    async handler({ services, auth, query, resolveUserId }) {
      const userId = query.user_id === undefined ? undefined : resolveUserId(query.user_id);
      const rows = await listContactChannels(services, { caller: auth, userId, channelId: query.contact_channel_id });
      return { items: rows.map(contactChannelView), is_paginated: false as const };
    },
  }),
  route({
    method: 'GET', path: '/contact-channels/:user_id/:contact_channel_id', summary: 'Get a contact channel', tags: ['Contact channels'],
    access: [...ACCESS_TYPES], params: ContactChannelParams, response: ContactChannel,
    async handler({ services, auth, params, resolveUserId }) {
      return contactChannelView(await getContactChannel(services, { caller: auth, userId: resolveUserId(params.user_id), channelId: params.contact_channel_id }));
    },
  }),
  route({
    method: 'PATCH', path: '/contact-channels/:user_id/:contact_channel_id', summary: 'Update a contact channel', tags: ['Contact channels'],
    access: [...ACCESS_TYPES], params: ContactChannelParams,
    body: perAccess({ client: ClientContactChannelUpdate, server: ServerContactChannelUpdate }),
    response: ContactChannel,
    async handler({ services, auth, params, body, resolveUserId }) {
      const row = await updateContactChannel(services, { caller: auth, userId: resolveUserId(params.user_id), channelId: params.contact_channel_id, changes: body });
      return contactChannelView(row);
    },
  }),
  route({
    method: 'DELETE', path: '/contact-channels/:user_id/:contact_channel_id', summary: 'Delete a contact channel', tags: ['Contact channels'],
    access: [...ACCESS_TYPES], params: ContactChannelParams, response: Success,
    async handler({ services, auth, params, resolveUserId }) {
      await deleteContactChannel(services, { caller: auth, userId: resolveUserId(params.user_id), channelId: params.contact_channel_id });
      return { success: true as const };
    },
  }),
  route({
    method: 'POST', path: '/contact-channels/:user_id/:contact_channel_id/send-verification-code',
    summary: 'Send a verification email for a contact channel', tags: ['Contact channels'],
    access: [...ACCESS_TYPES], params: ContactChannelParams, body: SendVerificationCodeBody, response: Success,
    async handler({ services, auth, params, body, ip, resolveUserId }) {
      await sendChannelVerificationCode(services, {
        caller: auth, userId: resolveUserId(params.user_id), channelId: params.contact_channel_id, callbackUrl: body.callback_url, ip,
      });
      return { success: true as const };
    },
  }),
  route({
    method: 'POST', path: '/contact-channels/send-verification-code', summary: "Send a verification email for the user's primary email",
    tags: ['Contact channels'], hidden: true,
    access: [...ACCESS_TYPES], body: LegacySendVerificationCodeBody, response: Success,
    async handler({ services, auth, body, ip, requireUser, userRequiredError }) {
      const user = await requireUser(userRequiredError);
      await sendPrimaryEmailVerificationCode(services, { project: auth.project, user, email: body.email, callbackUrl: body.callback_url, ip });
      return { success: true as const };
    },
  }),
  route({
    method: 'POST', path: '/contact-channels/verify/check-code', summary: 'Check an email verification code', tags: ['Contact channels'],
    access: [...ACCESS_TYPES], body: CodeBody, response: IsCodeValid,
    async handler({ services, auth, body, ip }) {
      await checkEmailVerificationCode(services, { project: auth.project, code: body.code, ip });
      return { is_code_valid: true as const };
    },
  }),
  route({
    method: 'POST', path: '/contact-channels/verify', summary: 'Verify an email with a code', tags: ['Contact channels'],
    access: [...ACCESS_TYPES], body: CodeBody, response: Success,
    async handler({ services, auth, body, ip }) {
      await verifyEmail(services, { project: auth.project, code: body.code, ip });
      return { success: true as const };
    },
  }),
];
