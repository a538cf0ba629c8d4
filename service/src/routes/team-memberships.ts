// /team-memberships/{team_id}/{user_id}: servers add and remove members; clients leave, or remove others with
// `$remove_members` (protocol-resources §3).
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { Success } from '@gatehouse/shared/schemas/common';
import { TeamMembership, TeamMembershipCreate, TeamMembershipParams } from '@gatehouse/shared/schemas/team-members';
import { route } from '../http/route';
import * as teams from '../repo/teams';
import * as members from '../repo/team-members';
import * as users from '../repo/users';
import { assertTeamPermission } from '../teams/permission-check';
import { joinTeam } from '../teams/membership';
import { clientUser } from './teams';

export const teamMembershipRoutes = [
  route({
    method: 'POST', path: '/team-memberships/:team_id/:user_id', summary: 'Add a user to a team', tags: ['Teams'],
    access: ['server', 'admin'], params: TeamMembershipParams, body: TeamMembershipCreate, response: TeamMembership, status: 201,
    async handler(ctx) {
      const { auth, params } = ctx;
      const userId = ctx.resolveUserId(params.user_id);
      if (!(await users.exists(ctx.services.db, auth.project.id, userId))) throw new KnownErrors.UserNotFound();
      if (!(await teams.findTeam(ctx.services.db, auth.project.id, params.team_id))) throw new KnownErrors.TeamNotFound(params.team_id);
      const added = await ctx.services.db.transaction((tx) => joinTeam(ctx.services.events, tx, auth.project, params.team_id, userId));
      if (!added) throw new KnownErrors.TeamMembershipAlreadyExists();
      return { team_id: params.team_id, user_id: userId };
    },
  }),
  route({
    method: 'DELETE', path: '/team-memberships/:team_id/:user_id', summary: 'Remove a user from a team (or leave it)', tags: ['Teams'],
    access: ['client', 'server', 'admin'], params: TeamMembershipParams, response: Success,
    async handler(ctx) {
      const { auth, params } = ctx;
      const userId = ctx.resolveUserId(params.user_id);
      if (auth.type === 'client') {
        const user = await clientUser(ctx);
        if (userId !== user.id) await assertTeamPermission(ctx.services.db, auth.project.id, params.team_id, user.id, '$remove_members');
      }
      const removed = await ctx.services.db.transaction(async (tx) => {
        const gone = await members.removeMember(tx, auth.project.id, params.team_id, userId);
        if (gone) await ctx.services.events.emit(tx, auth.project.id, 'team_membership.deleted', { team_id: params.team_id, user_id: userId });
        return gone;
      });
      if (!removed) throw new KnownErrors.TeamMembershipNotFound(params.team_id, userId);
      return { success: true as const };
    },
  }),
];
