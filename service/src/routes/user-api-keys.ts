// /user-api-keys and /team-api-keys (protocol-resources §11.2): create (the full secret is shown once), list, read,
// update/revoke, and the server-side check of a presented key (api-keys/user-team-keys.ts). Both kinds share one
// handler set.
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { List } from '@gatehouse/shared/schemas/common';
import {
  ApiKeyCheck, ApiKeyClientUpdate, ApiKeyParams, ApiKeyServerUpdate, TeamApiKey, TeamApiKeyCreate, TeamApiKeyFirstView, TeamApiKeyQuery,
  UserApiKey, UserApiKeyCreate, UserApiKeyFirstView, UserApiKeyQuery,
} from '@gatehouse/shared/schemas/user-api-keys';
import { perAccess, route, type RouteDef } from '../http/route';
import { checkApiKey, createApiKey, getApiKey, listApiKeys, updateApiKey, type KeyKind } from '../api-keys/user-team-keys';
import { apiKeyView } from '../presenters/api-keys';

function routesFor(kind: KeyKind): RouteDef[] {
  const base = `/${kind}-api-keys`;
  const tags = [kind === 'user' ? 'User API keys' : 'Team API keys'];
  const Key = kind === 'user' ? UserApiKey : TeamApiKey;
  const Query = kind === 'user' ? UserApiKeyQuery : TeamApiKeyQuery;
  return [
    route({
      method: 'POST', path: base, summary: `Create a ${kind} API key (the value is shown only in this response)`, tags,
      access: [...ACCESS_TYPES], body: kind === 'user' ? UserApiKeyCreate : TeamApiKeyCreate,
      // 200, not 201: the reference's answer.
      response: kind === 'user' ? UserApiKeyFirstView : TeamApiKeyFirstView,
      async handler({ services, auth, body }) {
        const { row, value } = await createApiKey(services, {
          caller: auth, kind, owner: body, description: body.description, isPublic: body.is_public,
          expiresAt: body.expires_at_millis == null ? null : new Date(body.expires_at_millis),
        });
        return apiKeyView(row, value);
      },
    }),
    route({
      method: 'GET', path: base, summary: `List ${kind} API keys, newest first (last four characters only)`, tags,
      access: [...ACCESS_TYPES], query: Query, response: List(Key),
      async handler({ services, auth, query }) {
        const rows = await listApiKeys(services, { caller: auth, kind, owner: query });
        return { items: rows.map((r) => apiKeyView(r)), is_paginated: false as const };
      },
    }),
    route({
      method: 'POST', path: `${base}/check`, summary: `Check a ${kind} API key; answers the key if it is valid`, tags,
      access: ['server', 'admin'], body: ApiKeyCheck, response: Key,
      async handler({ services, auth, body }) {
        return apiKeyView(await checkApiKey(services, { caller: auth, kind, secret: body.api_key }));
      },
    }),
    route({
      method: 'GET', path: `${base}/:api_key_id`, summary: `Get a ${kind} API key`, tags,
      access: [...ACCESS_TYPES], params: ApiKeyParams, query: Query, response: Key,
      async handler({ services, auth, params, query }) {
        return apiKeyView(await getApiKey(services, { caller: auth, kind, id: params.api_key_id, owner: query }));
      },
    }),
    route({
      method: 'PATCH', path: `${base}/:api_key_id`, summary: `Update a ${kind} API key, or revoke it (one way)`, tags,
      access: [...ACCESS_TYPES], params: ApiKeyParams, query: Query, body: perAccess({ client: ApiKeyClientUpdate, server: ApiKeyServerUpdate }), response: Key,
      async handler({ services, auth, params, query, body }) {
        const row = await updateApiKey(services, {
          caller: auth, kind, id: params.api_key_id, owner: query, description: body.description, revoke: body.revoked,
          expiresAt: body.expires_at_millis === undefined ? undefined : body.expires_at_millis === null ? null : new Date(body.expires_at_millis),
        });
        return apiKeyView(row);
      },
    }),
  ];
}

export const userApiKeyRoutes = [...routesFor('user'), ...routesFor('team')];
