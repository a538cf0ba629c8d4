// /teams/{team_id}/domains: the email domains a team claims and proves with a DNS TXT record (issue 28;
// domains/team-domains.ts). Servers and admins only: a domain decides whom SCIM may provision into the team.
import { List, Success } from '@gatehouse/shared/schemas/common';
import { TeamDomain, TeamDomainCreate, TeamDomainParams, TeamIdParams } from '@gatehouse/shared/schemas/team-enterprise';
import { route } from '../http/route';
import { claimTeamDomain, listTeamDomains, removeTeamDomain, verifyTeamDomain } from '../domains/team-domains';
import { teamDomainView } from '../presenters/team-domains';

export const teamDomainRoutes = [
  route({
    method: 'POST', path: '/teams/:team_id/domains', summary: 'Claim an email domain for a team', tags: ['Teams'],
    access: ['server', 'admin'], params: TeamIdParams, body: TeamDomainCreate, response: TeamDomain, status: 201,
    async handler({ services, auth, params, body }) {
      return teamDomainView(await claimTeamDomain(services, { projectId: auth.project.id, teamId: params.team_id, domain: body.domain }));
    },
  }),
  route({
    method: 'GET', path: '/teams/:team_id/domains', summary: "List a team's email domains", tags: ['Teams'],
    access: ['server', 'admin'], params: TeamIdParams, response: List(TeamDomain),
    async handler({ services, auth, params }) {
      const rows = await listTeamDomains(services, { projectId: auth.project.id, teamId: params.team_id });
      return { items: rows.map(teamDomainView), is_paginated: false as const };
    },
  }),
  route({
    method: 'POST', path: '/teams/:team_id/domains/:domain_id/verify', summary: "Check a domain's DNS TXT record now", tags: ['Teams'],
    access: ['server', 'admin'], params: TeamDomainParams, response: TeamDomain,
    async handler({ services, auth, params }) {
      return teamDomainView(await verifyTeamDomain(services, { projectId: auth.project.id, teamId: params.team_id, domainId: params.domain_id }));
    },
  }),
  route({
    method: 'DELETE', path: '/teams/:team_id/domains/:domain_id', summary: "Remove a team's email domain", tags: ['Teams'],
    access: ['server', 'admin'], params: TeamDomainParams, response: Success,
    async handler({ services, auth, params }) {
      await removeTeamDomain(services, { projectId: auth.project.id, teamId: params.team_id, domainId: params.domain_id });
      return { success: true as const };
    },
  }),
];
