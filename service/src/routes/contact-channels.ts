// Contact channels (protocol-resources §9.2) and email verification (protocol-auth §3.3).
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
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
  type ServerContactChannelUpdate as Update,
  ContactChannelList,
} from '@gatehouse/shared/schemas/contact-channels';
import { perAccess, route, type AuthedContext } from '../http/route';
import * as channels from '../repo/contact-channels';
import * as users from '../repo/users';
import { limitCodeSending, redeemFlowCode } from '../auth/flow-emails';
import { sendChannelVerificationEmail } from '../auth/verification-email';
import { assertRecentSignIn } from '../auth/recent-sign-in';
import { queueNotice, sendQueuedNotices } from '../auth/security-notices';
import { contactChannelView } from '../presenters/contact-channels';

const NOT_FOUND = 'Contact channel not found';

/** The user a request is about: `me` needs a session; a client may only name its own user (`forbidden`). */
function targetUserId(ctx: AuthedContext, idOrMe: string | undefined, forbidden: string): string | undefined {
  if (idOrMe === 'me') return ctx.resolveUserId('me');
  if (ctx.auth.type === 'client' && (!idOrMe || idOrMe !== ctx.auth.userId)) throw new StatusError(403, forbidden);
  return idOrMe;
}

async function applyUpdate(ctx: AuthedContext, userId: string, channelId: string, b: Update) {
  const { services, auth } = ctx;
  const projectId = auth.project.id;
  const view = await services.db.transaction(async (tx) => {
    if (!(await channels.lockUser(tx, projectId, userId))) throw new StatusError(400, NOT_FOUND);
    const row = await channels.find(tx, projectId, userId, channelId);
    if (!row) throw new StatusError(400, NOT_FOUND);
    const set: Parameters<typeof channels.update>[2] = {};
    const changed = b.value !== undefined && b.value !== row.value;
    const value = changed ? b.value! : row.value;
    if (changed) {
      if (await channels.findByValue(tx, projectId, userId, value)) throw new StatusError(400, 'Contact channel already exists');
      set.value = value;
      // A new address is unverified unless a server says otherwise.
      set.isVerified = false;
    }
    if (b.is_verified !== undefined) set.isVerified = b.is_verified;
    const usedForAuth = b.used_for_auth ?? row.usedForAuth;
    if (b.used_for_auth !== undefined) set.usedForAuth = b.used_for_auth;
    const becomesAuth = usedForAuth && (changed || !row.usedForAuth);
    if (becomesAuth) {
      // A new sign-in address (ASVS 3.7.1): a client needs a recent sign-in, and the address signs in and
      // receives codes only once verified; a server's change is trusted as it is.
      if (auth.type === 'client') {
        await assertRecentSignIn(services, auth, tx);
        if (!(set.isVerified ?? row.isVerified)) set.authRequiresVerification = true;
      } else {
        set.authRequiresVerification = false;
      }
      await channels.assertFreeForAuth(tx, projectId, userId, value, null);
    }
    if (b.is_primary === true) await channels.demotePrimary(tx, projectId, userId, row.id);
    if (b.is_primary !== undefined) set.isPrimary = b.is_primary;
    const recipients = await channels.verifiedAddresses(tx, projectId, userId);
    const updated = await channels.update(tx, row.id, set);
    if (row.usedForAuth && (changed || !usedForAuth)) {
      await queueNotice(tx, services, auth.project, { userId, type: 'sign_in_email_removed', extra: { email: row.value }, to: recipients });
    }
    if (becomesAuth) await queueNotice(tx, services, auth.project, { userId, type: 'sign_in_email_added', extra: { email: value }, to: recipients });
    return contactChannelView(updated);
  });
  sendQueuedNotices(services);
  return view;
}

