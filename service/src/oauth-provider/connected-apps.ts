// "Connected apps" (issue 27): the applications a user let sign them in through the project's OpenID provider, and
// revoking one: its remembered consent goes, with every grant, access token and refresh token it holds for the user.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as store from '../repo/oauth-provider';

export async function listConnectedApps(services: Services, input: { projectId: string; userId: string }): Promise<store.ConnectedApp[]> {
  return store.listConnectedApps(services.db, input.projectId, input.userId);
}

export async function revokeConnectedApp(services: Services, input: { projectId: string; userId: string; clientId: string }): Promise<void> {
  const revoked = await services.db.transaction((tx) => store.revokeConnectedApp(tx, input.projectId, input.userId, input.clientId));
  if (!revoked) throw new KnownErrors.OAuthProviderClientNotFound(input.clientId);
}
