// Provider access tokens of a user's connected OAuth accounts (protocol-auth §3.6.5), e.g. to call GitHub's API
// on the user's behalf with the scopes the app asked for at sign-in or link time.
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import { ConnectedAccountAccessToken, ConnectedAccountAccessTokenBody, ConnectedAccountParams, ProviderParams } from '@gatehouse/shared/schemas/oauth';
import { route, type AuthedContext } from '../http/route';
import * as users from '../repo/users';
import * as accounts from '../repo/oauth-accounts';
import { enabledProviderConfig, providerClient } from '../oauth/project-providers';
import { connectedAccessToken } from '../oauth/provider-tokens';

async function accessToken(ctx: AuthedContext, userIdOrMe: string, providerId: string, scope: string | undefined) {
  const { services, auth } = ctx;
  const userId = ctx.resolveUserId(userIdOrMe);
  if (auth.type === 'client' && userId !== auth.userId) throw new StatusError(403, 'Client can only access its own connected accounts');
  if (!(await users.exists(services.db, auth.project.id, userId))) throw new KnownErrors.UserNotFound();
  const config = enabledProviderConfig(auth.project, providerId);
  if (config.type === 'shared') throw new KnownErrors.OAuthAccessTokenNotAvailableWithSharedOAuthKeys();
  if ((await accounts.listForUser(services.db, auth.project.id, userId, config.id)).length === 0) {
    throw new KnownErrors.OAuthConnectionNotConnectedToUser();
  }
  const requested = (scope ?? '').split(/\s+/).filter((s) => s !== '');
  const token = await connectedAccessToken(services, auth.project.id, userId, providerClient(services, config), requested);
  return { access_token: token };
}

export const connectedAccountRoutes = [
  route({
    method: 'POST', path: '/connected-accounts/:user_id/:provider_id/access-token', summary: "An access token for a user's connected OAuth account", tags: ['OAuth'],
    access: [...ACCESS_TYPES],
    params: ConnectedAccountParams,
    body: ConnectedAccountAccessTokenBody,
    response: ConnectedAccountAccessToken,
    status: 201,
    async handler(ctx) {
      return accessToken(ctx, ctx.params.user_id, ctx.params.provider_id, ctx.body?.scope);
    },
  }),
  route({
    method: 'POST', path: '/auth/oauth/connected-accounts/:provider_id/access-token', summary: 'Deprecated alias of /connected-accounts/me/{provider_id}/access-token', tags: ['OAuth'],
    access: [...ACCESS_TYPES],
    params: ProviderParams,
    body: ConnectedAccountAccessTokenBody,
    response: ConnectedAccountAccessToken,
    status: 201,
    async handler(ctx) {
      return accessToken(ctx, 'me', ctx.params.provider_id, ctx.body?.scope);
    },
  }),
];
