// Invitations to co-own a project (issue 26). Ownership is the protocol's (protocol-resources §10.5): the project's id
// in an internal user's `managedProjectIds`. So the invitation is a verification code of the internal project, as
// the protocol's Neon transfer code is (§15): whoever holds it, signed in to the console (an internal user), accepts it
// and the project is added to their list, once. An owner (admin access to the project) sends, lists and revokes.
import { PROJECT_OWNER_INVITATION_CODE_LIFETIME_MS as LIFETIME_MS } from '@gatehouse/shared/constants';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { withRouteQueryParam } from '@gatehouse/shared/rules/urls';
import type { Services } from '../services';
import type { Caller } from '../auth/caller';
import { assertTrustedCallback } from '../auth/flow-emails';
import { enqueueTemplatedEmail, outboxOf } from '../email/outbox';
import * as invitations from '../repo/owner-invitations';
import * as owners from '../repo/project-owners';
import * as projects from '../repo/projects';
import * as users from '../repo/users';
import { createCode, redeemCode, type CodeRow } from '../repo/verification-codes';
import { requireInternalUser } from './owned-projects';

const INTERNAL = 'internal';
const projectIdOf = (row: CodeRow) => String((row.data as { project_id?: unknown }).project_id ?? '');

async function internalProject(services: Services) {
  const internal = await services.projects.get(INTERNAL);
  if (!internal) throw new Error('The internal project is missing (the service bootstraps it at start)');
  return internal;
}

/**
 * Mails an invitation to own the caller's project to `email`; returns its id. `callbackUrl` is the console's accept
 * page, trusted by the internal project (where the console's owners sign in). The code and its mail are written
 * together; the mail's record has the link replaced by a placeholder (email/redaction.ts).
 */
export async function inviteProjectOwner(services: Services, input: { caller: Caller; email: string; callbackUrl: string }): Promise<string> {
  const { caller, email, callbackUrl } = input;
  const project = caller.project;
  const internal = await internalProject(services);
  assertTrustedCallback(internal, callbackUrl);
  const inviter = caller.adminUserId ? await users.load(services.db, INTERNAL, caller.adminUserId) : null;
  const id = await services.db.transaction(async (tx) => {
    const code = await createCode(tx, {
      projectId: INTERNAL, type: 'project_owner_invitation', expiresInMs: LIFETIME_MS, redirectUrl: callbackUrl,
      method: { email }, data: { project_id: project.id, invited_by: inviter?.id ?? null },
    });
    await enqueueTemplatedEmail(tx, {
      projectId: INTERNAL, projectDisplayName: internal.displayName, emailConfig: internal.config.email_config,
      to: email, type: 'project_owner_invitation', codeExpiresAt: code.expiresAt,
      variables: {
        ownedProjectDisplayName: project.displayName,
        inviterName: inviter ? inviter.display_name ?? inviter.primary_email : null,
        ownerInvitationLink: withRouteQueryParam(callbackUrl, 'code', code.code),
      },
    }, outboxOf(services));
    return code.id;
  });
  services.emailWorkers.wake();
  return id;
}

export async function listOwnerInvitations(services: Services, input: { caller: Caller }): Promise<invitations.PendingOwnerInvitation[]> {
  return invitations.listPending(services.db, input.caller.project.id);
}

/** Revokes a pending invitation to own the caller's project (VERIFICATION_CODE_NOT_FOUND for any other id). */
export async function revokeOwnerInvitation(services: Services, input: { caller: Caller; invitationId: string }): Promise<void> {
  if (!(await invitations.remove(services.db, input.caller.project.id, input.invitationId))) throw new KnownErrors.VerificationCodeNotFound();
}

/** The signed-in internal user who may own a project: not an anonymous one. */
async function requireOwnerAccount(services: Services, caller: Caller) {
  const user = await requireInternalUser(services, caller);
  if (user.is_anonymous) throw new KnownErrors.OwnerAccountRequired();
  return user;
}

function checkCode(services: Services, code: string): Promise<CodeRow> {
  return redeemCode(services.db, { projectId: INTERNAL, type: 'project_owner_invitation', code, consume: false });
}

/** What the accept page shows: the project, and the address the invitation was sent to. The code stays unused. */
export async function describeOwnerInvitation(services: Services, input: { caller: Caller; code: string }) {
  await requireOwnerAccount(services, input.caller);
  const row = await checkCode(services, input.code);
  const projectId = projectIdOf(row);
  const project = await projects.find(services.db, projectId);
  if (!project) throw new KnownErrors.ProjectNotFound(projectId);
  return { project, recipientEmail: String((row.method as { email?: unknown }).email ?? '') };
}

/**
 * The signed-in internal user becomes an owner of the invitation's project. The code is used once, even by
 * concurrent accepts (the loser gets VERIFICATION_CODE_ALREADY_USED); an account that owns the project already uses
 * it up and changes nothing. Any account may accept, whatever its address: the code reached the invited mailbox.
 */
export async function acceptOwnerInvitation(services: Services, input: { caller: Caller; code: string }): Promise<{ projectId: string; alreadyOwner: boolean }> {
  const user = await requireOwnerAccount(services, input.caller);
  const row = await checkCode(services, input.code);
  const projectId = projectIdOf(row);
  const outcome = await services.db.transaction(async (tx) => {
    if (!(await invitations.markUsed(tx, row.id))) throw new KnownErrors.VerificationCodeAlreadyUsed();
    if (!(await projects.find(tx, projectId))) throw new KnownErrors.ProjectNotFound(projectId);
    const added = await owners.addOwner(tx, projectId, user.id);
    if (added === 'no-user') throw new KnownErrors.UserAuthenticationRequired();
    return added;
  });
  return { projectId, alreadyOwner: outcome === 'already' };
}
