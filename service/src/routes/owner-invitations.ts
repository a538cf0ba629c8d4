// Invitations to co-own a project (Gatehouse's admin API; projects/owner-invitations.ts): an owner sends, lists and
// revokes them on their project; the invitee, signed in to the console (the internal project), reads and accepts one.
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { Success } from '@gatehouse/shared/schemas/common';
import { TeamInvitationSendCodeResponse as InvitationSent } from '@gatehouse/shared/schemas/invitations';
import {
  OwnerInvitationAccepted, OwnerInvitationCode, OwnerInvitationCreate, OwnerInvitationDetails, OwnerInvitationList, OwnerInvitationParams,
} from '@gatehouse/shared/schemas/project-owners';
import { route } from '../http/route';
import {
  acceptOwnerInvitation, describeOwnerInvitation, inviteProjectOwner, listOwnerInvitations, revokeOwnerInvitation,
} from '../projects/owner-invitations';
import { ownerInvitationView } from '../presenters/project-owners';

const TAGS = ['Projects'];

export const ownerInvitationRoutes = [
  route({
    method: 'POST', path: '/internal/owner-invitations', summary: '[Gatehouse] Invite someone by email to own the project with its owners', tags: TAGS,
    access: ['admin'], body: OwnerInvitationCreate, response: InvitationSent,
    async handler({ services, auth, body }) {
      const id = await inviteProjectOwner(services, { caller: auth, email: body.email, callbackUrl: body.callback_url });
      return { success: true as const, id };
    },
  }),
  route({
    method: 'GET', path: '/internal/owner-invitations', summary: "[Gatehouse] The project's pending owner invitations, oldest first", tags: TAGS,
    access: ['admin'], response: OwnerInvitationList,
    async handler({ services, auth }) {
      return { items: (await listOwnerInvitations(services, { caller: auth })).map(ownerInvitationView), is_paginated: false as const };
    },
  }),
  route({
    method: 'DELETE', path: '/internal/owner-invitations/:id', summary: '[Gatehouse] Revoke a pending owner invitation', tags: TAGS,
    access: ['admin'], params: OwnerInvitationParams, response: Success,
    async handler({ services, auth, params }) {
      await revokeOwnerInvitation(services, { caller: auth, invitationId: params.id });
      return { success: true as const };
    },
  }),
  route({
    method: 'POST', path: '/internal/owner-invitations/accept/details', summary: '[Gatehouse] The project an owner invitation code is for (internal project, signed in)', tags: TAGS,
    access: [...ACCESS_TYPES], body: OwnerInvitationCode, response: OwnerInvitationDetails,
    async handler({ services, auth, body }) {
      const { project, recipientEmail } = await describeOwnerInvitation(services, { caller: auth, code: body.code });
      return { project_id: project.id, project_display_name: project.displayName, recipient_email: recipientEmail };
    },
  }),
  route({
    method: 'POST', path: '/internal/owner-invitations/accept', summary: '[Gatehouse] Accept an owner invitation: the signed-in internal user owns the project', tags: TAGS,
    access: [...ACCESS_TYPES], body: OwnerInvitationCode, response: OwnerInvitationAccepted,
    async handler({ services, auth, body }) {
      const { projectId, alreadyOwner } = await acceptOwnerInvitation(services, { caller: auth, code: body.code });
      return { project_id: projectId, already_owner: alreadyOwner };
    },
  }),
];
