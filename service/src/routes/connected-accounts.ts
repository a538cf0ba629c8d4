// Provider access tokens of a user's connected OAuth accounts (protocol-auth §3.6.5; oauth/connected-account-token.ts).
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { ConnectedAccountAccessToken, ConnectedAccountAccessTokenBody, ConnectedAccountParams, ProviderParams } from '@gatehouse/shared/schemas/oauth';
import { route } from '../http/route';
import { connectedAccountAccessToken } from '../oauth/connected-account-token';
import { disconnectOAuthAccount } from '../oauth/disconnect';
import { Success } from '@gatehouse/shared/schemas/common';

export const connectedAccountRoutes = [
  route({
    method: 'DELETE', path: '/connected-accounts/:user_id/:provider_id', summary: "Disconnect a user's OAuth account at a provider (its stored tokens are deleted; never the last sign-in method)", tags: ['OAuth'],
    access: [...ACCESS_TYPES],
    params: ConnectedAccountParams,
    response: Success,
    async handler({ services, auth, params, resolveUserId }) {
      await disconnectOAuthAccount(services, { caller: auth, userId: resolveUserId(params.user_id), providerId: params.provider_id });
      return { success: true as const };
    },
  }),
  route({
    method: 'POST', path: '/connected-accounts/:user_id/:provider_id/access-token', summary: "An access token for a user's connected OAuth account", tags: ['OAuth'],
    access: [...ACCESS_TYPES],
    params: ConnectedAccountParams,
    body: ConnectedAccountAccessTokenBody,
    response: ConnectedAccountAccessToken,
    status: 201,
    async handler({ services, auth, params, body, resolveUserId }) {
      const token = await connectedAccountAccessToken(services, { caller: auth, userId: resolveUserId(params.user_id), providerId: params.provider_id, scope: body?.scope });
      return { access_token: token };
    },
  }),
  route({
    method: 'POST', path: '/auth/oauth/connected-accounts/:provider_id/access-token', summary: 'Deprecated alias of /connected-accounts/me/{provider_id}/access-token', tags: ['OAuth'],
    access: [...ACCESS_TYPES],
    params: ProviderParams,
    body: ConnectedAccountAccessTokenBody,
    response: ConnectedAccountAccessToken,
    status: 201,
    async handler({ services, auth, params, body, resolveUserId }) {
      const token = await connectedAccountAccessToken(services, { caller: auth, userId: resolveUserId('me'), providerId: params.provider_id, scope: body?.scope });
      return { access_token: token };
    },
  }),
];
