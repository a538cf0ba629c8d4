// Users: the signed-in user (/users/me) for every access type, and user management for servers and admins.
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import { Success } from '@gatehouse/shared/schemas/common';
import { ClientUser, ClientUserUpdate, ServerUser, ServerUserCreateBody, ServerUserUpdate, UserListQuery, UserParams, ServerUserPage } from '@gatehouse/shared/schemas/users';
import { perAccess, route, type AuthedContext } from '../http/route';
import type { Auth } from '../http/request-access';
import * as users from '../repo/users';
import { createUser } from '../users/create';
import { lockUser } from '../repo/contact-channels';
import { invalidateResetCodes } from '../repo/verification-codes';
import { applyUserUpdate, newUserFromCreate } from '../users/update';
import type { Services } from '../services';
import { assertRecentSignIn } from '../auth/recent-sign-in';
import { queueNotice, sendQueuedNotices } from '../auth/security-notices';
import { clientUserView, serverUserView } from '../presenters/users';

const userView = perAccess({ client: ClientUser, server: ServerUser });
const userUpdate = perAccess({ client: ClientUserUpdate, server: ServerUserUpdate });

/** The user as the caller's access type sees it. */
export function viewFor(services: Services, auth: Auth, row: users.UserRow) {
  return auth.type === 'client' ? clientUserView(row) : serverUserView(row, services.activity.pendingForUser(row.id));
}

async function loadOr404(ctx: Pick<AuthedContext, 'services' | 'auth'>, userId: string) {
  const row = await users.load(ctx.services.db, ctx.auth!.project.id, userId);
  if (!row) throw new KnownErrors.UserNotFound();
  return row;
}

/** What an update turns off that protects the account: MFA, passkey sign-in, OTP sign-in (null: nothing). */
function weakening(before: users.UserRow, body: ServerUserUpdate) {
  const mfaOff = before.requires_totp_mfa && body.totp_secret_base64 === null;
  // Replacing the TOTP secret also removes the one the owner has.
  const mfaReplaced = before.requires_totp_mfa && !!body.totp_secret_base64;
  const passkeyOff = before.passkey_auth_enabled && body.passkey_auth_enabled === false;
  const otpOff = before.otp_auth_enabled && body.otp_auth_enabled === false;
  return mfaOff || mfaReplaced || passkeyOff || otpOff ? { mfaOff, passkeyOff } : null;
}

async function updateUser(ctx: AuthedContext, before: users.UserRow, body: ServerUserUpdate) {
  const { services, auth } = ctx;
  const userId = before.id;
  const weakened = weakening(before, body);
  if (weakened) await assertRecentSignIn(services, auth);
  await services.db.transaction(async (tx) => {
    // The user row first, then its sessions (a new password ends them): the order the activity flush takes them
    // in; the other order could deadlock with it on PostgreSQL (seen as a 500 on PATCH with password_hash).
    await lockUser(tx, auth.project.id, userId);
    await applyUserUpdate(tx, services, auth.project, userId, body, auth.type === 'client');
    if (body.password !== undefined || body.password_hash !== undefined) await invalidateResetCodes(tx, auth.project.id, userId);
    const row = await users.load(tx, auth.project.id, userId);
    await services.events.emit(tx, auth.project.id, 'user.updated', row && serverUserView(row));
    if (weakened?.mfaOff) await queueNotice(tx, services, auth.project, { userId, type: 'mfa_disabled', extra: {} });
    if (weakened?.passkeyOff) await queueNotice(tx, services, auth.project, { userId, type: 'passkey_removed', extra: {} });
  });
  if (weakened) sendQueuedNotices(services);
  // A new password ends the user's sessions.
  if (body.password !== undefined || body.password_hash !== undefined) await services.revokedSessions.sync();
  return loadOr404(ctx, userId);
}

async function deleteUser(ctx: AuthedContext, userId: string) {
  const { services, auth } = ctx;
  await services.db.transaction(async (tx) => {
    const teamIds = await users.removeWithTeams(tx, auth.project.id, userId);
    if (!teamIds) throw new KnownErrors.UserNotFound();
    for (const id of teamIds) await services.events.emit(tx, auth.project.id, 'team_membership.deleted', { team_id: id, user_id: userId });
    await services.events.emit(tx, auth.project.id, 'user.deleted', { id: userId, teams: teamIds.map((id) => ({ id })) });
  });
  await services.revokedSessions.sync();
  return { success: true as const };
}

