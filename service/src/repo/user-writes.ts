// Creating and updating users, including what every sign-up path shares: the primary email channel, auth
// methods, default project permissions and the personal team. Runs inside the caller's transaction.
import { and, eq } from 'drizzle-orm';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { DB } from '../db';
import { isUniqueViolation } from '../db/errors';
import { schema } from '../db';
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
  const [user] = await tx.insert(schema.users).values({
    projectId: project.id,
    displayName: emptyToNull(u.displayName),
    profileImageUrl: u.profileImageUrl ?? null,
    clientMetadata: u.clientMetadata ?? null,
    clientReadOnlyMetadata: u.clientReadOnlyMetadata ?? null,
    serverMetadata: u.serverMetadata ?? null,
    isAnonymous: u.isAnonymous ?? false,
    passwordHash: u.passwordHash ?? null,
    otpAuthEnabled: u.otpAuthEnabled ?? false,
    totpSecret: u.totpSecret ?? null,
    // What the primary email channel below will summarise into the row (drizzle/0003, 0035): set now, its trigger
    // finds the row current and leaves it alone instead of writing a second version of it.
    ...(u.primaryEmail ? {
      primaryEmail: u.primaryEmail,
      primaryEmailVerified: u.primaryEmailVerified ?? false,
      primaryEmailAuthEnabled: u.primaryEmailAuthEnabled ?? false,
    } : {}),
  }).returning({ id: schema.users.id });

  let channel: ChannelRow | null = null;
  if (u.primaryEmail) {
    try {
      [channel] = await tx.insert(schema.contactChannels).values({
        projectId: project.id, userId: user.id, type: 'email', value: u.primaryEmail,
        isVerified: u.primaryEmailVerified ?? false, isPrimary: true, usedForAuth: u.primaryEmailAuthEnabled ?? false,
      }).returning();
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

