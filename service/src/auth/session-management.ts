// Sessions as the API manages them (protocol-auth §2.9-§2.11): a session a server creates for a user (impersonation
// included), a user's sessions listed, signing out, revoking one, and a new access token for a refresh token.
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as sessions from '../repo/sessions';
import * as users from '../repo/users';
import type { ClientOrigin, IpInfo } from './activity';
import type { Caller } from './caller';
import { issueSession, mintAccessToken, type IssuedTokens } from './session-tokens';
import { assertSessionLive } from './session-lifetime';

export interface ServerSession { projectId: string; userId: string; origin: ClientOrigin; expiresInMs?: number; isImpersonation?: boolean }

/** POST /auth/sessions: a session for an existing user, a year by default. */
export async function createSessionForUser(services: Services, input: ServerSession): Promise<IssuedTokens> {
  if (!(await users.exists(services.db, input.projectId, input.userId))) throw new KnownErrors.UserIdDoesNotExist(input.userId);
  return issueSession(services, {
    projectId: input.projectId, userId: input.userId, origin: input.origin,
    expiresInMs: input.expiresInMs ?? sessions.ONE_YEAR_MS, isImpersonation: input.isImpersonation ?? false, byServer: true,
  });
}

/** A session as listed: its row, with the use the activity recorder has not written yet. */
export interface ListedSession { row: sessions.SessionRow; lastUsedAt: Date | null; ipInfo: IpInfo | null }

/** The user's live sessions, newest first; a client lists only its own, and only admins see impersonations. */
export async function listSessions(services: Services, input: { caller: Caller; userId: string }): Promise<ListedSession[]> {
  const { caller, userId } = input;
  if (caller.type === 'client' && userId !== caller.userId) throw new StatusError(403, 'Client can only list sessions for their own user.');
  // Not a UUID: no such user, so no sessions (and no uuid cast error in the query).
  const rows = users.isUuid(userId) ? await sessions.listForUser(services.db, caller.project.id, userId, { includeImpersonation: caller.type === 'admin' }) : [];
  return rows.map((row) => {
    const pending = services.activity.pendingFor(row.id);
    return { row, lastUsedAt: pending?.at ?? row.lastUsedAt, ipInfo: pending?.ipInfo ?? (row.lastUsedIpInfo as IpInfo | null) };
  });
}

/** DELETE /auth/sessions/current: ends the session of the caller's access token. */
export async function signOut(services: Services, input: { caller: Caller }): Promise<void> {
  const { caller } = input;
  if (!caller.sessionId) throw new KnownErrors.AccessTokenExpired(new Date());
  if (!(await sessions.revoke(services.db, caller.project.id, caller.sessionId))) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
  await services.revokedSessions.sync();
}

/** Ends another session (a client: one of its own user's; never the caller's own, which is signing out). */
export async function revokeSession(services: Services, input: { caller: Caller; sessionId: string }): Promise<void> {
  const { caller } = input;
  const session = await sessions.find(services.db, caller.project.id, input.sessionId);
  if (!session || (caller.type === 'client' && session.userId !== caller.userId)) throw new StatusError(404, 'Session not found.');
  if (session.id === caller.sessionId) throw new KnownErrors.CannotDeleteCurrentSession();
  await sessions.revoke(services.db, caller.project.id, session.id);
  await services.revokedSessions.sync();
}

/** A new access token for the live session holding `refreshToken` (the refresh grant and the SDK's refresh). */
export async function refreshAccessToken(services: Services, input: { projectId: string; refreshToken: string; origin: ClientOrigin }): Promise<string> {
  const session = await sessions.findByRefreshToken(services.db, input.projectId, input.refreshToken);
  if (!session) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
  await assertSessionLive(services, input.projectId, session);
  return mintAccessToken(services, input.projectId, session.userId, session.id, input.origin);
}
