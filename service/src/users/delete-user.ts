// DELETE /users/me and DELETE /users/{id} (protocol-resources §1.3): the user, their memberships (one
// `team_membership.deleted` each) and `user.deleted`, in one transaction; their sessions end with them.
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as users from '../repo/users';
import type { Caller } from '../auth/caller';
import { assertRecentSignIn } from '../auth/recent-sign-in';

export async function deleteUser(services: Services, input: { caller: Caller; userId: string }): Promise<void> {
  const { caller: { project }, userId } = input;
  // A client deletes only its own user (the route names it), where the project allows it, after a recent sign-in.
  if (input.caller.type === 'client' && !project.config.client_user_deletion_enabled) {
    throw new StatusError(400, 'Client user deletion is not enabled for this project');
  }
  await assertRecentSignIn(services, input.caller);
  if (!users.isUuid(userId)) throw new KnownErrors.UserNotFound();
  await services.db.transaction(async (tx) => {
    const teamIds = await users.removeWithTeams(tx, project.id, userId);
    if (!teamIds) throw new KnownErrors.UserNotFound();
    for (const id of teamIds) await services.events.emit(tx, project.id, 'team_membership.deleted', { team_id: id, user_id: userId });
    await services.events.emit(tx, project.id, 'user.deleted', { id: userId, teams: teamIds.map((id) => ({ id })) });
  });
  await services.revokedSessions.sync();
}
