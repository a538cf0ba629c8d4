// The project as an OpenID provider (issue 27; Gatehouse's own API). Admin: its OAuth clients,
// GET/POST /oauth-provider/clients and GET/PATCH/DELETE /oauth-provider/clients/{client_id} (the create answer alone
// carries a confidential client's secret); a user's consents, GET /oauth-provider/consents?user_id= and
// DELETE /oauth-provider/consents/{client_id}?user_id= (admin or server). Client access with the user's token: the consent page reads an
// authorization request (GET /oauth-provider/interactions/{id}) and answers it (POST). The protocol endpoints
// themselves are served at the issuer, `{public URL}/oidc/{project id}` (http/oidc-mount.ts).
import { Success } from '@gatehouse/shared/schemas/common';
import {
  OAuthProviderClient, OAuthProviderClientActivity, OAuthProviderClientCreate, OAuthProviderClientFirstView, OAuthProviderClientList, OAuthProviderClientParams,
  OAuthProviderClientUpdate, OAuthProviderInteraction, OAuthProviderInteractionAnswer, OAuthProviderInteractionParams,
  OAuthProviderInteractionResult, OAuthProviderConnectedAppList, OAuthProviderConsentQuery, OAuthProviderSettings, OAuthProviderSettingsUpdate,
} from '@gatehouse/shared/schemas/oauth-provider';
import { listConnectedApps, listUserConsents, revokeConnectedApp, revokeUserConsent } from '../oauth-provider/connected-apps';
import { route } from '../http/route';
import { createClient, deleteClient, getClient, getClientActivity, listClients, updateClient } from '../oauth-provider/clients';
import { answerInteraction, showInteraction } from '../oauth-provider/interactions';
import { clientActivityView, connectedAppView, providerClientView, providerInteractionView, providerSettingsView } from '../presenters/oauth-provider';
import { getSettings, updateSettings } from '../oauth-provider/settings';

const TAGS = ['OAuth provider'];