const SERVER = ['server', 'admin'] as const;
/**
 * GET /users page sizes: omitted → 100 (the protocol's "everything in one page" let one request read a whole
 * project); larger → 1,000 with `next_cursor` set (ASVS 11.1.5: bounded bulk reads).
 */
export const USER_PAGE_DEFAULT = 100;
export const USER_PAGE_MAX = 1000;

export const userRoutes = [
  route({
    method: 'GET', path: '/users/me', summary: 'Get the signed-in user', tags: ['Users'],
    access: [...ACCESS_TYPES], response: userView,
    async handler({ services, auth, requireUser }) {
      return viewFor(services, auth, await requireUser());
    },
  }),
  route({
    method: 'PATCH', path: '/users/me', summary: 'Update the signed-in user', tags: ['Users'],
    access: [...ACCESS_TYPES], body: userUpdate, response: userView,
    async handler(ctx) {
      const user = await ctx.requireUser();
      return viewFor(ctx.services, ctx.auth, await updateUser(ctx, user, ctx.body));
    },
  }),
  route({
    method: 'DELETE', path: '/users/me', summary: 'Delete the signed-in user', tags: ['Users'],
    access: [...ACCESS_TYPES], response: Success,
    async handler(ctx) {
      const user = await ctx.requireUser();
      if (ctx.auth.type === 'client' && !ctx.auth.project.config.client_user_deletion_enabled) {
        throw new StatusError(400, 'Client user deletion is not enabled for this project');
      }
      await assertRecentSignIn(ctx.services, ctx.auth);
      return deleteUser(ctx, user.id);
    },
  }),
  route({
    method: 'GET', path: '/users', summary: 'List users (keyset pagination by sign-up time)', tags: ['Users'],
    access: [...SERVER], query: UserListQuery, response: ServerUserPage,
    async handler({ services, auth, query }) {
      const { items, nextCursor } = await users.list(services.db, auth.project.id, {
        cursor: query.cursor, limit: Math.min(query.limit ?? USER_PAGE_DEFAULT, USER_PAGE_MAX), desc: query.desc, query: query.query, teamId: query.team_id,
      });
      return { items: items.map((u) => serverUserView(u, services.activity.pendingForUser(u.id))), is_paginated: true as const, pagination: { next_cursor: nextCursor } };
    },
  }),
  route({
    method: 'POST', path: '/users', summary: 'Create a user', tags: ['Users'],
    access: [...SERVER], body: ServerUserCreateBody, response: ServerUser, status: 201,
    async handler({ services, auth, body }) {
      const fields = await newUserFromCreate(services, auth.project, body ?? {});
      const { user } = await createUser(services, { project: auth.project, user: fields });
      return serverUserView(user);
    },
  }),
  route({
    method: 'GET', path: '/users/:user_id', summary: 'Get a user', tags: ['Users'],
    access: [...SERVER], params: UserParams, response: ServerUser,
    async handler(ctx) {
      return serverUserView(await loadOr404(ctx, ctx.resolveUserId(ctx.params.user_id)), ctx.services.activity.pendingForUser(ctx.params.user_id));
    },
  }),
  route({
    method: 'PATCH', path: '/users/:user_id', summary: 'Update a user', tags: ['Users'],
    access: [...SERVER], params: UserParams, body: ServerUserUpdate, response: ServerUser,
    async handler(ctx) {
      const userId = ctx.resolveUserId(ctx.params.user_id);
      const row = await updateUser(ctx, await loadOr404(ctx, userId), ctx.body);
      return serverUserView(row, ctx.services.activity.pendingForUser(row.id));
    },
  }),
  route({
    method: 'DELETE', path: '/users/:user_id', summary: 'Delete a user', tags: ['Users'],
    access: [...SERVER], params: UserParams, response: Success,
    async handler(ctx) {
      const userId = ctx.resolveUserId(ctx.params.user_id);
      if (!users.isUuid(userId)) throw new KnownErrors.UserNotFound();
      return deleteUser(ctx, userId);
    },
  }),
];
