// Creating and updating users, including what every sign-up path shares: the primary email channel, auth
// methods, default project permissions and the personal team. Runs inside the caller's transaction.
import { and, eq, sql } from 'drizzle-orm';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { DB } from '../db';
import { isUniqueViolation } from '../db/errors';
import { schema } from '../db';
import { PreparedSql } from '../db/prepared-sql';
import type { Project } from './projects';
import type { ChannelRow } from './contact-channels';
import { createTeam, type TeamRow } from './teams';

export interface NewUser {
  displayName?: string | null;
  profileImageUrl?: string | null;
  clientMetadata?: unknown;
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
  isAnonymous?: boolean;
  primaryEmail?: string | null;
  primaryEmailVerified?: boolean;
  primaryEmailAuthEnabled?: boolean;
  passwordHash?: string | null;
  otpAuthEnabled?: boolean;
  totpSecret?: Uint8Array | null;
  oauthAccounts?: { providerId: string; accountId: string; email?: string | null; usedForAuth?: boolean }[];
}

// Every sign-up runs these two: prepared, built once (issue 31: under the sign-in and sign-up bench, drizzle's query
// building was 19% of the JS thread's profile samples, most of it these inserts and the read-back built again in each
// transaction). JSON goes as text, cast by the statement.
const ph = (name: string) => sql.placeholder(name);
const insertUserStatement = new PreparedSql('users_insert', () => sql`
  insert into users (project_id, display_name, profile_image_url, client_metadata, client_read_only_metadata, server_metadata,
    is_anonymous, password_hash, otp_auth_enabled, totp_secret, primary_email, primary_email_verified, primary_email_auth_enabled)
  values (${ph('projectId')}, ${ph('displayName')}, ${ph('profileImageUrl')}, ${ph('clientMetadata')}::text::jsonb,
    ${ph('clientReadOnlyMetadata')}::text::jsonb, ${ph('serverMetadata')}::text::jsonb, ${ph('isAnonymous')}, ${ph('passwordHash')},
    ${ph('otpAuthEnabled')}, ${ph('totpSecret')}, ${ph('primaryEmail')}, ${ph('primaryEmailVerified')}, ${ph('primaryEmailAuthEnabled')})
  returning id`);
const insertPrimaryEmailStatement = new PreparedSql('contact_channels_insert_primary_email', () => sql`
  insert into contact_channels (project_id, user_id, type, value, is_verified, is_primary, used_for_auth)
  values (${ph('projectId')}, ${ph('userId')}, 'email', ${ph('value')}, ${ph('isVerified')}, true, ${ph('usedForAuth')})
  returning id, project_id, user_id, type, value, is_verified, is_primary, used_for_auth, auth_requires_verification, created_at`);
interface PrimaryEmailRow {
  id: string; project_id: string; user_id: string; type: string; value: string; is_verified: boolean; is_primary: boolean;
  used_for_auth: boolean; auth_requires_verification: boolean; created_at: Date | string;
}
const channelOf = (r: PrimaryEmailRow): ChannelRow => ({
  id: r.id, projectId: r.project_id, userId: r.user_id, type: r.type, value: r.value, isVerified: r.is_verified, isPrimary: r.is_primary,
  usedForAuth: r.used_for_auth, authRequiresVerification: r.auth_requires_verification, createdAt: new Date(r.created_at),
});
/** A metadata value as the statement takes it: JSON text, or null for none (SQL NULL, as drizzle wrote it). */
const jsonOrNull = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

export async function assertEmailFreeForAuth(db: DB, projectId: string, email: string, exceptUserId?: string) {
  const c = schema.contactChannels;
  const [row] = await db.select({ userId: c.userId }).from(c)
    .where(and(eq(c.projectId, projectId), eq(c.type, 'email'), eq(c.value, email), eq(c.usedForAuth, true))).limit(1);
  if (row && row.userId !== exceptUserId) throw new KnownErrors.UserEmailAlreadyExists(email);
}