export const contactChannelRoutes = [
  route({
    method: 'POST', path: '/contact-channels', summary: 'Create a contact channel', tags: ['Contact channels'],
    access: [...ACCESS_TYPES], status: 201,
    body: perAccess({ client: ClientContactChannelCreate, server: ServerContactChannelCreate }),
    response: ContactChannel,
    async handler(ctx) {
      const { services, auth } = ctx;
      const body = ctx.body as typeof ServerContactChannelCreate.static;
      const userId = targetUserId(ctx, body.user_id, 'Client can only create contact channels for their own user.')!;
      // A new sign-in address with client access needs a recent sign-in (a stolen token must not add one).
      if (body.used_for_auth) await assertRecentSignIn(services, auth);
      const isVerified = body.is_verified ?? false;
      const view = await services.db.transaction(async (tx) => {
        if (!(await channels.lockUser(tx, auth.project.id, userId))) {
          throw auth.type === 'client' ? new KnownErrors.CannotGetOwnUserWithoutUser() : new KnownErrors.UserIdDoesNotExist(userId);
        }
        if (await channels.findByValue(tx, auth.project.id, userId, body.value)) throw new StatusError(400, 'Contact channel already exists');
        if (body.used_for_auth) await channels.assertFreeForAuth(tx, auth.project.id, userId, body.value, body.value);
        if (body.is_primary) await channels.demotePrimary(tx, auth.project.id, userId);
        const recipients = body.used_for_auth ? await channels.verifiedAddresses(tx, auth.project.id, userId) : [];
        const row = await channels.insert(tx, {
          projectId: auth.project.id, userId, value: body.value, usedForAuth: body.used_for_auth,
          isPrimary: body.is_primary ?? false, isVerified,
          // A client's address signs in and receives sign-in and reset codes only once verified.
          authRequiresVerification: auth.type === 'client' && !isVerified,
        });
        if (body.used_for_auth) {
          await queueNotice(tx, services, auth.project, { userId, type: 'sign_in_email_added', extra: { email: body.value }, to: recipients });
        }
        return contactChannelView(row);
      });
      sendQueuedNotices(services);
      return view;
    },
  }),
  route({
    method: 'GET', path: '/contact-channels', summary: "List a user's contact channels", tags: ['Contact channels'],
    access: [...ACCESS_TYPES], query: ContactChannelListQuery, response: ContactChannelList,
    async handler(ctx) {
      const userId = targetUserId(ctx, ctx.query.user_id, 'Client can only list contact channels for their own user.');
      const rows = await channels.list(ctx.services.db, ctx.auth.project.id, { userId, channelId: ctx.query.contact_channel_id });
      return { items: rows.map(contactChannelView), is_paginated: false as const };
    },
  }),
  route({
    method: 'GET', path: '/contact-channels/:user_id/:contact_channel_id', summary: 'Get a contact channel', tags: ['Contact channels'],
    access: [...ACCESS_TYPES], params: ContactChannelParams, response: ContactChannel,
    async handler(ctx) {
      const userId = targetUserId(ctx, ctx.params.user_id, 'Client can only read contact channels for their own user.')!;
      const row = await channels.find(ctx.services.db, ctx.auth.project.id, userId, ctx.params.contact_channel_id);
      if (!row) throw new StatusError(404, `${NOT_FOUND}.`);
      return contactChannelView(row);
    },
  }),
  route({
    method: 'PATCH', path: '/contact-channels/:user_id/:contact_channel_id', summary: 'Update a contact channel', tags: ['Contact channels'],
    access: [...ACCESS_TYPES], params: ContactChannelParams,
    body: perAccess({ client: ClientContactChannelUpdate, server: ServerContactChannelUpdate }),
    response: ContactChannel,
    async handler(ctx) {
      const userId = targetUserId(ctx, ctx.params.user_id, 'Client can only update contact channels for their own user.')!;
      return applyUpdate(ctx, userId, ctx.params.contact_channel_id, ctx.body);
    },
  }),
  route({
    method: 'DELETE', path: '/contact-channels/:user_id/:contact_channel_id', summary: 'Delete a contact channel', tags: ['Contact channels'],
    access: [...ACCESS_TYPES], params: ContactChannelParams, response: Success,
    async handler(ctx) {
      const userId = targetUserId(ctx, ctx.params.user_id, 'Client can only delete contact channels for their own user.')!;
      const projectId = ctx.auth.project.id;
      await ctx.services.db.transaction(async (tx) => {
        await channels.lockUser(tx, projectId, userId);
        const recipients = await channels.verifiedAddresses(tx, projectId, userId);
        const removed = await channels.remove(tx, projectId, userId, ctx.params.contact_channel_id);
        if (!removed) throw new StatusError(400, NOT_FOUND);
        if (removed.usedForAuth) {
          await queueNotice(tx, ctx.services, ctx.auth.project, { userId, type: 'sign_in_email_removed', extra: { email: removed.value }, to: recipients });
        }
      });
      sendQueuedNotices(ctx.services);
      return { success: true as const };
    },
  }),
  route({
    method: 'POST', path: '/contact-channels/:user_id/:contact_channel_id/send-verification-code',
    summary: 'Send a verification email for a contact channel', tags: ['Contact channels'],
    access: [...ACCESS_TYPES], params: ContactChannelParams, body: SendVerificationCodeBody, response: Success,
    async handler(ctx) {
      const { services, auth, params, body } = ctx;
      let userId: string;
      if (auth.type === 'client') {
        if (!auth.userId) throw new KnownErrors.CannotGetOwnUserWithoutUser();
        userId = params.user_id === 'me' ? auth.userId : params.user_id;
        if (userId !== auth.userId) throw new StatusError(400, 'Can only send verification code for your own user');
      } else {
        userId = ctx.resolveUserId(params.user_id);
        if (!(await users.exists(services.db, auth.project.id, userId))) throw new KnownErrors.UserIdDoesNotExist(userId);
      }
      const user = await users.load(services.db, auth.project.id, userId);
      const channel = user && (await channels.find(services.db, auth.project.id, userId, params.contact_channel_id));
      if (!user || !channel) throw new StatusError(404, NOT_FOUND);
      if (channel.isVerified) throw new KnownErrors.EmailAlreadyVerified();
      await limitCodeSending(services, ctx.ip, auth.project, channel.value);
      await sendChannelVerificationEmail(services, auth.project, {
        userId, channelId: channel.id, email: channel.value, callbackUrl: body.callback_url, userDisplayName: user.display_name,
      });
      return { success: true as const };
    },
  }),
  route({
    method: 'POST', path: '/contact-channels/send-verification-code', summary: "Send a verification email for the user's primary email",
    tags: ['Contact channels'], hidden: true,
    access: [...ACCESS_TYPES], body: LegacySendVerificationCodeBody, response: Success,
    async handler(ctx) {
      const { services, auth, body } = ctx;
      const user = await ctx.requireUser(ctx.userRequiredError);
      if (body.email !== user.primary_email) throw new KnownErrors.EmailIsNotPrimaryEmail(body.email, user.primary_email as string);
      if (user.primary_email_verified) throw new KnownErrors.EmailAlreadyVerified();
      const channel = await channels.findPrimaryEmail(services.db, auth.project.id, user.id);
      if (!channel) throw new KnownErrors.EmailIsNotPrimaryEmail(body.email, null as unknown as string);
      await limitCodeSending(services, ctx.ip, auth.project, channel.value);
      await sendChannelVerificationEmail(services, auth.project, {
        userId: user.id, channelId: channel.id, email: channel.value, callbackUrl: body.callback_url, userDisplayName: user.display_name,
      });
      return { success: true as const };
    },
  }),
  route({
    method: 'POST', path: '/contact-channels/verify/check-code', summary: 'Check an email verification code', tags: ['Contact channels'],
    access: [...ACCESS_TYPES], body: CodeBody, response: IsCodeValid,
    async handler(ctx) {
      const project = ctx.auth.project;
      await redeemFlowCode(ctx.services, ctx.ip, project, { type: 'contact_channel_verification', code: ctx.body.code, consume: false });
      return { is_code_valid: true as const };
    },
  }),
  route({
    method: 'POST', path: '/contact-channels/verify', summary: 'Verify an email with a code', tags: ['Contact channels'],
    access: [...ACCESS_TYPES], body: CodeBody, response: Success,
    async handler(ctx) {
      const project = ctx.auth.project;
      await redeemFlowCode(ctx.services, ctx.ip, project, { type: 'contact_channel_verification', code: ctx.body.code, consume: true }, async (row) => {
        const data = row.data as { user_id?: string };
        const method = row.method as { email?: string };
        // The channel was deleted (or its address changed) since the mail went out: the code verifies nothing.
        if (!data.user_id || !method.email || !(await channels.markVerified(ctx.services.db, project.id, data.user_id, method.email))) {
          throw new KnownErrors.VerificationCodeNotFound();
        }
      });
      return { success: true as const };
    },
  }),
];

