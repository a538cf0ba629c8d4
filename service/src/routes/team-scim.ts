// /teams/{team_id}/scim-tokens and /teams/{team_id}/scim-groups: the owner's side of SCIM provisioning (issue 28).
// A token's value is in the create answer only, with the team's SCIM base URL; groups are created by the identity
// provider, and the owner maps each to the team permissions its members hold.
import { List, Success } from '@gatehouse/shared/schemas/common';
import {
  ScimGroup, ScimGroupCreate, ScimGroupParams, ScimGroupUpdate, ScimToken, ScimTokenCreate, ScimTokenFirstView, ScimTokenParams, TeamIdParams,
} from '@gatehouse/shared/schemas/team-enterprise';
import { route } from '../http/route';
import { createScimToken, listScimTokens, revokeScimToken } from '../scim/tokens';
import { createTeamGroup, listTeamScimGroups, setScimGroupPermissions } from '../scim/groups';
import { scimBaseUrl, scimGroupView, scimTokenView } from '../presenters/scim';

export const teamScimRoutes = [
  route({
    method: 'POST', path: '/teams/:team_id/scim-tokens', summary: 'Create a SCIM token for a team (its value is shown once)', tags: ['Teams'],
    access: ['server', 'admin'], params: TeamIdParams, body: ScimTokenCreate, response: ScimTokenFirstView, status: 201,
    async handler({ services, auth, params, body }) {
      const { row, token } = await createScimToken(services, { projectId: auth.project.id, teamId: params.team_id, description: body.description });
      return { ...scimTokenView(row), token, scim_base_url: scimBaseUrl(services.config.publicUrl, params.team_id) };
    },
  }),
  route({
    method: 'GET', path: '/teams/:team_id/scim-tokens', summary: "List a team's SCIM tokens", tags: ['Teams'],
    access: ['server', 'admin'], params: TeamIdParams, response: List(ScimToken),
    async handler({ services, auth, params }) {
      const rows = await listScimTokens(services, { projectId: auth.project.id, teamId: params.team_id });
      return { items: rows.map(scimTokenView), is_paginated: false as const };
    },
  }),
  route({
    method: 'DELETE', path: '/teams/:team_id/scim-tokens/:token_id', summary: 'Revoke a SCIM token', tags: ['Teams'],
    access: ['server', 'admin'], params: ScimTokenParams, response: Success,
    async handler({ services, auth, params }) {
      await revokeScimToken(services, { projectId: auth.project.id, teamId: params.team_id, tokenId: params.token_id });
      return { success: true as const };
    },
  }),
  route({
    method: 'GET', path: '/teams/:team_id/scim-groups', summary: 'List the groups SCIM pushed to a team', tags: ['Teams'],
    access: ['server', 'admin'], params: TeamIdParams, response: List(ScimGroup),
    async handler({ services, auth, params }) {
      const views = await listTeamScimGroups(services, { projectId: auth.project.id, teamId: params.team_id });
      return { items: views.map((v) => scimGroupView(v.group, v.memberCount)), is_paginated: false as const };
    },
  }),
  route({
    method: 'POST', path: '/teams/:team_id/scim-groups', summary: 'Name a group of the identity provider and the team permissions it grants', tags: ['Teams'],
    access: ['server', 'admin'], params: TeamIdParams, body: ScimGroupCreate, response: ScimGroup, status: 201,
    async handler({ services, auth, params, body }) {
      const v = await createTeamGroup(services, { projectId: auth.project.id, teamId: params.team_id, displayName: body.display_name, permissionIds: body.permission_ids ?? [] });
      return scimGroupView(v.group, v.memberCount);
    },
  }),
  route({
    method: 'PATCH', path: '/teams/:team_id/scim-groups/:group_id', summary: "Set the team permissions a SCIM group's members hold", tags: ['Teams'],
    access: ['server', 'admin'], params: ScimGroupParams, body: ScimGroupUpdate, response: ScimGroup,
    async handler({ services, auth, params, body }) {
      const v = await setScimGroupPermissions(services, { projectId: auth.project.id, teamId: params.team_id, groupId: params.group_id, permissionIds: body.permission_ids });
      return scimGroupView(v.group, v.memberCount);
    },
  }),
];