/**
 * Inserts a user with everything a sign-up implies (users/create.ts is the one caller; it emits the event). Call
 * inside a transaction. `emailCheckedFree`: the caller has just checked that no one signs in with the primary email
 * (the unique index still decides a race). Returns the new user id and its primary email channel.
 */
export async function insertUser(tx: DB, project: Project, u: NewUser, o: { emailCheckedFree?: boolean } = {}): Promise<{ id: string; channel: ChannelRow | null; personalTeam: TeamRow | null }> {
  const emptyToNull = (v: string | null | undefined) => (v === '' ? null : v ?? null);
  if (u.primaryEmail && u.primaryEmailAuthEnabled && !o.emailCheckedFree) await assertEmailFreeForAuth(tx, project.id, u.primaryEmail);
  const [user] = await insertUserStatement.rows<{ id: string }>(tx, {
    projectId: project.id,
    displayName: emptyToNull(u.displayName),
    profileImageUrl: u.profileImageUrl ?? null,
    clientMetadata: jsonOrNull(u.clientMetadata),
    clientReadOnlyMetadata: jsonOrNull(u.clientReadOnlyMetadata),
    serverMetadata: jsonOrNull(u.serverMetadata),
    isAnonymous: u.isAnonymous ?? false,
    passwordHash: u.passwordHash ?? null,
    otpAuthEnabled: u.otpAuthEnabled ?? false,
    totpSecret: u.totpSecret ?? null,
    // What the primary email channel below will summarise into the row (drizzle/0003, 0035): set now, its trigger
    // finds the row current and leaves it alone instead of writing a second version of it.
    primaryEmail: u.primaryEmail || null,
    primaryEmailVerified: u.primaryEmail ? u.primaryEmailVerified ?? false : false,
    primaryEmailAuthEnabled: u.primaryEmail ? u.primaryEmailAuthEnabled ?? false : false,
  });

  let channel: ChannelRow | null = null;
  if (u.primaryEmail) {
    try {
      const [row] = await insertPrimaryEmailStatement.rows<PrimaryEmailRow>(tx, {
        projectId: project.id, userId: user.id, value: u.primaryEmail,
        isVerified: u.primaryEmailVerified ?? false, usedForAuth: u.primaryEmailAuthEnabled ?? false,
      });
      channel = channelOf(row!);
    } catch (err) {
      if (isUniqueViolation(err, 'contact_channels_auth_idx')) throw new KnownErrors.UserEmailAlreadyExists(u.primaryEmail);
      throw err;
    }
  }
  for (const a of u.oauthAccounts ?? []) {
    try {
      await tx.insert(schema.oauthAccounts).values({
        projectId: project.id, providerId: a.providerId, providerAccountId: a.accountId, userId: user.id,
        email: a.email ?? null, usedForAuth: a.usedForAuth ?? true,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new KnownErrors.OAuthConnectionAlreadyConnectedToAnotherUser();
      throw err;
    }
  }
  for (const p of project.config.user_default_permissions) {
    await tx.insert(schema.projectPermissionGrants).values({ projectId: project.id, userId: user.id, permissionId: p.id }).onConflictDoNothing();
  }
  let personalTeam: TeamRow | null = null;
  if (project.config.create_team_on_sign_up) {
    const name = u.displayName ? `${u.displayName}'s Team` : u.primaryEmail ? `${u.primaryEmail}'s Team` : 'Personal Team';
    personalTeam = await createTeam(tx, project, { displayName: name, creatorUserId: user.id, selectForCreator: true });
  }
  return { id: user.id, channel, personalTeam };
}

/** Columns of a user row an update may set. */
export type UserColumns = Partial<typeof schema.users.$inferInsert>;

export async function updateUserColumns(db: DB, projectId: string, userId: string, set: UserColumns) {
  if (Object.keys(set).length === 0) return;
  await db.update(schema.users).set(set).where(and(eq(schema.users.projectId, projectId), eq(schema.users.id, userId)));
}