export const oauthProviderRoutes = [
  route({
    method: 'GET', path: '/oauth-provider/clients', summary: "[Gatehouse] List the OAuth clients of the project's OpenID provider", tags: TAGS,
    access: ['admin'], response: OAuthProviderClientList,
    async handler({ services, auth }) {
      return { items: (await listClients(services, { projectId: auth.project.id })).map(providerClientView), is_paginated: false as const };
    },
  }),
  route({
    method: 'POST', path: '/oauth-provider/clients', summary: '[Gatehouse] Register an OAuth client; a confidential client\'s secret is in this answer only', tags: TAGS,
    access: ['admin'], body: OAuthProviderClientCreate, response: OAuthProviderClientFirstView, status: 201,
    async handler({ services, auth, body }) {
      const { row, secret } = await createClient(services, {
        projectId: auth.project.id, clientType: body.client_type,
        fields: {
          displayName: body.display_name, redirectUris: body.redirect_uris, grantTypes: body.grant_types, scopes: body.scopes, logoUrl: body.logo_url,
          accessTokenLifetimeSeconds: body.access_token_lifetime_seconds, idTokenLifetimeSeconds: body.id_token_lifetime_seconds,
          refreshTokenLifetimeSeconds: body.refresh_token_lifetime_seconds,
        },
      });
      return { ...providerClientView(row), client_secret: secret };
    },
  }),
  route({
    method: 'GET', path: '/oauth-provider/clients/:client_id', summary: '[Gatehouse] Get an OAuth client', tags: TAGS,
    access: ['admin'], params: OAuthProviderClientParams, response: OAuthProviderClient,
    async handler({ services, auth, params }) {
      return providerClientView(await getClient(services, { projectId: auth.project.id, clientId: params.client_id }));
    },
  }),
  route({
    method: 'GET', path: '/oauth-provider/clients/:client_id/activity', summary: "[Gatehouse] An OAuth client's consents granted and token activity", tags: TAGS,
    access: ['admin'], params: OAuthProviderClientParams, response: OAuthProviderClientActivity,
    async handler({ services, auth, params }) {
      return clientActivityView(await getClientActivity(services, { projectId: auth.project.id, clientId: params.client_id }));
    },
  }),
  route({
    method: 'PATCH', path: '/oauth-provider/clients/:client_id', summary: '[Gatehouse] Change an OAuth client', tags: TAGS,
    access: ['admin'], params: OAuthProviderClientParams, body: OAuthProviderClientUpdate, response: OAuthProviderClient,
    async handler({ services, auth, params, body }) {
      return providerClientView(await updateClient(services, {
        projectId: auth.project.id, clientId: params.client_id,
        fields: {
          displayName: body.display_name, redirectUris: body.redirect_uris, grantTypes: body.grant_types, scopes: body.scopes, logoUrl: body.logo_url,
          accessTokenLifetimeSeconds: body.access_token_lifetime_seconds, idTokenLifetimeSeconds: body.id_token_lifetime_seconds,
          refreshTokenLifetimeSeconds: body.refresh_token_lifetime_seconds,
        },
      }));
    },
  }),
  route({
    method: 'DELETE', path: '/oauth-provider/clients/:client_id', summary: '[Gatehouse] Remove an OAuth client with its consents and tokens', tags: TAGS,
    access: ['admin'], params: OAuthProviderClientParams, response: Success,
    async handler({ services, auth, params }) {
      await deleteClient(services, { projectId: auth.project.id, clientId: params.client_id });
      return { success: true as const };
    },
  }),
  route({
    method: 'GET', path: '/oauth-provider/settings', summary: "[Gatehouse] The settings of the project's OpenID provider: dynamic client registration, protected resources, project scopes and custom claims", tags: TAGS,
    access: ['admin'], response: OAuthProviderSettings,
    async handler({ services, auth }) {
      return providerSettingsView(await getSettings(services, { projectId: auth.project.id }));
    },
  }),
  route({
    method: 'PATCH', path: '/oauth-provider/settings', summary: "[Gatehouse] Change the settings of the project's OpenID provider", tags: TAGS,
    access: ['admin'], body: OAuthProviderSettingsUpdate, response: OAuthProviderSettings,
    async handler({ services, auth, body }) {
      return providerSettingsView(await updateSettings(services, {
        projectId: auth.project.id, dynamicClientRegistration: body.dynamic_client_registration, resources: body.resources,
        scopes: body.scopes, claims: body.claims,
      }));
    },
  }),
  route({
    method: 'GET', path: '/oauth-provider/interactions/:interaction_id', summary: '[Gatehouse] An authorization request waiting for the signed-in user: the client and the scopes it asks for', tags: TAGS,
    access: ['client'], params: OAuthProviderInteractionParams, response: OAuthProviderInteraction,
    async handler({ services, auth, params, requireUser }) {
      const user = await requireUser();
      return providerInteractionView(await showInteraction(services, { projectId: auth.project.id, userId: user.id, interactionId: params.interaction_id }));
    },
  }),
  route({
    method: 'POST', path: '/oauth-provider/interactions/:interaction_id', summary: '[Gatehouse] Allow or deny an authorization request as the signed-in user; answers where the browser goes next', tags: TAGS,
    access: ['client'], params: OAuthProviderInteractionParams, body: OAuthProviderInteractionAnswer, response: OAuthProviderInteractionResult,
    async handler({ services, auth, params, body, requireUser }) {
      const user = await requireUser();
      const redirectTo = await answerInteraction(services, { projectId: auth.project.id, userId: user.id, interactionId: params.interaction_id, allow: body.allow });
      return { redirect_to: redirectTo };
    },
  }),
  route({
    method: 'GET', path: '/oauth-provider/connected-apps', summary: '[Gatehouse] The applications the signed-in user let sign them in, with the scopes allowed', tags: TAGS,
    access: ['client'], response: OAuthProviderConnectedAppList,
    async handler({ services, auth, requireUser }) {
      const user = await requireUser();
      return { items: (await listConnectedApps(services, { projectId: auth.project.id, userId: user.id })).map(connectedAppView), is_paginated: false as const };
    },
  }),
  route({
    method: 'DELETE', path: '/oauth-provider/connected-apps/:client_id', summary: "[Gatehouse] Revoke an application's access: its consent, grants and tokens for the signed-in user", tags: TAGS,
    access: ['client'], params: OAuthProviderClientParams, response: Success,
    async handler({ services, auth, params, requireUser }) {
      const user = await requireUser();
      await revokeConnectedApp(services, { projectId: auth.project.id, userId: user.id, clientId: params.client_id });
      return { success: true as const };
    },
  }),
  route({
    method: 'GET', path: '/oauth-provider/consents', summary: "[Gatehouse] A user's consents: the applications they let sign them in, with the scopes allowed", tags: TAGS,
    access: ['server', 'admin'], query: OAuthProviderConsentQuery, response: OAuthProviderConnectedAppList,
    async handler({ services, auth, query }) {
      return { items: (await listUserConsents(services, { projectId: auth.project.id, userId: query.user_id })).map(connectedAppView), is_paginated: false as const };
    },
  }),
  route({
    method: 'DELETE', path: '/oauth-provider/consents/:client_id', summary: "[Gatehouse] Revoke a user's consent to an application, with its grants and tokens for them", tags: TAGS,
    access: ['server', 'admin'], params: OAuthProviderClientParams, query: OAuthProviderConsentQuery, response: Success,
    async handler({ services, auth, params, query }) {
      await revokeUserConsent(services, { projectId: auth.project.id, userId: query.user_id, clientId: params.client_id });
      return { success: true as const };
    },
  }),
];
