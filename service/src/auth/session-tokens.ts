// Issuing tokens for a new session: the one place every sign-in method ends.
import type { Services } from '../services';
import * as sessions from '../repo/sessions';
import { ipInfoOf, type ClientOrigin } from './activity';
import type { CounterHit } from '../repo/rate-limits';
import { noteScopeUser } from '../observability/security-events';
import { deviceOf } from './devices';
import * as users from '../repo/users';
import type { AccessTokenClaimMapping } from '../repo/projects';
import { mappedClaims } from '@gatehouse/shared/rules/oauth-provider-claims';

export interface IssuedTokens { access_token: string; refresh_token: string; user_id: string }

export interface SessionRequest {
  projectId: string; userId: string; origin?: ClientOrigin; expiresInMs?: number | null; isImpersonation?: boolean;
  /** A session the project's server makes for the user (POST /auth/sessions) is no sign-in from the user's device. */
  byServer?: boolean;
  /** A sign-in's rate-limit hits, given back by the session insert's own statement (auth/rate-limits.ts). */
  refund?: readonly CounterHit[];
  /** The project's access-token claim mappings, when the caller holds the project record (no second lookup). */
  accessTokenClaims?: readonly AccessTokenClaimMapping[];
}

/** A session ready to be written (`session`), and the request it was made for. */
export interface SessionToOpen { request: SessionRequest; session: sessions.NewSession; ipInfo: ReturnType<typeof ipInfoOf> | null }

export async function issueSession(services: Services, p: SessionRequest): Promise<IssuedTokens> {
  const open = await sessionToOpen(services, p);
  return tokensFor(services, open, await sessions.insert(services.db, open.session, p.refund));
}

/**
 * The session row for `p`, not yet written: `issueSession` writes it alone; a sign-up writes it with the new user
 * (users/create.ts), then calls `tokensFor`.
 */
export async function sessionToOpen(services: Services, p: SessionRequest): Promise<SessionToOpen> {
  noteScopeUser(p.userId);
  // A new session lives as long as the project says (its security settings; one year by default), unless the caller
  // says otherwise (impersonation, the server's sessions).
  const expiresInMs = p.expiresInMs !== undefined ? p.expiresInMs : ((await services.projects.get(p.projectId))?.security.session_lifetime_seconds ?? 365 * 86_400) * 1000;
  const ipInfo = p.origin ? ipInfoOf(p.origin) : null;
  // Which browser and system signed in, for the sessions list (the account kit parses it); bounded, as it is the
  // client's to send.
  const userAgent = p.origin?.headers.get('user-agent')?.slice(0, 512) || null;
  return { request: p, session: sessions.newSession({ ...p, expiresInMs, used: { ipInfo }, userAgent }), ipInfo };
}

/** The tokens of a session `sessionToOpen` made and its caller wrote. */
export async function tokensFor(services: Services, { request: p, session, ipInfo }: SessionToOpen, { sessionId, usedAt }: sessions.InsertedSession): Promise<IssuedTokens> {
  const accessToken = await services.tokens.mint(p.projectId, p.userId, sessionId, await customClaims(services, p.projectId, p.userId, p.accessTokenClaims));
  // The session row holds this use already: the flush writes the user's activity only.
  // A sign-in's device is remembered with the activity (no statement more on the sign-in's path); an owner's
  // impersonation is not the user's device.
  const device = p.origin && !p.isImpersonation && !p.byServer ? { ...deviceOf(p.origin.headers.get('user-agent')), ip: p.origin.ip } : undefined;
  services.activity.record(sessionId, p.projectId, p.userId, ipInfo, { at: usedAt!, sessionWritten: true, device });
  return { access_token: accessToken, refresh_token: session.refreshToken, user_id: p.userId };
}

/** Mints an access token for an existing session and records the session's activity. */
export async function mintAccessToken(services: Services, projectId: string, userId: string, sessionId: string, origin?: ClientOrigin) {
  const token = await services.tokens.mint(projectId, userId, sessionId, await customClaims(services, projectId, userId));
  services.activity.record(sessionId, projectId, userId, origin ? ipInfoOf(origin) : null);
  return token;
}

/**
 * The claims the project maps from the user's metadata into its own access tokens (its OpenID provider's mappings
 * with `in_access_token`). The mappings come with the cached project record, and only a project that has some reads
 * the user, through the user-row cache (repo/users.ts `load`): a refresh of any other project reads nothing more.
 */
async function customClaims(services: Services, projectId: string, userId: string, known?: readonly AccessTokenClaimMapping[]): Promise<Record<string, unknown>> {
  const mappings = known ?? (await services.projects.get(projectId))?.accessTokenClaims ?? [];
  if (mappings.length === 0) return {};
  const user = await users.load(services.db, projectId, userId);
  return user ? mappedClaims(user, mappings, () => true) : {};
}
