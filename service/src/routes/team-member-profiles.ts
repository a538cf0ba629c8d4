// /team-member-profiles: members' per-team display name and image (protocol-resources §4).
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import {
  ClientTeamMemberProfile,
  ServerTeamMemberProfile,
  TeamMemberProfileListQuery,
  TeamMemberProfileUpdate,
  TeamMembershipParams,
  ClientTeamMemberProfileList,
  ServerTeamMemberProfileList,
} from '@gatehouse/shared/schemas/team-members';
import { perAccess, route, type AuthedContext } from '../http/route';
import * as members from '../repo/team-members';
import * as teams from '../repo/teams';
import * as users from '../repo/users';
import { assertTeamPermission } from '../teams/permission-check';
import { clientUser } from './teams';
import { serverUserView } from '../presenters/users';

const profileView = perAccess({ client: ClientTeamMemberProfile, server: ServerTeamMemberProfile });

async function viewsFor(ctx: AuthedContext, rows: members.ProfileRow[]) {
  const client = rows.map((r) => ({ team_id: r.teamId, user_id: r.userId, display_name: r.displayName, profile_image_url: r.profileImageUrl }));
  if (ctx.auth.type === 'client') return client;
  // One read for all members (one per member was 50 round trips for a team of 50).
  const loaded = await users.loadMany(ctx.services.db, ctx.auth.project.id, rows.map((r) => r.userId));
  return client.flatMap((p) => {
    const u = loaded.get(p.user_id);
    // A user deleted between the two reads has no profile any more.
    return u ? [{ ...p, user: serverUserView(u, ctx.services.activity.pendingForUser(u.id)) }] : [];
  });
}

/** Client reading a profile: must be a member; someone else's profile needs `$read_members`. */
async function checkClientRead(ctx: AuthedContext, teamId: string, targetUserId: string | undefined) {
  const user = await clientUser(ctx);
  await assertTeamPermission(ctx.services.db, ctx.auth.project.id, teamId, user.id, targetUserId === user.id ? undefined : '$read_members');
}

async function loadOne(ctx: AuthedContext, teamId: string, userId: string) {
  const row = await members.getProfile(ctx.services.db, ctx.auth.project.id, teamId, userId);
  const [view] = row ? await viewsFor(ctx, [row]) : [];
  if (!view) throw new KnownErrors.TeamMembershipNotFound(teamId, userId);
  return view;
}

export const teamMemberProfileRoutes = [
  route({
    method: 'GET', path: '/team-member-profiles', summary: 'List team member profiles', tags: ['Teams'],
    access: [...ACCESS_TYPES], query: TeamMemberProfileListQuery,
    response: perAccess({ client: ClientTeamMemberProfileList, server: ServerTeamMemberProfileList }),
    async handler(ctx) {
      const { auth, query } = ctx;
      const userId = query.user_id === undefined ? undefined : ctx.resolveUserId(query.user_id);
      if (auth.type === 'client') {
        if (!query.team_id) throw new StatusError(400, 'team_id is required for access type client');
        await checkClientRead(ctx, query.team_id, userId);
      } else {
        if (query.team_id && !(await teams.findTeam(ctx.services.db, auth.project.id, query.team_id))) throw new KnownErrors.TeamNotFound(query.team_id);
        if (userId !== undefined && !(await users.exists(ctx.services.db, auth.project.id, userId))) throw new KnownErrors.UserNotFound();
      }
      const rows = await members.listProfiles(ctx.services.db, auth.project.id, { teamId: query.team_id, userId });
      return { items: await viewsFor(ctx, rows), is_paginated: false as const };
    },
  }),
  route({
    method: 'GET', path: '/team-member-profiles/:team_id/:user_id', summary: "Get a member's team profile", tags: ['Teams'],
    access: [...ACCESS_TYPES], params: TeamMembershipParams, response: profileView,
    async handler(ctx) {
      const userId = ctx.resolveUserId(ctx.params.user_id);
      if (ctx.auth.type === 'client') await checkClientRead(ctx, ctx.params.team_id, userId);
      return loadOne(ctx, ctx.params.team_id, userId);
    },
  }),
  route({
    method: 'PATCH', path: '/team-member-profiles/:team_id/:user_id', summary: "Update a member's team profile", tags: ['Teams'],
    access: [...ACCESS_TYPES], params: TeamMembershipParams, body: TeamMemberProfileUpdate, response: profileView,
    async handler(ctx) {
      const { auth, params, body } = ctx;
      const userId = ctx.resolveUserId(params.user_id);
      if (auth.type === 'client') {
        const user = await clientUser(ctx);
        if (userId !== user.id) throw new StatusError(403, "Cannot update another user's profile");
      }
      const updated = await members.updateProfile(ctx.services.db, auth.project.id, params.team_id, userId, {
        displayName: body.display_name, profileImageUrl: body.profile_image_url,
      });
      if (!updated) throw new KnownErrors.TeamMembershipNotFound(params.team_id, userId);
      return loadOne(ctx, params.team_id, userId);
    },
  }),
];
