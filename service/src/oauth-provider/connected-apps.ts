// "Connected apps" (issue 27): the applications a user let sign them in through the project's OpenID provider, and
// revoking one: its remembered consent goes, with every grant, access token and refresh token it holds for the user.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as store from '../repo/oauth-provider';
import * as users from '../repo/users';

export async function listConnectedApps(services: Services, input: { projectId: string; userId: string }): Promise<store.ConnectedApp[]> {
  return store.listConnectedApps(services.db, input.projectId, input.userId);
}

export async function revokeConnectedApp(services: Services, input: { projectId: string; userId: string; clientId: string }): Promise<void> {
  const revoked = await services.db.transaction((tx) => store.revokeConnectedApp(tx, input.projectId, input.userId, input.clientId));
  if (!revoked) throw new KnownErrors.OAuthProviderClientNotFound(input.clientId);
}

/** A user's consents as the project's admin or back end sees them (the console's user page): the user must exist. */
export async function listUserConsents(services: Services, input: { projectId: string; userId: string }): Promise<store.ConnectedApp[]> {
  await assertUser(services, input);
  return store.listConnectedApps(services.db, input.projectId, input.userId);
}

/** Revokes a user's consent to a client for them, with its grants and tokens (as the user's own revoke does). */
export async function revokeUserConsent(services: Services, input: { projectId: string; userId: string; clientId: string }): Promise<void> {
  await assertUser(services, input);
  await revokeConnectedApp(services, input);
}

async function assertUser(services: Services, input: { projectId: string; userId: string }): Promise<void> {
  if (!(await users.exists(services.db, input.projectId, input.userId))) throw new KnownErrors.UserNotFound();
}
