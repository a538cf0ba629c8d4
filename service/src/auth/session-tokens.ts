// Issuing tokens for a new session: the one place every sign-in method ends.
import type { Services } from '../services';
import * as sessions from '../repo/sessions';
import { ipInfoOf, type ClientOrigin } from './activity';
import { noteScopeUser } from '../observability/security-events';

export interface IssuedTokens { access_token: string; refresh_token: string; user_id: string }

export async function issueSession(services: Services, p: {
  projectId: string; userId: string; origin?: ClientOrigin; expiresInMs?: number | null; isImpersonation?: boolean;
}): Promise<IssuedTokens> {
  noteScopeUser(p.userId);
  const { sessionId, refreshToken } = await sessions.create(services.db, p);
  const accessToken = await mintAccessToken(services, p.projectId, p.userId, sessionId, p.origin);
  return { access_token: accessToken, refresh_token: refreshToken, user_id: p.userId };
}

/** Mints an access token for an existing session and records the session's activity. */
export async function mintAccessToken(services: Services, projectId: string, userId: string, sessionId: string, origin?: ClientOrigin) {
  const token = await services.tokens.mint(projectId, userId, sessionId);
  services.activity.record(sessionId, projectId, userId, origin ? ipInfoOf(origin) : null);
  return token;
}
