// PATCH /users/me and PATCH /users/{id} (protocol-resources §1.2): the changes (users/update.ts), then the
// `user.updated` event and the security notices, in one transaction.
import type { ServerUserUpdate } from '@gatehouse/shared/schemas/users';
import type { Services } from '../services';
import * as users from '../repo/users';
import { lockUser } from '../repo/contact-channels';
import { invalidateResetCodes } from '../repo/verification-codes';
import { signedInUser, type Caller } from '../auth/caller';
import { assertRecentSignIn } from '../auth/recent-sign-in';
import { queueNotice, sendQueuedNotices } from '../auth/security-notices';
import { serverUserView } from '../presenters/users';
import { applyUserUpdate } from './update';
import { getUser } from './reads';

export interface UserUpdate {
  caller: Caller;
  userId: string;
  /** The decoded body; a client's has no server-only fields. */
  changes: ServerUserUpdate;
}

/** What an update turns off that protects the account: MFA, passkey sign-in, OTP sign-in (null: nothing). */
function weakening(before: users.UserRow, body: ServerUserUpdate) {
  const mfaOff = before.requires_totp_mfa && body.totp_secret_base64 === null;
  // Replacing the TOTP secret also removes the one the owner has.
  const mfaReplaced = before.requires_totp_mfa && !!body.totp_secret_base64;
  const passkeyOff = before.passkey_auth_enabled && body.passkey_auth_enabled === false;
  const otpOff = before.otp_auth_enabled && body.otp_auth_enabled === false;
  return mfaOff || mfaReplaced || passkeyOff || otpOff ? { mfaOff, passkeyOff, otpOff } : null;
}

/** The notices an update calls for (ASVS 2.5.5, 2.2.3): what it turned on or off that protects the account. */
function noticesOf(body: ServerUserUpdate, weakened: ReturnType<typeof weakening>) {
  const list: ('mfa_enabled' | 'mfa_disabled' | 'passkey_removed' | 'otp_disabled')[] = [];
  // A new secret turns TOTP on, or replaces the authenticator app (the one the owner had stops working).
  if (body.totp_secret_base64) list.push('mfa_enabled');
  if (weakened?.mfaOff) list.push('mfa_disabled');
  if (weakened?.passkeyOff) list.push('passkey_removed');
  if (weakened?.otpOff) list.push('otp_disabled');
  return list;
}

/** Applies the update (USER_NOT_FOUND for no such user); returns the user as it is now. */
export async function updateUser(services: Services, input: UserUpdate): Promise<users.UserRow> {
  const { caller, userId, changes: body } = input;
  const project = caller.project;
  // The user as it was (its protections: what the update may turn off); the caller's own is loaded once a request.
  const before = (userId === caller.userId ? await signedInUser(services, caller) : null) ?? (await getUser(services, { projectId: project.id, userId }));
  const weakened = weakening(before, body);
  if (weakened) await assertRecentSignIn(services, caller);
  const notices = noticesOf(body, weakened);
  const newPassword = body.password !== undefined || body.password_hash !== undefined;
  await services.db.transaction(async (tx) => {
    // The user row first, then its sessions (a new password ends them): the order the activity flush takes them
    // in; the other order could deadlock with it on PostgreSQL (seen as a 500 on PATCH with password_hash).
    await lockUser(tx, project.id, userId);
    await applyUserUpdate(tx, services, project, userId, body, caller.type === 'client');
    if (newPassword) await invalidateResetCodes(tx, project.id, userId);
    const row = await users.load(tx, project.id, userId);
    await services.events.emit(tx, project.id, 'user.updated', row && serverUserView(row));
    for (const type of notices) await queueNotice(tx, services, project, { userId, type, extra: {} });
  });
  if (notices.length) sendQueuedNotices(services);
  // A new password ends the user's sessions.
  if (newPassword) await services.revokedSessions.sync();
  return getUser(services, { projectId: project.id, userId });
}
