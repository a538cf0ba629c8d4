// /team-invitations: send by email, list pending, revoke, and accept / check / describe by code
// (protocol-resources §5).
import { ACCESS_TYPES, TEAM_INVITATION_CODE_LIFETIME_MS as INVITATION_LIFETIME_MS } from '@gatehouse/shared/constants';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { withQueryParam } from '@gatehouse/shared/rules/urls';
import type { TeamSystemPermissionId } from '@gatehouse/shared/rules/permissions';
import { Empty, Success } from '@gatehouse/shared/schemas/common';
import {
  TeamInvitation,
  TeamInvitationCheckCodeResponse,
  TeamInvitationCode,
  TeamInvitationDetails,
  TeamInvitationListQuery,
  TeamInvitationParams,
  TeamInvitationSendCode,
  TeamInvitationSendCodeResponse,
  TeamInvitationList,
} from '@gatehouse/shared/schemas/invitations';
import { route, type AuthedContext } from '../http/route';
import { createCode, redeemCode } from '../repo/verification-codes';
import { assertTrustedCallback } from '../auth/flow-emails';
import { loadProjectTemplate } from '../repo/email-templates';
import { enqueueTemplatedEmail, outboxOf } from '../email/outbox';
import * as invitations from '../repo/team-invitations';
import * as teams from '../repo/teams';
import { assertTeamPermission } from '../teams/permission-check';
import { joinTeam } from '../teams/membership';
import { clientUser } from './teams';
import { invitationView } from '../presenters/team-invitations';


/**
 * Client: signed in, a member, and holding each permission in order. Server: the team must exist. Returns the
 * team either way.
 */
async function checkTeam(ctx: AuthedContext, teamId: string, permissions: TeamSystemPermissionId[]) {
  if (ctx.auth.type === 'client') {
    const user = await clientUser(ctx);
    await assertTeamPermission(ctx.services.db, ctx.auth.project.id, teamId, user.id, ...permissions);
  }
  const team = await teams.findTeam(ctx.services.db, ctx.auth.project.id, teamId);
  if (!team) throw new KnownErrors.TeamNotFound(teamId);
  return team;
}

/** Checks an invitation code (counting the attempt) without using it up. */
function checkCode(ctx: AuthedContext, code: string) {
  return redeemCode(ctx.services.db, { projectId: ctx.auth.project.id, type: 'team_invitation', code, consume: false });
}

const teamIdOf = (row: { data: unknown }) => String((row.data as { team_id?: string }).team_id ?? '');

export const teamInvitationRoutes = [
  route({
    method: 'POST', path: '/team-invitations/send-code', summary: 'Invite someone to a team by email', tags: ['Teams'],
    access: [...ACCESS_TYPES], body: TeamInvitationSendCode, response: TeamInvitationSendCodeResponse,
    async handler(ctx) {
      const { auth, body, services } = ctx;
      const project = auth.project;
      const team = await checkTeam(ctx, body.team_id, ['$invite_members']);
      assertTrustedCallback(project, body.callback_url);
      const template = await loadProjectTemplate(ctx.services.db, project.id, 'team_invitation');
      const id = await ctx.services.db.transaction(async (tx) => {
        const code = await createCode(tx, {
          projectId: project.id, type: 'team_invitation', expiresInMs: INVITATION_LIFETIME_MS,
          redirectUrl: body.callback_url, method: { email: body.email }, data: { team_id: team.id },
        });
        await enqueueTemplatedEmail(tx, {
          projectId: project.id, projectDisplayName: project.displayName, emailConfig: project.config.email_config,
          to: body.email, type: 'team_invitation', template, codeExpiresAt: new Date(Date.now() + INVITATION_LIFETIME_MS),
          variables: { userDisplayName: null, teamDisplayName: team.displayName, teamInvitationLink: withQueryParam(body.callback_url, 'code', code.code) },
        }, outboxOf(services));
        return code.id;
      });
      services.emailWorkers.wake();
      return { success: true as const, id };
    },
  }),
  route({
    method: 'GET', path: '/team-invitations', summary: "List a team's pending invitations", tags: ['Teams'],
    access: [...ACCESS_TYPES], query: TeamInvitationListQuery, response: TeamInvitationList,
    async handler(ctx) {
      await checkTeam(ctx, ctx.query.team_id, ['$read_members', '$invite_members']);
      return { items: (await invitations.listPending(ctx.services.db, ctx.auth.project.id, ctx.query.team_id)).map(invitationView), is_paginated: false as const };
    },
  }),
  route({
    method: 'DELETE', path: '/team-invitations/:id', summary: 'Revoke an invitation', tags: ['Teams'],
    access: [...ACCESS_TYPES], params: TeamInvitationParams, query: TeamInvitationListQuery, response: Success,
    async handler(ctx) {
      await checkTeam(ctx, ctx.query.team_id, ['$remove_members']);
      // Only an invitation of the named team: the permission check above is about that team.
      if (!(await invitations.remove(ctx.services.db, ctx.auth.project.id, ctx.params.id, ctx.query.team_id))) {
        throw new KnownErrors.VerificationCodeNotFound();
      }
      return { success: true as const };
    },
  }),
  route({
    method: 'POST', path: '/team-invitations/accept', summary: 'Accept an invitation (join the team)', tags: ['Teams'],
    access: [...ACCESS_TYPES], body: TeamInvitationCode, response: Empty,
    async handler(ctx) {
      const { auth } = ctx;
      const user = await clientUser(ctx);
      const row = await checkCode(ctx, ctx.body.code);
      const teamId = teamIdOf(row);
      await ctx.services.db.transaction(async (tx) => {
        if (!(await invitations.markUsed(tx, auth.project.id, row.id))) throw new KnownErrors.VerificationCodeAlreadyUsed();
        if (!(await teams.findTeam(tx, auth.project.id, teamId, 'share'))) throw new KnownErrors.TeamNotFound(teamId);
        await joinTeam(ctx.services.events, tx, auth.project, teamId, user.id);
      });
      return {};
    },
  }),
  route({
    method: 'POST', path: '/team-invitations/accept/check-code', summary: 'Check an invitation code without using it', tags: ['Teams'],
    access: [...ACCESS_TYPES], body: TeamInvitationCode, response: TeamInvitationCheckCodeResponse,
    async handler(ctx) {
      await checkCode(ctx, ctx.body.code);
      return { is_code_valid: true as const };
    },
  }),
  route({
    method: 'POST', path: '/team-invitations/accept/details', summary: 'The team an invitation code is for', tags: ['Teams'],
    access: [...ACCESS_TYPES], body: TeamInvitationCode, response: TeamInvitationDetails,
    async handler(ctx) {
      await clientUser(ctx);
      const teamId = teamIdOf(await checkCode(ctx, ctx.body.code));
      const team = await teams.findTeam(ctx.services.db, ctx.auth.project.id, teamId);
      if (!team) throw new KnownErrors.TeamNotFound(teamId);
      return { team_id: team.id, team_display_name: team.displayName };
    },
  }),
];
