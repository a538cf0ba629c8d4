// /internal/api-keys: a project's API key sets (admin). Full key values are shown once, at creation.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { generateApiKey } from '@gatehouse/shared/rules/codes';
import { ApiKeySet, ApiKeySetCreate, ApiKeySetFirstView, ApiKeySetParams, ApiKeySetUpdate, ApiKeySetList } from '@gatehouse/shared/schemas/api-keys';
import { route } from '../http/route';
import * as apiKeys from '../repo/project-keys';
import { keySetView } from '../presenters/api-keys';


export const internalApiKeyRoutes = [
  route({
    method: 'POST', path: '/internal/api-keys', summary: 'Create an API key set (values shown only in this response)', tags: ['API keys'],
    access: ['admin'], body: ApiKeySetCreate, response: ApiKeySetFirstView,
    async handler({ services, auth, body }) {
      const keys = {
        ...(body.has_publishable_client_key ? { publishable_client_key: generateApiKey('pck') } : {}),
        ...(body.has_secret_server_key ? { secret_server_key: generateApiKey('ssk') } : {}),
        ...(body.has_super_secret_admin_key ? { super_secret_admin_key: generateApiKey('sak') } : {}),
      };
      const row = await apiKeys.insert(services.db, { projectId: auth.project.id, description: body.description, expiresAt: new Date(body.expires_at_millis), keys });
      return { id: row.id, description: row.description, expires_at_millis: row.expiresAt.getTime(), created_at_millis: row.createdAt.getTime(), ...keys };
    },
  }),
  route({
    method: 'GET', path: '/internal/api-keys', summary: 'List API key sets (last four characters only)', tags: ['API keys'],
    access: ['admin'], response: ApiKeySetList,
    async handler({ services, auth }) {
      return { items: (await apiKeys.listForProject(services.db, auth.project.id)).map(keySetView), is_paginated: false as const };
    },
  }),
  route({
    method: 'GET', path: '/internal/api-keys/:api_key_id', summary: 'Get an API key set', tags: ['API keys'],
    access: ['admin'], params: ApiKeySetParams, response: ApiKeySet,
    async handler({ services, auth, params }) {
      const row = await apiKeys.find(services.db, auth.project.id, params.api_key_id);
      if (!row) throw new KnownErrors.ApiKeyNotFound();
      return keySetView(row);
    },
  }),
  route({
    method: 'PATCH', path: '/internal/api-keys/:api_key_id', summary: 'Update the description, or revoke (one way)', tags: ['API keys'],
    access: ['admin'], params: ApiKeySetParams, body: ApiKeySetUpdate, response: ApiKeySet,
    async handler({ services, auth, params, body }) {
      const row = await apiKeys.update(services.db, auth.project.id, params.api_key_id, { description: body.description, revoke: body.revoked });
      if (!row) throw new KnownErrors.ApiKeyNotFound();
      if (body.revoked) services.apiKeys.invalidate(auth.project.id);
      return keySetView(row);
    },
  }),
];
