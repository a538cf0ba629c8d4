// /team-invitations: send by email, list pending, revoke, and accept / check / describe by code
// (protocol-resources §5; teams/invitations.ts).
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { Empty, Success } from '@gatehouse/shared/schemas/common';
import {
  TeamInvitationCheckCodeResponse,
  TeamInvitationCode,
  TeamInvitationDetails,
  TeamInvitationListQuery,
  TeamInvitationParams,
  TeamInvitationSendCode,
  TeamInvitationSendCodeResponse,
  TeamInvitationList,
} from '@gatehouse/shared/schemas/invitations';
import { route } from '../http/route';
import {
  acceptTeamInvitation, checkTeamInvitationCode, listTeamInvitations, revokeTeamInvitation, sendTeamInvitation, teamOfInvitation,
} from '../teams/invitations';
import { invitationView } from '../presenters/team-invitations';

export const teamInvitationRoutes = [
  route({
    method: 'POST', path: '/team-invitations/send-code', summary: 'Invite someone to a team by email', tags: ['Teams'],
    access: [...ACCESS_TYPES], body: TeamInvitationSendCode, response: TeamInvitationSendCodeResponse,
    async handler({ services, auth, body }) {
      const id = await sendTeamInvitation(services, { caller: auth, teamId: body.team_id, email: body.email, callbackUrl: body.callback_url });
      return { success: true as const, id };
    },
  }),
  route({
    method: 'GET', path: '/team-invitations', summary: "List a team's pending invitations", tags: ['Teams'],
    access: [...ACCESS_TYPES], query: TeamInvitationListQuery, response: TeamInvitationList,
    async handler({ services, auth, query }) {
      return { items: (await listTeamInvitations(services, { caller: auth, teamId: query.team_id })).map(invitationView), is_paginated: false as const };
    },
  }),
  route({
    method: 'DELETE', path: '/team-invitations/:id', summary: 'Revoke an invitation', tags: ['Teams'],
    access: [...ACCESS_TYPES], params: TeamInvitationParams, query: TeamInvitationListQuery, response: Success,
    async handler({ services, auth, params, query }) {
      await revokeTeamInvitation(services, { caller: auth, teamId: query.team_id, invitationId: params.id });
      return { success: true as const };
    },
  }),
  route({
    method: 'POST', path: '/team-invitations/accept', summary: 'Accept an invitation (join the team)', tags: ['Teams'],
    access: [...ACCESS_TYPES], body: TeamInvitationCode, response: Empty,
    async handler({ services, auth, body }) {
      await acceptTeamInvitation(services, { caller: auth, code: body.code });
      return {};
    },
  }),
  route({
    method: 'POST', path: '/team-invitations/accept/check-code', summary: 'Check an invitation code without using it', tags: ['Teams'],
    access: [...ACCESS_TYPES], body: TeamInvitationCode, response: TeamInvitationCheckCodeResponse,
    async handler({ services, auth, body }) {
      await checkTeamInvitationCode(services, { caller: auth, code: body.code });
      return { is_code_valid: true as const };
    },
  }),
  route({
    method: 'POST', path: '/team-invitations/accept/details', summary: 'The team an invitation code is for', tags: ['Teams'],
    access: [...ACCESS_TYPES], body: TeamInvitationCode, response: TeamInvitationDetails,
    async handler({ services, auth, body }) {
      const team = await teamOfInvitation(services, { caller: auth, code: body.code });
      return { team_id: team.id, team_display_name: team.displayName };
    },
  }),
];
