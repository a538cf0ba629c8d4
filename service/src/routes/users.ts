// Users: the signed-in user (/users/me) for every access type, and user management for servers and admins.
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { Success } from '@gatehouse/shared/schemas/common';
import { ClientUser, ClientUserUpdate, ServerUser, ServerUserCreateBody, ServerUserUpdate, UserListQuery, UserParams, ServerUserPage } from '@gatehouse/shared/schemas/users';
import { perAccess, route } from '../http/route';
import { createUserFromFields } from '../users/create';
import { updateUser } from '../users/update-user';
import { deleteUser } from '../users/delete-user';
import { getUser, listUsers } from '../users/reads';
import { serverUserView, userViewFor } from '../presenters/users';
import { userFilter } from './user-export';
import { UserDataExport } from '@gatehouse/shared/schemas/user-export';
import { exportUserData } from '../users/export';
import { userExportView } from '../presenters/user-export';

const userView = perAccess({ client: ClientUser, server: ServerUser });
const userUpdate = perAccess({ client: ClientUserUpdate, server: ServerUserUpdate });
const SERVER = ['server', 'admin'] as const;

export const userRoutes = [
  route({
    method: 'GET', path: '/users/me', summary: 'Get the signed-in user', tags: ['Users'],
    access: [...ACCESS_TYPES], response: userView,
    async handler({ services, auth, requireUser }) {
      const user = await requireUser();
      return userViewFor(auth.type, user, services.activity.pendingForUser(user.id));
    },
  }),
  route({
    method: 'GET', path: '/users/me/export', summary: "Download the signed-in user's data as JSON (profile, contact channels, sessions, teams, OAuth accounts)", tags: ['Users'],
    access: ['client'], response: UserDataExport,
    async handler({ services, auth, requireUser }) {
      const user = await requireUser();
      const data = await exportUserData(services, { caller: auth, user });
      return userExportView({ ...data, projectId: auth.project.id, currentSessionId: auth.sessionId });
    },
  }),
  route({
    method: 'PATCH', path: '/users/me', summary: 'Update the signed-in user', tags: ['Users'],
    access: [...ACCESS_TYPES], body: userUpdate, response: userView,
    async handler({ services, auth, body, requireUser }) {
      const user = await updateUser(services, { caller: auth, userId: (await requireUser()).id, changes: body });
      return userViewFor(auth.type, user, services.activity.pendingForUser(user.id));
    },
  }),
  route({
    method: 'DELETE', path: '/users/me', summary: 'Delete the signed-in user', tags: ['Users'],
    access: [...ACCESS_TYPES], response: Success,
    async handler({ services, auth, requireUser }) {
      const user = await requireUser();
      await deleteUser(services, { caller: auth, userId: user.id });
      return { success: true as const };
    },
  }),
  route({
    method: 'GET', path: '/users', summary: 'List users (keyset pagination by sign-up time)', tags: ['Users'],
    access: [...SERVER], query: UserListQuery, response: ServerUserPage,
    async handler({ services, auth, query }) {
      const { items, nextCursor } = await listUsers(services, {
        projectId: auth.project.id, cursor: query.cursor, limit: query.limit, desc: query.desc, query: query.query, teamId: query.team_id,
        ...userFilter(query),
      });
      return { items: items.map((u) => serverUserView(u, services.activity.pendingForUser(u.id))), is_paginated: true as const, pagination: { next_cursor: nextCursor } };
    },
  }),
  route({
    method: 'POST', path: '/users', summary: 'Create a user', tags: ['Users'],
    access: [...SERVER], body: ServerUserCreateBody, response: ServerUser, status: 201,
    async handler({ services, auth, body }) {
      return serverUserView(await createUserFromFields(services, { project: auth.project, fields: body ?? {} }));
    },
  }),
  route({
    method: 'GET', path: '/users/:user_id', summary: 'Get a user', tags: ['Users'],
    access: [...SERVER], params: UserParams, response: ServerUser,
    async handler({ services, auth, params, resolveUserId }) {
      const user = await getUser(services, { projectId: auth.project.id, userId: resolveUserId(params.user_id) });
      return serverUserView(user, services.activity.pendingForUser(params.user_id));
    },
  }),
  route({
    method: 'PATCH', path: '/users/:user_id', summary: 'Update a user', tags: ['Users'],
    access: [...SERVER], params: UserParams, body: ServerUserUpdate, response: ServerUser,
    async handler({ services, auth, params, body, resolveUserId }) {
      const user = await updateUser(services, { caller: auth, userId: resolveUserId(params.user_id), changes: body });
      return serverUserView(user, services.activity.pendingForUser(user.id));
    },
  }),
  route({
    method: 'DELETE', path: '/users/:user_id', summary: 'Delete a user', tags: ['Users'],
    access: [...SERVER], params: UserParams, response: Success,
    async handler({ services, auth, params, resolveUserId }) {
      await deleteUser(services, { caller: auth, userId: resolveUserId(params.user_id) });
      return { success: true as const };
    },
  }),
];
