// Creating and updating users, including what every sign-up path shares: the primary email channel, auth
// methods, default project permissions and the personal team. Runs inside the caller's transaction.
import { and, eq, sql } from 'drizzle-orm';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { DB } from '../db';
import { isUniqueViolation } from '../db/errors';
import { schema } from '../db';
import { PreparedSql, preparedByShape } from '../db/prepared-sql';
import type { Project } from './projects';
import type { ChannelRow } from './contact-channels';
import { createTeam, type TeamRow } from './teams';
import { USER_COLUMNS, type UserRow } from './users';
import { enqueueDeliveriesSql } from './webhooks';
import { insertedSessionOf, sessionInsertSql, type InsertedSession, type NewSession } from './sessions';

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
const USER_INSERT_COLUMNS = sql`project_id, display_name, profile_image_url, client_metadata, client_read_only_metadata, server_metadata,
  is_anonymous, password_hash, otp_auth_enabled, totp_secret, primary_email, primary_email_verified, primary_email_auth_enabled`;
const USER_INSERT_VALUES = sql`${ph('projectId')}, ${ph('displayName')}, ${ph('profileImageUrl')}, ${ph('clientMetadata')}::text::jsonb,
  ${ph('clientReadOnlyMetadata')}::text::jsonb, ${ph('serverMetadata')}::text::jsonb, ${ph('isAnonymous')}, ${ph('passwordHash')},
  ${ph('otpAuthEnabled')}, ${ph('totpSecret')}, ${ph('primaryEmail')}, ${ph('primaryEmailVerified')}, ${ph('primaryEmailAuthEnabled')}`;
const insertUserStatement = new PreparedSql('users_insert', () => sql`
  insert into users (id, ${USER_INSERT_COLUMNS}) values (${ph('id')}::uuid, ${USER_INSERT_VALUES}) returning id`);
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

/** A new user's sign-in email is no one else's, unless its caller has just checked (`emailCheckedFree`). */
async function assertSignInEmailFree(db: DB, project: Project, u: NewUser, emailCheckedFree?: boolean): Promise<void> {
  if (u.primaryEmail && u.primaryEmailAuthEnabled && !emailCheckedFree) await assertEmailFreeForAuth(db, project.id, u.primaryEmail);
}

const emptyToNull = (v: string | null | undefined) => (v === '' ? null : v ?? null);

/** The values of the user insert's placeholders. */
function userValues(project: Project, u: NewUser) {
  return {
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
    // What the primary email channel will summarise into the row (drizzle/0003, 0035): set now, its trigger finds
    // the row current and leaves it alone instead of writing a second version of it.
    primaryEmail: u.primaryEmail || null,
    primaryEmailVerified: u.primaryEmail ? u.primaryEmailVerified ?? false : false,
    primaryEmailAuthEnabled: u.primaryEmail ? u.primaryEmailAuthEnabled ?? false : false,
  };
}

/**
 * Inserts a user with everything a sign-up implies (users/create.ts is the one caller; it emits the event). Call
 * inside a transaction. `emailCheckedFree`: the caller has just checked that no one signs in with the primary email
 * (the unique index still decides a race). `id`: the user's id, when the caller chose it. Returns the new user id and
 * its primary email channel.
 */
