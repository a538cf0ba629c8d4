// Applying a client or server update to a user (protocol-resources §1.2). Runs inside a transaction.
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import { isBase64ImageDataUrl } from '@gatehouse/shared/rules/profile-image';
import { base64ToBytes } from '@gatehouse/shared/rules/base64';
import type { ServerUserCreate, ServerUserUpdate } from '@gatehouse/shared/schemas/users';
import type { DB } from '../db';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import * as sessions from '../repo/sessions';
import { assertEmailFreeForAuth, updateUserColumns, type NewUser, type UserColumns } from '../repo/user-writes';
import * as channels from '../repo/contact-channels';
import { removeForUser as removePasskeys } from '../repo/passkeys';
import { selectTeam } from '../repo/team-members';
import { isBcryptHash } from '../auth/passwords';
import { sealBytes } from '../db/secrets-at-rest';

type Update = ServerUserUpdate;

export function assertClientProfileImage(url: string | null | undefined) {
  if (url && !isBase64ImageDataUrl(url)) throw new StatusError(400, 'Invalid profile image URL');
}

/** Checks and resolves password fields into a hash (or null = remove, undefined = unchanged). */
export async function resolvePassword(services: Services, project: Project, body: { password?: string | null; password_hash?: string }): Promise<string | null | undefined> {
  if (body.password !== undefined && body.password_hash !== undefined) {
    throw new StatusError(400, 'Cannot set both password and password_hash at the same time.');
  }
  if (body.password_hash !== undefined) {
    if (!isBcryptHash(body.password_hash)) throw new StatusError(400, "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.");
    if (!project.config.credential_enabled) throw new StatusError(400, 'Password auth not enabled in the project');
    return body.password_hash;
  }
  if (body.password === undefined) return undefined;
  if (body.password === null) return null;
  if (!project.config.credential_enabled) throw new StatusError(400, 'Password auth not enabled in the project');
  return services.passwords.hash(body.password);
}

function assertEmailFlags(email: string | null | undefined, verified?: boolean, authEnabled?: boolean) {
  if (email) return;
  if (verified) throw new StatusError(400, 'primary_email_verified cannot be true without primary_email');
  if (authEnabled) throw new StatusError(400, 'primary_email_auth_enabled cannot be true without primary_email');
}

/** Translates server create fields into a NewUser (checks included). */
export async function newUserFromCreate(services: Services, project: Project, b: ServerUserCreate): Promise<NewUser> {
  assertEmailFlags(b.primary_email, b.primary_email_verified, b.primary_email_auth_enabled);
  if (b.otp_auth_enabled && !project.config.magic_link_enabled) throw new StatusError(400, 'OTP auth not enabled in the project');
  if (b.passkey_auth_enabled) throw new StatusError(400, 'Cannot manually enable passkey auth, it is enabled iff there is a passkey auth method');
  return {
    displayName: b.display_name,
    profileImageUrl: b.profile_image_url,
    clientMetadata: b.client_metadata,
    clientReadOnlyMetadata: b.client_read_only_metadata,
    serverMetadata: b.server_metadata,
    isAnonymous: b.is_anonymous,
    primaryEmail: b.primary_email,
    primaryEmailVerified: b.primary_email_verified,
    primaryEmailAuthEnabled: b.primary_email_auth_enabled,
    passwordHash: await resolvePassword(services, project, b),
    otpAuthEnabled: b.otp_auth_enabled,
    totpSecret: b.totp_secret_base64 ? sealBytes('totp-secret', base64ToBytes(b.totp_secret_base64)) : null,
    oauthAccounts: (b.oauth_providers ?? []).map((o) => ({ providerId: o.id, accountId: o.account_id, email: o.email ?? null })),
  };
}

export async function applyUserUpdate(tx: DB, services: Services, project: Project, userId: string, b: Update, isClient: boolean) {
  const set: UserColumns = {};
  if (b.display_name !== undefined) set.displayName = b.display_name === '' ? null : b.display_name;
  if (b.profile_image_url !== undefined) {
    if (isClient) assertClientProfileImage(b.profile_image_url);
    set.profileImageUrl = b.profile_image_url;
  }
  if (b.client_metadata !== undefined) set.clientMetadata = b.client_metadata;
  if (b.client_read_only_metadata !== undefined) set.clientReadOnlyMetadata = b.client_read_only_metadata;
  if (b.server_metadata !== undefined) set.serverMetadata = b.server_metadata;
  if (b.totp_secret_base64 !== undefined) set.totpSecret = b.totp_secret_base64 === null ? null : sealBytes('totp-secret', base64ToBytes(b.totp_secret_base64));
  if (b.otp_auth_enabled === false) set.otpAuthEnabled = false;
  if (b.otp_auth_enabled === true && project.config.magic_link_enabled) set.otpAuthEnabled = true;
  if (b.is_anonymous === false) set.isAnonymous = false;
  if (b.passkey_auth_enabled === true) throw new StatusError(400, 'Cannot manually enable passkey auth, it is enabled iff there is a passkey auth method');
  if (b.passkey_auth_enabled === false) {
    await removePasskeys(tx, project.id, userId);
  }

  const newHash = await resolvePassword(services, project, b);
  if (newHash !== undefined) {
    set.passwordHash = newHash;
    await sessions.revokeAllForUser(tx, project.id, userId);
  }
  await updateUserColumns(tx, project.id, userId, set);

  if (b.selected_team_id !== undefined) await selectTeam(tx, project.id, userId, b.selected_team_id);
  if (b.primary_email !== undefined || b.primary_email_verified !== undefined || b.primary_email_auth_enabled !== undefined) {
    await updatePrimaryEmail(tx, project.id, userId, b);
  }
}

async function updatePrimaryEmail(tx: DB, projectId: string, userId: string, b: Update) {
  const primary = await channels.findPrimaryEmail(tx, projectId, userId);
  if (b.primary_email === null) {
    assertEmailFlags(null, b.primary_email_verified, b.primary_email_auth_enabled);
    if (primary) await channels.remove(tx, projectId, userId, primary.id);
    return;
  }
  const value = b.primary_email ?? primary?.value;
  assertEmailFlags(value, b.primary_email_verified, b.primary_email_auth_enabled);
  if (!value) return;
  const usedForAuth = b.primary_email_auth_enabled ?? primary?.usedForAuth ?? false;
  // A changed address is not verified unless the caller says so.
  const changed = !primary || primary.value !== value;
  const isVerified = b.primary_email_verified ?? (changed ? false : primary.isVerified);
  if (usedForAuth) await assertEmailFreeForAuth(tx, projectId, value, userId);
  await channels.writePrimaryEmail(tx, projectId, userId, primary, { value, usedForAuth, isVerified });
}
