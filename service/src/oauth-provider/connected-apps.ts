// "Connected apps" (issue 27): the applications a user let sign them in through the project's OpenID provider, and
// revoking one: its remembered consent goes, with every grant, access token and refresh token it holds for the user.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as store from '../repo/oauth-provider';
import * as users from '../repo/users';

/** A connected app with the descriptions of the project's own scopes it was allowed, as the consent page showed them. */
export interface DescribedConnectedApp extends store.ConnectedApp { scopeDescriptions: Record<string, string> }

export async function listConnectedApps(services: Services, input: { projectId: string; userId: string }): Promise<DescribedConnectedApp[]> {
  const [apps, settings] = await Promise.all([
    store.listConnectedApps(services.db, input.projectId, input.userId), store.findSettings(services.db, input.projectId),
  ]);
  const described = new Map((settings?.scopes ?? []).map((s) => [s.name, s.description]));
  return apps.map((app) => ({
    ...app, scopeDescriptions: Object.fromEntries(app.scopes.flatMap((s) => (described.has(s) ? [[s, described.get(s)!]] : []))),
  }));
}

export async function revokeConnectedApp(services: Services, input: { projectId: string; userId: string; clientId: string }): Promise<void> {
  const revoked = await services.db.transaction((tx) => store.revokeConnectedApp(tx, input.projectId, input.userId, input.clientId));
  if (!revoked) throw new KnownErrors.OAuthProviderClientNotFound(input.clientId);
}

/** A user's consents as the project's admin or back end sees them (the console's user page): the user must exist. */
export async function listUserConsents(services: Services, input: { projectId: string; userId: string }): Promise<DescribedConnectedApp[]> {
  await assertUser(services, input);
  return listConnectedApps(services, input);
}

/** Revokes a user's consent to a client for them, with its grants and tokens (as the user's own revoke does). */
export async function revokeUserConsent(services: Services, input: { projectId: string; userId: string; clientId: string }): Promise<void> {
  await assertUser(services, input);
  await revokeConnectedApp(services, input);
}

async function assertUser(services: Services, input: { projectId: string; userId: string }): Promise<void> {
  if (!(await users.exists(services.db, input.projectId, input.userId))) throw new KnownErrors.UserNotFound();
}
