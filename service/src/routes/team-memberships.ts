// /team-memberships/{team_id}/{user_id}: servers add and remove members; clients leave, or remove others with
// `$remove_members` (protocol-resources §3; teams/membership.ts).
import { Success } from '@gatehouse/shared/schemas/common';
import { TeamMembership, TeamMembershipCreate, TeamMembershipParams } from '@gatehouse/shared/schemas/team-members';
import { route } from '../http/route';
import { addTeamMember, removeTeamMember } from '../teams/membership';

export const teamMembershipRoutes = [
  route({
    method: 'POST', path: '/team-memberships/:team_id/:user_id', summary: 'Add a user to a team', tags: ['Teams'],
    access: ['server', 'admin'], params: TeamMembershipParams, body: TeamMembershipCreate, response: TeamMembership, status: 201,
    async handler({ services, auth, params, resolveUserId }) {
      const userId = resolveUserId(params.user_id);
      await addTeamMember(services, { project: auth.project, teamId: params.team_id, userId });
      return { team_id: params.team_id, user_id: userId };
    },
  }),
  route({
    method: 'DELETE', path: '/team-memberships/:team_id/:user_id', summary: 'Remove a user from a team (or leave it)', tags: ['Teams'],
    access: ['client', 'server', 'admin'], params: TeamMembershipParams, response: Success,
    async handler({ services, auth, params, resolveUserId }) {
      await removeTeamMember(services, { caller: auth, teamId: params.team_id, userId: resolveUserId(params.user_id) });
      return { success: true as const };
    },
  }),
];
