// /team-member-profiles: members' per-team display name and image (protocol-resources §4; teams/member-profiles.ts).
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import {
  ClientTeamMemberProfile,
  ServerTeamMemberProfile,
  TeamMemberProfileListQuery,
  TeamMemberProfileUpdate,
  TeamMembershipParams,
  ClientTeamMemberProfileList,
  ServerTeamMemberProfileList,
} from '@gatehouse/shared/schemas/team-members';
import { perAccess, route } from '../http/route';
import type { Services } from '../services';
import { getMemberProfile, listMemberProfiles, updateMemberProfile, type MemberProfile } from '../teams/member-profiles';
import { profileView as present } from '../presenters/team-member-profiles';

const profileView = perAccess({ client: ClientTeamMemberProfile, server: ServerTeamMemberProfile });
const view = (services: Services) => (p: MemberProfile) => present(p.profile, p.user, p.user && services.activity.pendingForUser(p.user.id), p.roster);

export const teamMemberProfileRoutes = [
  route({
    method: 'GET', path: '/team-member-profiles', summary: 'List team member profiles', tags: ['Teams'],
    access: [...ACCESS_TYPES], query: TeamMemberProfileListQuery,
    response: perAccess({ client: ClientTeamMemberProfileList, server: ServerTeamMemberProfileList }),
    async handler({ services, auth, query, resolveUserId }) {
      const userId = query.user_id === undefined ? undefined : resolveUserId(query.user_id);
      const profiles = await listMemberProfiles(services, { caller: auth, teamId: query.team_id, userId });
      return { items: profiles.map(view(services)), is_paginated: false as const };
    },
  }),
  route({
    method: 'GET', path: '/team-member-profiles/:team_id/:user_id', summary: "Get a member's team profile", tags: ['Teams'],
    access: [...ACCESS_TYPES], params: TeamMembershipParams, response: profileView,
    async handler({ services, auth, params, resolveUserId }) {
      return view(services)(await getMemberProfile(services, { caller: auth, teamId: params.team_id, userId: resolveUserId(params.user_id) }));
    },
  }),
  route({
    method: 'PATCH', path: '/team-member-profiles/:team_id/:user_id', summary: "Update a member's team profile", tags: ['Teams'],
    access: [...ACCESS_TYPES], params: TeamMembershipParams, body: TeamMemberProfileUpdate, response: profileView,
    async handler({ services, auth, params, body, resolveUserId }) {
      const updated = await updateMemberProfile(services, {
        caller: auth, teamId: params.team_id, userId: resolveUserId(params.user_id), displayName: body.display_name, profileImageUrl: body.profile_image_url,
      });
      return view(services)(updated);
    },
  }),
];
