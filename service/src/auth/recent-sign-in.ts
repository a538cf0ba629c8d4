// Sensitive changes made with client access need a recent sign-in (ASVS 2.5.6, 3.7.1): an access token stolen
// from an older session must not add a recovery address, turn MFA off or delete the account. "Recent" is the
// session's creation (its sign-in); refreshing the access token does not renew it. Server and admin access are
// the project's own backend and are not restricted.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import type { DB } from '../db';
import * as sessions from '../repo/sessions';

/**
 * Throws RECENT_SIGN_IN_REQUIRED when a client's session signed in longer ago than the configured window. Inside a
 * transaction pass it as `db` (PGlite has one connection: a read beside the open transaction would wait forever).
 */
export async function assertRecentSignIn(services: Services, auth: { type: string; project: { id: string }; sessionId?: string }, db: DB = services.db): Promise<void> {
  if (auth.type !== 'client') return;
  const session = auth.sessionId ? await sessions.find(db, auth.project.id, auth.sessionId) : null;
  const signedInAt = session?.createdAt.getTime() ?? 0;
  if (Date.now() - signedInAt > services.config.recentSignInSeconds * 1000) throw new KnownErrors.RecentSignInRequired();
}
