// /internal/api-keys: a project's API key sets (admin; projects/api-key-sets.ts). Full key values are shown once, at
// creation.
import { ApiKeySet, ApiKeySetCreate, ApiKeySetFirstView, ApiKeySetParams, ApiKeySetUpdate, ApiKeySetList } from '@gatehouse/shared/schemas/api-keys';
import { route } from '../http/route';
import { createKeySet, getKeySet, listKeySets, updateKeySet } from '../projects/api-key-sets';
import { keySetView } from '../presenters/api-keys';

export const internalApiKeyRoutes = [
  route({
    method: 'POST', path: '/internal/api-keys', summary: 'Create an API key set (values shown only in this response)', tags: ['API keys'],
    access: ['admin'], body: ApiKeySetCreate, response: ApiKeySetFirstView,
    async handler({ services, auth, body }) {
      const { row, keys } = await createKeySet(services, {
        projectId: auth.project.id, description: body.description, expiresAt: new Date(body.expires_at_millis),
        publishableClientKey: !!body.has_publishable_client_key, secretServerKey: !!body.has_secret_server_key, superSecretAdminKey: !!body.has_super_secret_admin_key,
      });
      return { id: row.id, description: row.description, expires_at_millis: row.expiresAt.getTime(), created_at_millis: row.createdAt.getTime(), ...keys };
    },
  }),
  route({
    method: 'GET', path: '/internal/api-keys', summary: 'List API key sets (last four characters only)', tags: ['API keys'],
    access: ['admin'], response: ApiKeySetList,
    async handler({ services, auth }) {
      return { items: (await listKeySets(services, { projectId: auth.project.id })).map(keySetView), is_paginated: false as const };
    },
  }),
  route({
    method: 'GET', path: '/internal/api-keys/:api_key_id', summary: 'Get an API key set', tags: ['API keys'],
    access: ['admin'], params: ApiKeySetParams, response: ApiKeySet,
    async handler({ services, auth, params }) {
      return keySetView(await getKeySet(services, { projectId: auth.project.id, id: params.api_key_id }));
    },
  }),
  route({
    method: 'PATCH', path: '/internal/api-keys/:api_key_id', summary: 'Update the description, or revoke (one way)', tags: ['API keys'],
    access: ['admin'], params: ApiKeySetParams, body: ApiKeySetUpdate, response: ApiKeySet,
    async handler({ services, auth, params, body }) {
      return keySetView(await updateKeySet(services, { projectId: auth.project.id, id: params.api_key_id, description: body.description, revoke: body.revoked }));
    },
  }),
];
