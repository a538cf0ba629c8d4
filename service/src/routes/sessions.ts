// Sessions: server-created sessions (impersonation), listing, revoking, signing out, refreshing
// (auth/session-management.ts).
import { ACCESS_TYPES, STACK_HEADERS } from '@gatehouse/shared/constants';
import { Success } from '@gatehouse/shared/schemas/common';
import { RefreshedAccessToken, SessionCreateBody, SessionDeleteQuery, SessionListQuery, SessionParams, SessionTokens, SessionList } from '@gatehouse/shared/schemas/sessions';
import { route } from '../http/route';
import { createSessionForUser, listSessions, refreshAccessToken, revokeSession, signOut } from '../auth/session-management';
import { sessionView } from '../presenters/sessions';

export const sessionRoutes = [
  route({
    method: 'POST', path: '/auth/sessions', summary: 'Create a session for a user (server side; impersonation)', tags: ['Sessions'],
    access: ['server', 'admin'],
    body: SessionCreateBody,
    response: SessionTokens,
    async handler({ services, auth, body, resolveUserId, origin }) {
      const t = await createSessionForUser(services, {
        projectId: auth.project.id, userId: resolveUserId(body.user_id), origin, expiresInMs: body.expires_in_millis, isImpersonation: body.is_impersonation,
      });
      return { access_token: t.access_token, refresh_token: t.refresh_token };
    },
  }),
  route({
    method: 'GET', path: '/auth/sessions', summary: "List a user's sessions", tags: ['Sessions'],
    access: [...ACCESS_TYPES], query: SessionListQuery, response: SessionList,
    async handler({ services, auth, query, resolveUserId }) {
      const listed = await listSessions(services, { caller: auth, userId: resolveUserId(query.user_id) });
      return { items: listed.map((s) => sessionView(s.row, s.lastUsedAt, s.ipInfo, auth.sessionId)), is_paginated: false as const };
    },
  }),
  route({
    method: 'DELETE', path: '/auth/sessions/current', summary: 'Sign out: end the session of the access token', tags: ['Sessions'],
    access: [...ACCESS_TYPES], response: Success,
    async handler({ services, auth }) {
      await signOut(services, { caller: auth });
      return { success: true as const };
    },
  }),
  route({
    method: 'POST', path: '/auth/sessions/current/refresh', summary: 'Mint a new access token from the refresh token header', tags: ['Sessions'],
    access: [...ACCESS_TYPES], response: RefreshedAccessToken,
    async handler({ services, auth, headers, origin, schemaError }) {
      const refreshToken = headers.get(STACK_HEADERS.refreshToken);
      if (!refreshToken) throw schemaError('headers.x-stack-refresh-token must be defined');
      return { access_token: await refreshAccessToken(services, { projectId: auth.project.id, refreshToken, origin }) };
    },
  }),
  route({
    method: 'DELETE', path: '/auth/sessions/:id', summary: 'Revoke a session', tags: ['Sessions'],
    access: [...ACCESS_TYPES], params: SessionParams, query: SessionDeleteQuery, response: Success,
    async handler({ services, auth, params, query, schemaError, resolveUserId }) {
      if (auth.type === 'client' && query.user_id === undefined) throw schemaError('query.user_id must be defined');
      // Not used for the lookup, but `me` without a signed-in user is an error as everywhere else.
      if (query.user_id !== undefined) resolveUserId(query.user_id);
      await revokeSession(services, { caller: auth, sessionId: params.id });
      return { success: true as const };
    },
  }),
];