export async function insertUser(tx: DB, project: Project, u: NewUser, o: { id?: string; emailCheckedFree?: boolean } = {}): Promise<{ id: string; channel: ChannelRow | null; personalTeam: TeamRow | null }> {
  await assertSignInEmailFree(tx, project, u, o.emailCheckedFree);
  const [user] = await insertUserStatement.rows<{ id: string }>(tx, { ...userValues(project, u), id: o.id ?? crypto.randomUUID() });

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

/**
 * Does this new user need nothing but its row, its primary email channel and its `user.created` event? Then
 * `insertPlainUser` writes it in one statement. Not when it has OAuth links, the project grants default permissions
 * or gives every new user a personal team (`insertUser`, in a transaction).
 */
export const isPlainNewUser = (project: Project, u: NewUser) =>
  !u.oauthAccounts?.length && project.config.user_default_permissions.length === 0 && !project.config.create_team_on_sign_up;

// Issue 31: a sign-up's writes were six round trips (begin, the user, its channel, the read-back, the event's
// deliveries, commit); one statement is atomic without a transaction. The user's id and sign-up time are given, so
// the caller can build the event's payload, the user as the API shows it, before the row exists. The channel's
// values are the row's primary email columns; its trigger (drizzle/0035) finds the row current. Foreign keys and
// row triggers run at the statement's end and see every row it inserted.
const insertPlainUserStatement = preparedByShape((withSession: 0 | 1) => new PreparedSql(`users_insert_plain${withSession ? '_with_session' : ''}`, () => sql`
  with u as (
    insert into users (id, created_at, ${USER_INSERT_COLUMNS}) values (${ph('id')}::uuid, ${ph('createdAt')}::timestamptz, ${USER_INSERT_VALUES})
    returning *
  ), c as (
    insert into contact_channels (project_id, user_id, type, value, is_verified, is_primary, used_for_auth)
    select u.project_id, u.id, 'email', u.primary_email, u.primary_email_verified, true, u.primary_email_auth_enabled from u
    where u.primary_email is not null
    returning id, created_at, auth_requires_verification
  ), w as (${enqueueDeliveriesSql()})
  ${withSession ? sql`, s as (${sessionInsertSql()})` : sql``}
  select ${USER_COLUMNS}, c.id as channel_id, c.created_at as channel_created_at,
    c.auth_requires_verification as channel_auth_requires_verification, (select count(*) from w)::int as queued_deliveries
    ${withSession ? sql`, s.id as session_id, s.used_ms as session_used_ms` : sql``}
  from u left join teams t on t.id = u.selected_team_id left join c on true ${withSession ? sql`left join s on true` : sql``}`));
type PlainUserRow = UserRow & {
  channel_id: string | null; channel_created_at: Date | string | null; channel_auth_requires_verification: boolean | null;
  queued_deliveries: number; session_id?: string; session_used_ms?: number | null;
};

/**
 * The row `insertPlainUser` will return, known before it runs (its caller builds the event's payload from it);
 * user-writes-one-statement.test.ts holds the two equal through the API's views.
 */
export function plainUserRow(project: Project, u: NewUser, o: { id: string; createdAt: Date }): UserRow {
  const v = userValues(project, u);
  return {
    id: o.id, project_id: project.id, display_name: v.displayName, profile_image_url: v.profileImageUrl,
    client_metadata: u.clientMetadata ?? null, client_read_only_metadata: u.clientReadOnlyMetadata ?? null, server_metadata: u.serverMetadata ?? null,
    is_anonymous: v.isAnonymous, has_password: v.passwordHash !== null, otp_auth_enabled: v.otpAuthEnabled, requires_totp_mfa: v.totpSecret !== null,
    passkey_auth_enabled: false, created_at: o.createdAt, last_active_at: null,
    primary_email: v.primaryEmail, primary_email_verified: v.primaryEmailVerified, primary_email_auth_enabled: v.primaryEmailAuthEnabled,
    oauth_providers: [], selected_team: null,
  };
}

/**
 * Writes a plain new user (`isPlainNewUser`) in one statement: its row, its primary email channel, the deliveries of
 * `event` (its `user.created`, built by the caller, users/create.ts) to the project's webhooks, and `session` when
 * given (a sign-up's: repo/sessions.ts `newSession`, for this user; users/create.ts checks that). Returns the user as
 * `users.load` reads it, its channel, how many deliveries were queued, and the session written. Atomic on its own, or
 * in the caller's transaction.
 */
export async function insertPlainUser(db: DB, project: Project, u: NewUser, o: {
  id: string; createdAt: Date; event: { type: string; data: unknown }; emailCheckedFree?: boolean; session?: NewSession;
}): Promise<{ user: UserRow; channel: ChannelRow | null; queuedDeliveries: number; session: InsertedSession | null }> {
  await assertSignInEmailFree(db, project, u, o.emailCheckedFree);
  let row: PlainUserRow;
  try {
    [row] = await insertPlainUserStatement(o.session ? 1 : 0).rows<PlainUserRow>(db, {
      ...o.session?.values, ...userValues(project, u), id: o.id, createdAt: o.createdAt.toISOString(), type: o.event.type, payload: JSON.stringify(o.event),
    }) as [PlainUserRow];
  } catch (err) {
    if (u.primaryEmail && isUniqueViolation(err, 'contact_channels_auth_idx')) throw new KnownErrors.UserEmailAlreadyExists(u.primaryEmail);
    throw err;
  }
  const { channel_id, channel_created_at, channel_auth_requires_verification, queued_deliveries, session_id, session_used_ms, ...user } = row;
  const channel = channel_id === null ? null : channelOf({
    id: channel_id, project_id: user.project_id, user_id: user.id, type: 'email', value: user.primary_email!,
    is_verified: !!user.primary_email_verified, is_primary: true, used_for_auth: !!user.primary_email_auth_enabled,
    auth_requires_verification: !!channel_auth_requires_verification, created_at: channel_created_at!,
  });
  const session = session_id ? insertedSessionOf({ id: session_id, used_ms: session_used_ms ?? null }) : null;
  return { user, channel, queuedDeliveries: queued_deliveries, session };
}

/** Columns of a user row an update may set. */
export type UserColumns = Partial<typeof schema.users.$inferInsert>;

export async function updateUserColumns(db: DB, projectId: string, userId: string, set: UserColumns) {
  if (Object.keys(set).length === 0) return;
  await db.update(schema.users).set(set).where(and(eq(schema.users.projectId, projectId), eq(schema.users.id, userId)));
}

