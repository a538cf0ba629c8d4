// Sign-in through a team's SSO connection, browser side (issue 28; sso/sign-in.ts): the app asks which connection
// an address uses (/discover), sends the browser to /authorize (OAuth's parameters, with `email`), and an OIDC
// provider sends it back to /callback/{connection}; SAML answers at the ACS outside the API (http/saml.ts). The code
// the flow ends with is redeemed at /auth/oauth/token.
import { Type } from '@sinclair/typebox';
import { ManagingOrganizationList, SsoAuthorizeQuery, SsoDiscoverQuery, SsoDiscovery, SsoStatus } from '@gatehouse/shared/schemas/team-enterprise';
import { managingOrganizations } from '../sso/managing-organizations';
import { connectionTestPage } from '../http/sso-pages';
import { openConnectionTest } from '../sso/connection-test';
import { route } from '../http/route';
import { HttpResult, errorResult } from '../http/respond';
import { discoverSso, finishOidcSignIn, ssoStatus, startSsoSignIn } from '../sso/sign-in';

export const ssoRoutes = [
  route({
    method: 'GET', path: '/users/me/identity-providers', summary: "The organizations whose identity provider manages the signed-in user", tags: ['SSO'],
    access: ['client', 'server', 'admin'], response: ManagingOrganizationList,
    async handler({ services, auth, requireUser }) {
      const user = await requireUser();
      const items = await managingOrganizations(services, { projectId: auth.project.id, userId: user.id });
      return {
        items: items.map((o) => ({ team_id: o.teamId, team_display_name: o.teamName, connection_display_name: o.connectionName, connection_type: o.connectionType, provisioned_by_scim: o.provisionedByScim })),
        is_paginated: false as const,
      };
    },
  }),
  route({
    method: 'GET', path: '/auth/sso/status', summary: 'Whether the project offers sign-in through SSO', tags: ['SSO'],
    access: ['client', 'server', 'admin'], response: SsoStatus,
    async handler({ services, auth }) {
      return ssoStatus(services, { project: auth.project });
    },
  }),
  route({
    method: 'GET', path: '/auth/sso/discover', summary: 'Which SSO connection an email address signs in with', tags: ['SSO'],
    access: ['client', 'server', 'admin'], query: SsoDiscoverQuery, response: SsoDiscovery,
    async handler({ services, auth, query }) {
      const { connection, ssoRequired } = await discoverSso(services, { project: auth.project, email: query.email });
      return { connection_id: connection.id, type: connection.type === 'saml' ? 'saml' as const : 'oidc' as const, display_name: connection.displayName, sso_required: ssoRequired };
    },
  }),
  route({
    method: 'GET', path: '/auth/sso/authorize', summary: "Start a sign-in through a team's SSO (browser navigation)", tags: ['SSO'],
    access: 'optional', query: SsoAuthorizeQuery,
    async handler({ services, query }) {
      const { location, setCookie } = await startSsoSignIn(services, query);
      return HttpResult.redirect(location, setCookie ? { 'set-cookie': setCookie } : {});
    },
  }),
  route({
    method: 'GET', path: '/auth/sso/test/:state', summary: "An OIDC connection test's window: bound to the flow, then sent to the provider", tags: ['SSO'],
    access: 'optional', params: Type.Object({ state: Type.String() }), hidden: true,
    async handler({ services, params }) {
      const { location, setCookie } = await openConnectionTest(services, params.state);
      return HttpResult.redirect(location, { 'set-cookie': setCookie });
    },
  }),
  route({
    method: 'GET', path: '/auth/sso/callback/:connection_id', summary: "The OIDC provider's redirect back", tags: ['SSO'],
    access: 'optional', params: Type.Object({ connection_id: Type.String() }),
    async handler({ services, params, url, headers, requestId }) {
      const outcome = await finishOidcSignIn(services, { connectionId: params.connection_id, query: url.searchParams, cookieHeader: headers.get('cookie') });
      const clear: Record<string, string> = outcome.clearCookie ? { 'set-cookie': outcome.clearCookie } : {};
      if (outcome.type === 'redirect') return HttpResult.redirect(outcome.location, clear);
      if (outcome.type === 'report') {
        const pageResponse = connectionTestPage(outcome.report);
        return new HttpResult(pageResponse.status, await pageResponse.text(), { ...Object.fromEntries(pageResponse.headers), ...clear });
      }
      const result = errorResult(outcome.error, requestId, { isProduction: services.config.isProduction, method: 'GET', url: url.pathname });
      return new HttpResult(result.status, result.body, { ...result.headers, ...clear });
    },
  }),
];
