// Team invitations (protocol-resources §5): sent by email as a code (a verification code carrying the team), listed
// and revoked by members with the right permissions, and accepted, checked or described by whoever holds the code.
import { TEAM_INVITATION_CODE_LIFETIME_MS as INVITATION_LIFETIME_MS } from '@gatehouse/shared/constants';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { withQueryParam } from '@gatehouse/shared/rules/urls';
import type { Services } from '../services';
import * as invitations from '../repo/team-invitations';
import * as teams from '../repo/teams';
import { loadProjectTemplate } from '../repo/email-templates';
import { createCode, redeemCode, type CodeRow } from '../repo/verification-codes';
import type { Caller } from '../auth/caller';
import { assertTrustedCallback } from '../auth/flow-emails';
import { enqueueTemplatedEmail, outboxOf } from '../email/outbox';
import { joinTeam } from './membership';
import { accessibleTeam, requireClientUser } from './team-access';

const teamIdOf = (row: { data: unknown }) => String((row.data as { team_id?: string }).team_id ?? '');

/** Checks an invitation code (counting the attempt) without using it up. */
function checkCode(services: Services, caller: Caller, code: string): Promise<CodeRow> {
  return redeemCode(services.db, { projectId: caller.project.id, type: 'team_invitation', code, consume: false });
}

/** Mails an invitation to `email`; returns the invitation's id. The code and its mail are written together. */
export async function sendTeamInvitation(services: Services, input: { caller: Caller; teamId: string; email: string; callbackUrl: string }): Promise<string> {
  const { caller, email, callbackUrl } = input;
  const project = caller.project;
  const team = await accessibleTeam(services, caller, input.teamId, '$invite_members');
  assertTrustedCallback(project, callbackUrl);
  const template = await loadProjectTemplate(services.db, project.id, 'team_invitation');
  const id = await services.db.transaction(async (tx) => {
    const code = await createCode(tx, {
      projectId: project.id, type: 'team_invitation', expiresInMs: INVITATION_LIFETIME_MS,
      redirectUrl: callbackUrl, method: { email }, data: { team_id: team.id },
    });
    await enqueueTemplatedEmail(tx, {
      projectId: project.id, projectDisplayName: project.displayName, emailConfig: project.config.email_config,
      to: email, type: 'team_invitation', template, codeExpiresAt: new Date(Date.now() + INVITATION_LIFETIME_MS),
      variables: { userDisplayName: null, teamDisplayName: team.displayName, teamInvitationLink: withQueryParam(callbackUrl, 'code', code.code) },
    }, outboxOf(services));
    return code.id;
  });
  services.emailWorkers.wake();
  return id;
}

export async function listTeamInvitations(services: Services, input: { caller: Caller; teamId: string }): Promise<invitations.PendingInvitation[]> {
  await accessibleTeam(services, input.caller, input.teamId, '$read_members', '$invite_members');
  return invitations.listPending(services.db, input.caller.project.id, input.teamId);
}

export async function revokeTeamInvitation(services: Services, input: { caller: Caller; teamId: string; invitationId: string }): Promise<void> {
  await accessibleTeam(services, input.caller, input.teamId, '$remove_members');
  // Only an invitation of the named team: the permission check above is about that team.
  if (!(await invitations.remove(services.db, input.caller.project.id, input.invitationId, input.teamId))) {
    throw new KnownErrors.VerificationCodeNotFound();
  }
}

/** The signed-in user joins the team of the code (used once, even by concurrent accepts). */
export async function acceptTeamInvitation(services: Services, input: { caller: Caller; code: string }): Promise<void> {
  const { caller } = input;
  const user = await requireClientUser(services, caller);
  const row = await checkCode(services, caller, input.code);
  const teamId = teamIdOf(row);
  await services.db.transaction(async (tx) => {
    if (!(await invitations.markUsed(tx, caller.project.id, row.id))) throw new KnownErrors.VerificationCodeAlreadyUsed();
    if (!(await teams.findTeam(tx, caller.project.id, teamId, 'share'))) throw new KnownErrors.TeamNotFound(teamId);
    await joinTeam(services.events, tx, caller.project, teamId, user.id);
  });
}

export async function checkTeamInvitationCode(services: Services, input: { caller: Caller; code: string }): Promise<void> {
  await checkCode(services, input.caller, input.code);
}

/** The team an invitation code is for (to a signed-in user). */
export async function teamOfInvitation(services: Services, input: { caller: Caller; code: string }): Promise<teams.TeamRow> {
  await requireClientUser(services, input.caller);
  const teamId = teamIdOf(await checkCode(services, input.caller, input.code));
  const team = await teams.findTeam(services.db, input.caller.project.id, teamId);
  if (!team) throw new KnownErrors.TeamNotFound(teamId);
  return team;
}
