// Sessions: server-created sessions (impersonation), listing, revoking, signing out, refreshing.
import { ACCESS_TYPES, STACK_HEADERS } from '@gatehouse/shared/constants';
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import { Success } from '@gatehouse/shared/schemas/common';
import { RefreshedAccessToken, Session, SessionCreateBody, SessionDeleteQuery, SessionListQuery, SessionParams, SessionTokens, SessionList } from '@gatehouse/shared/schemas/sessions';
import { route } from '../http/route';
import * as sessions from '../repo/sessions';
import * as users from '../repo/users';
import { issueSession, mintAccessToken } from '../auth/session-tokens';

export const sessionRoutes = [
  route({
    method: 'POST', path: '/auth/sessions', summary: 'Create a session for a user (server side; impersonation)', tags: ['Sessions'],
    access: ['server', 'admin'],
    body: SessionCreateBody,
    response: SessionTokens,
    async handler({ services, auth, body, resolveUserId, origin }) {
      const userId = resolveUserId(body.user_id);
      if (!(await users.exists(services.db, auth.project.id, userId))) throw new KnownErrors.UserIdDoesNotExist(userId);
      const t = await issueSession(services, {
        projectId: auth.project.id, userId, origin,
        expiresInMs: body.expires_in_millis ?? sessions.ONE_YEAR_MS, isImpersonation: body.is_impersonation ?? false,
      });
      return { access_token: t.access_token, refresh_token: t.refresh_token };
    },
  }),
  route({
    method: 'GET', path: '/auth/sessions', summary: "List a user's sessions", tags: ['Sessions'],
    access: [...ACCESS_TYPES], query: SessionListQuery, response: SessionList,
    async handler({ services, auth, query, resolveUserId }) {
      const userId = resolveUserId(query.user_id);
      if (auth.type === 'client' && userId !== auth.userId) throw new StatusError(403, 'Client can only list sessions for their own user.');
      // Not a UUID: no such user, so no sessions (and no uuid cast error in the query).
      const rows = users.isUuid(userId) ? await sessions.listForUser(services.db, auth.project.id, userId, { includeImpersonation: auth.type === 'admin' }) : [];
      return {
        items: rows.map((s) => {
          const pending = services.activity.pendingFor(s.id);
          const lastUsedAt = pending?.at ?? s.lastUsedAt;
          const ip = pending?.ipInfo ?? (s.lastUsedIpInfo as Session['last_used_at_end_user_ip_info'] | null);
          return {
            id: s.id, user_id: s.userId, created_at: s.createdAt.getTime(), is_impersonation: s.isImpersonation,
            ...(lastUsedAt ? { last_used_at: lastUsedAt.getTime() } : {}),
            is_current_session: s.id === auth.sessionId,
            ...(ip ? { last_used_at_end_user_ip_info: ip } : {}),
          };
        }),
        is_paginated: false as const,
      };
    },
  }),
  route({
    method: 'DELETE', path: '/auth/sessions/current', summary: 'Sign out: end the session of the access token', tags: ['Sessions'],
    access: [...ACCESS_TYPES], response: Success,
    async handler({ services, auth }) {
      if (!auth.sessionId) throw new KnownErrors.AccessTokenExpired(new Date());
      if (!(await sessions.revoke(services.db, auth.project.id, auth.sessionId))) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
      await services.revokedSessions.sync();
      return { success: true as const };
    },
  }),
  route({
    method: 'POST', path: '/auth/sessions/current/refresh', summary: 'Mint a new access token from the refresh token header', tags: ['Sessions'],
    access: [...ACCESS_TYPES], response: RefreshedAccessToken,
    async handler({ services, auth, headers, origin, schemaError }) {
      const refreshToken = headers.get(STACK_HEADERS.refreshToken);
      if (!refreshToken) throw schemaError('headers.x-stack-refresh-token must be defined');
      const session = await sessions.findByRefreshToken(services.db, auth.project.id, refreshToken);
      if (!session) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
      return { access_token: await mintAccessToken(services, auth.project.id, session.userId, session.id, origin) };
    },
  }),
  route({
    method: 'DELETE', path: '/auth/sessions/:id', summary: 'Revoke a session', tags: ['Sessions'],
    access: [...ACCESS_TYPES], params: SessionParams, query: SessionDeleteQuery, response: Success,
    async handler({ services, auth, params, query, schemaError, resolveUserId }) {
      if (auth.type === 'client' && query.user_id === undefined) throw schemaError('query.user_id must be defined');
      // Not used for the lookup, but `me` without a signed-in user is an error as everywhere else.
      if (query.user_id !== undefined) resolveUserId(query.user_id);
      const session = await sessions.find(services.db, auth.project.id, params.id);
      if (!session || (auth.type === 'client' && session.userId !== auth.userId)) throw new StatusError(404, 'Session not found.');
      if (session.id === auth.sessionId) throw new KnownErrors.CannotDeleteCurrentSession();
      await sessions.revoke(services.db, auth.project.id, session.id);
      await services.revokedSessions.sync();
      return { success: true as const };
    },
  }),
];
