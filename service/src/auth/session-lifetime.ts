// A project's session lifetimes (ASVS 3.3.2; its security settings): a session (its refresh token) ends once its
// absolute lifetime has passed since the sign-in, and, with an idle timeout, once it was not used for that long.
// Judged at each use of the refresh token, by the settings as they are now (a shortened lifetime applies to the
// sessions already open). A session past either limit answers as an expired one: REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as sessions from '../repo/sessions';

export async function assertSessionLive(services: Services, projectId: string, session: { id: string; createdAt: Date }): Promise<void> {
  const project = await services.projects.get(projectId);
  if (!project) return;
  const { session_lifetime_seconds: lifetime, session_idle_timeout_seconds: idle } = project.security;
  const now = Date.now();
  if (session.createdAt.getTime() + lifetime * 1000 <= now) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
  if (idle === null) return;
  // Only projects with an idle limit pay this read; a use not yet flushed (auth/activity.ts) counts too.
  const stored = await sessions.lastUsedAt(services.db, projectId, session.id);
  const pending = services.activity.pendingFor(session.id)?.at;
  const last = Math.max(stored?.getTime() ?? 0, pending?.getTime() ?? 0, session.createdAt.getTime());
  if (last + idle * 1000 <= now) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
}
