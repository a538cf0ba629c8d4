// A signed-in user's own password (protocol-auth §3.1): changing it (POST /auth/password/update) and setting a first
// one (POST /auth/password/set). Either ends the outstanding reset links and tells the account's addresses.
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as users from '../repo/users';
import * as sessions from '../repo/sessions';
import { invalidateResetCodes } from '../repo/verification-codes';
import type { Caller } from './caller';
import { assertPasswordAcceptable, assertPasswordAuthEnabled } from './password-policy';
import { assertRecentSignIn } from './recent-sign-in';
import { queueNotice, sendQueuedNotices } from './security-notices';

export interface PasswordChange {
  caller: Caller;
  userId: string;
  oldPassword: string;
  newPassword: string;
  /** The refresh token that came with the request: its session survives, every other one ends. */
  keepRefreshToken?: string | null;
}

export async function changePassword(services: Services, input: PasswordChange): Promise<void> {
  const { caller: { project }, userId } = input;
  assertPasswordAuthEnabled(project);
  await assertPasswordAcceptable(project, input.newPassword);
  const hash = await users.passwordHash(services.db, project.id, userId);
  if (!hash) throw new KnownErrors.UserDoesNotHavePassword();
  if (!(await services.passwords.verify(input.oldPassword, hash))) throw new KnownErrors.PasswordConfirmationMismatch();
  const newHash = await services.passwords.hash(input.newPassword);
  const keep = input.keepRefreshToken ? await sessions.findByRefreshToken(services.db, project.id, input.keepRefreshToken) : null;
  await services.db.transaction(async (tx) => {
    await users.setPasswordHash(tx, project.id, userId, newHash);
    await sessions.revokeAllForUser(tx, project.id, userId, keep?.userId === userId ? keep.id : undefined);
    await invalidateResetCodes(tx, project.id, userId);
    await queueNotice(tx, services, project, { userId, type: 'password_changed', extra: {} });
  });
  sendQueuedNotices(services);
  await services.revokedSessions.sync();
}

export interface PasswordSet { caller: Caller; userId: string; password: string }

/** A first password for a user who has none (400 when there is one). */
export async function setPassword(services: Services, input: PasswordSet): Promise<void> {
  const { caller, userId } = input;
  const project = caller.project;
  assertPasswordAuthEnabled(project);
  await assertPasswordAcceptable(project, input.password);
  if (await users.passwordHash(services.db, project.id, userId)) throw new StatusError(400, 'User already has a password set.');
  // A first password is a new way in: with a stolen token it would be a permanent one.
  await assertRecentSignIn(services, caller);
  const hash = await services.passwords.hash(input.password);
  await services.db.transaction(async (tx) => {
    await users.setPasswordHash(tx, project.id, userId, hash);
    await invalidateResetCodes(tx, project.id, userId);
    await queueNotice(tx, services, project, { userId, type: 'password_changed', extra: {} });
  });
  sendQueuedNotices(services);
}
