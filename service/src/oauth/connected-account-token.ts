// Provider access tokens of a user's connected OAuth accounts (protocol-auth §3.6.5), e.g. to call GitHub's API on
// the user's behalf with the scopes the app asked for at sign-in or link time.
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as users from '../repo/users';
import * as accounts from '../repo/oauth-accounts';
import type { Caller } from '../auth/caller';
import { enabledProviderConfig, providerClient } from './project-providers';
import { connectedAccessToken } from './provider-tokens';

export interface ConnectedAccountToken {
  caller: Caller;
  userId: string;
  providerId: string;
  /** Space-separated scopes the token must have (refreshed with them when the stored one lacks some). */
  scope?: string;
}

export async function connectedAccountAccessToken(services: Services, input: ConnectedAccountToken): Promise<string> {
  const { caller, userId } = input;
  const project = caller.project;
  if (caller.type === 'client' && userId !== caller.userId) throw new StatusError(403, 'Client can only access its own connected accounts');
  if (!(await users.exists(services.db, project.id, userId))) throw new KnownErrors.UserNotFound();
  const config = enabledProviderConfig(project, input.providerId);
  if (config.type === 'shared') throw new KnownErrors.OAuthAccessTokenNotAvailableWithSharedOAuthKeys();
  if ((await accounts.listForUser(services.db, project.id, userId, config.id)).length === 0) {
    throw new KnownErrors.OAuthConnectionNotConnectedToUser();
  }
  const requested = (input.scope ?? '').split(/\s+/).filter((s) => s !== '');
  return connectedAccessToken(services, project.id, userId, providerClient(services, config), requested);
}
