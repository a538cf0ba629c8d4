// /teams/{team_id}/sso-connections: a team's enterprise sign-in through its own identity provider, SAML 2.0 or
// OpenID Connect (issue 28; sso/connections.ts); and PATCH /teams/{team_id}/domains/{domain_id} to require SSO for
// a verified domain. Server and admin access.
import { List, Success } from '@gatehouse/shared/schemas/common';
import {
  SsoConnection, SsoConnectionCreate, SsoConnectionTest, SsoConnectionParams, SsoConnectionUpdate, TeamDomain, TeamDomainParams, TeamDomainUpdate, TeamIdParams,
} from '@gatehouse/shared/schemas/team-enterprise';
import { route } from '../http/route';
import { startConnectionTest } from '../sso/connection-test';
import { createSsoConnection, deleteSsoConnection, getSsoConnection, listSsoConnections, updateSsoConnection } from '../sso/connections';
import { setDomainSsoRequired } from '../domains/team-domains';
import { ssoConnectionView } from '../presenters/sso';
import { teamDomainView } from '../presenters/team-domains';

export const teamSsoConnectionRoutes = [
  route({
    method: 'POST', path: '/teams/:team_id/sso-connections', summary: 'Add a SAML or OIDC connection to a team', tags: ['Teams'],
    access: ['server', 'admin'], params: TeamIdParams, body: SsoConnectionCreate, response: SsoConnection, status: 201,
    async handler({ services, auth, params, body }) {
      const { type, ...fields } = body;
      return ssoConnectionView(await createSsoConnection(services, { projectId: auth.project.id, teamId: params.team_id, type, fields }), services.config.publicUrl);
    },
  }),
  route({
    method: 'GET', path: '/teams/:team_id/sso-connections', summary: "List a team's SSO connections", tags: ['Teams'],
    access: ['server', 'admin'], params: TeamIdParams, response: List(SsoConnection),
    async handler({ services, auth, params }) {
      const rows = await listSsoConnections(services, { projectId: auth.project.id, teamId: params.team_id });
      return { items: rows.map((r) => ssoConnectionView(r, services.config.publicUrl)), is_paginated: false as const };
    },
  }),
  route({
    method: 'GET', path: '/teams/:team_id/sso-connections/:connection_id', summary: 'Get an SSO connection', tags: ['Teams'],
    access: ['server', 'admin'], params: SsoConnectionParams, response: SsoConnection,
    async handler({ services, auth, params }) {
      return ssoConnectionView(await getSsoConnection(services, { projectId: auth.project.id, teamId: params.team_id, connectionId: params.connection_id }), services.config.publicUrl);
    },
  }),
  route({
    method: 'PATCH', path: '/teams/:team_id/sso-connections/:connection_id', summary: 'Update an SSO connection', tags: ['Teams'],
    access: ['server', 'admin'], params: SsoConnectionParams, body: SsoConnectionUpdate, response: SsoConnection,
    async handler({ services, auth, params, body }) {
      return ssoConnectionView(await updateSsoConnection(services, { projectId: auth.project.id, teamId: params.team_id, connectionId: params.connection_id, fields: body }), services.config.publicUrl);
    },
  }),
  route({
    method: 'DELETE', path: '/teams/:team_id/sso-connections/:connection_id', summary: 'Delete an SSO connection', tags: ['Teams'],
    access: ['server', 'admin'], params: SsoConnectionParams, response: Success,
    async handler({ services, auth, params }) {
      await deleteSsoConnection(services, { projectId: auth.project.id, teamId: params.team_id, connectionId: params.connection_id });
      return { success: true as const };
    },
  }),
  route({
    method: 'POST', path: '/teams/:team_id/sso-connections/:connection_id/test', summary: 'Start a test sign-in (the URL to open; the IdP\'s answer is reported, nobody is signed in)', tags: ['Teams'],
    access: ['server', 'admin'], params: SsoConnectionParams, response: SsoConnectionTest,
    async handler({ services, auth, params }) {
      return startConnectionTest(services, { projectId: auth.project.id, teamId: params.team_id, connectionId: params.connection_id });
    },
  }),
  route({
    method: 'PATCH', path: '/teams/:team_id/domains/:domain_id', summary: 'Require (or stop requiring) SSO for a verified domain', tags: ['Teams'],
    access: ['server', 'admin'], params: TeamDomainParams, body: TeamDomainUpdate, response: TeamDomain,
    async handler({ services, auth, params, body }) {
      return teamDomainView(await setDomainSsoRequired(services, { projectId: auth.project.id, teamId: params.team_id, domainId: params.domain_id, required: body.sso_required }));
    },
  }),
];
