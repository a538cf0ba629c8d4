// Users: loading the full user (one query: the user row with its trigger-kept summary, and the selected team),
// listing with a keyset cursor, and writes. The API's views of the row are presenters/users.ts.
import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { DB } from '../db';
import { rowsOf, schema } from '../db';
import { ReadCache } from '../db/read-cache';
import { PreparedSql } from '../db/prepared-sql';
import { openBytes } from '../db/secrets-at-rest';

export interface UserRow {
  id: string;
  project_id: string;
  display_name: string | null;
  profile_image_url: string | null;
  client_metadata: unknown;
  client_read_only_metadata: unknown;
  server_metadata: unknown;
  is_anonymous: boolean;
  has_password: boolean;
  otp_auth_enabled: boolean;
  requires_totp_mfa: boolean;
  passkey_auth_enabled: boolean;
  created_at: Date | string;
  last_active_at: Date | string | null;
  primary_email: string | null;
  primary_email_verified: boolean | null;
  primary_email_auth_enabled: boolean | null;
  oauth_providers: { id: string; account_id: string; email: string | null }[] | string;
  selected_team: null | string | {
    id: string; display_name: string; profile_image_url: string | null; client_metadata: unknown;
    client_read_only_metadata: unknown; server_metadata: unknown; created_at_millis: number | string;
  };
}

// One SQL expression per UserRow field: a select list for the ad-hoc queries below, and the fields of the
// prepared `load` query.
const USER_FIELDS: Record<keyof UserRow, SQL> = {
  id: sql`u.id`, project_id: sql`u.project_id`, display_name: sql`u.display_name`, profile_image_url: sql`u.profile_image_url`,
  client_metadata: sql`u.client_metadata`, client_read_only_metadata: sql`u.client_read_only_metadata`,
  server_metadata: sql`u.server_metadata`, is_anonymous: sql`u.is_anonymous`, has_password: sql`(u.password_hash is not null)`,
  otp_auth_enabled: sql`u.otp_auth_enabled`, requires_totp_mfa: sql`(u.totp_secret is not null)`,
  created_at: sql`u.created_at`, last_active_at: sql`u.last_active_at`,
  primary_email: sql`u.primary_email`, primary_email_verified: sql`u.primary_email_verified`,
  primary_email_auth_enabled: sql`u.primary_email_auth_enabled`, passkey_auth_enabled: sql`u.has_passkey`,
  oauth_providers: sql`u.oauth_providers`,
  selected_team: sql`(case when t.id is null then null else json_build_object('id', t.id, 'display_name', t.display_name,
            'profile_image_url', t.profile_image_url, 'client_metadata', t.client_metadata,
            'client_read_only_metadata', t.client_read_only_metadata, 'server_metadata', t.server_metadata,
            'created_at_millis', floor(extract(epoch from t.created_at) * 1000)) end)`,
};

/** The select list of a `UserRow`, over a users row aliased `u` and its selected team aliased `t` (left joined). */
export const USER_COLUMNS = sql.join(Object.entries(USER_FIELDS).map(([name, expr]) => sql`${expr} as ${sql.identifier(name)}`), sql`, `);

// The summary columns (primary email, passkey, OAuth links, selected team) are kept by triggers
// (drizzle/0003_user_summary_triggers.sql); only the selected team's own row is joined.
const USER_TABLES = sql`users u left join teams t on t.id = u.selected_team_id`;
const USER_FROM = sql`from ${USER_TABLES}`;

// `load` runs on every authenticated request that reads the user (GET /users/me...) and in every transaction that
// writes one (a sign-up reads its new user back): a named prepared statement, built once, skips drizzle's SQL
// building and Postgres' parse/plan on each call (a transaction's handle prepares it again, which costs no building).
const loadStatement = new PreparedSql('users_load', () => sql`select ${USER_COLUMNS} ${USER_FROM}
  where u.project_id = ${sql.placeholder('projectId')} and u.id = ${sql.placeholder('userId')}`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID.test(s);

/**
 * The user, or null. Outside transactions on the embedded database, the row is reused until the next write
 * (db/read-cache.ts): every signed-in request reads it, and PGlite's thread is the embedded default's bottleneck.
 * The row is then frozen; callers build views from it and never change it.
 */
export async function load(db: DB, projectId: string, userId: string): Promise<UserRow | null> {
  if (!isUuid(userId)) return null;
  return loadCache.read(db, cacheKey(projectId, userId), () => loadFromDb(db, projectId, userId));
}
// The row and its selected team (`USER_TABLES`); the tables whose triggers keep its summary columns (drizzle/0003)
// and the projects whose deletion cascades to it are derived from the schema (db/write-reach.ts).
// On PostgreSQL the row is kept too, dropped by the change notices of drizzle/0026 (db/change-notices.ts): a user
// deleted or changed, or the selected team changed. A missing user is not kept there (an insert sends no notice);
// the users' last activity, which another instance's flush moves without a notice, is at most USER_ROW_MAX_AGE_MS old.
export const USER_ROW_MAX_AGE_MS = 5_000;
/** The size limit: about 1.4 KiB of heap a row (bench/user-cache-memory.ts), so at most about 28 MiB. */
export const USER_ROWS_KEPT = 20_000;
export const userRowCache = new ReadCache<UserRow | null>(USER_ROWS_KEPT, ['users', 'teams'], {
  onPostgres: {
    keep: (row) => row !== null,
    dependsOn: (key, row) => {
      const team = row?.selected_team;
      const teamId = team && (typeof team === 'object' ? team.id : selectedTeamId(team));
      return teamId ? [`user:${key}`, `team:${teamId}`] : [`user:${key}`];
    },
    maxAgeMs: USER_ROW_MAX_AGE_MS,
  },
});
/** The id of a selected team the driver left as JSON text. */
const selectedTeamId = (json: string) => { try { return String((JSON.parse(json) as { id: string }).id); } catch { return ''; } };
const loadCache = userRowCache;
const cacheKey = (projectId: string, userId: string) => `${projectId} ${userId}`;

/**
 * The activity flush's effect on kept rows (it runs as a declared write, db/read-cache.ts): repo/activity.ts sets
 * `last_active_at = greatest(coalesce(last_active_at, at), at)` for each user it names, and changes nothing else
 * that `load` returns.
 */
const millis = (v: Date | string | number) => (v instanceof Date ? v.getTime() : typeof v === 'number' ? v : new Date(v).getTime());

export function patchKeptLastActive(db: DB, entries: readonly { projectId: string; userId: string; at: Date }[]): void {
  for (const e of entries) {
    loadCache.patch(db, cacheKey(e.projectId, e.userId), (row) => row && {
      ...row,
      last_active_at: row.last_active_at === null || millis(row.last_active_at) < e.at.getTime() ? e.at : row.last_active_at,
    });
  }
}

async function loadFromDb(db: DB, projectId: string, userId: string): Promise<UserRow | null> {
  const [row] = await loadStatement.rows<UserRow>(db, { projectId, userId });
  return row ?? null;
}

/** Several users in one read (a listing that shows each member's user), by id; missing ones are left out. */
export async function loadMany(db: DB, projectId: string, userIds: string[]): Promise<Map<string, UserRow>> {
  const ids = [...new Set(userIds.filter(isUuid))];
  if (ids.length === 0) return new Map();
  const rows = rowsOf<UserRow>(await db.execute(sql`select ${USER_COLUMNS} ${USER_FROM}
    where u.project_id = ${projectId} and u.id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`));
  return new Map(rows.map((r) => [r.id, r]));
}

export async function exists(db: DB, projectId: string, userId: string): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const [row] = await db.select({ id: schema.users.id }).from(schema.users)
    .where(and(eq(schema.users.projectId, projectId), eq(schema.users.id, userId))).limit(1);
  return !!row;
}

/** The user's server metadata, or `undefined` when the user does not exist. */
export async function findServerMetadata(db: DB, projectId: string, userId: string): Promise<unknown | undefined> {
  if (!isUuid(userId)) return undefined;
  const [row] = await db.select({ m: schema.users.serverMetadata }).from(schema.users)
    .where(and(eq(schema.users.projectId, projectId), eq(schema.users.id, userId))).limit(1);
  return row ? row.m : undefined;
}

/** An admin access token's owner: their server metadata (managed projects) and whether they have a second factor. */
export async function findAdminOwner(db: DB, userId: string): Promise<{ serverMetadata: unknown; hasMfa: boolean } | undefined> {
  if (!isUuid(userId)) return undefined;
  const [row] = await db.select({ m: schema.users.serverMetadata, totp: sql<boolean>`${schema.users.totpSecret} is not null`, passkey: schema.users.hasPasskey })
    .from(schema.users).where(and(eq(schema.users.projectId, 'internal'), eq(schema.users.id, userId))).limit(1);
  return row ? { serverMetadata: row.m, hasMfa: Boolean(row.totp) || row.passkey } : undefined;
}

/** Gatehouse's filters of the list and the export (shared/src/schemas/users.ts `UserFilters`). */
export interface UserFilter { emailVerified?: boolean; hasPassword?: boolean; hasMfa?: boolean; signedInWithinDays?: number }

export interface ListOptions extends UserFilter { cursor?: string; limit?: number; desc?: boolean; query?: string; teamId?: string }

/** The conditions on `u` (users) of a search and the filters; the project's own condition first. */
export function listConditions(projectId: string, o: Omit<ListOptions, 'cursor' | 'limit' | 'desc'>): SQL[] {
  const conditions: SQL[] = [sql`u.project_id = ${projectId}`];
  // Team members and search matches are written as id sets (`u.id in (...)`), not as per-row `exists`: the planner
  // then starts from the small set (the team's rows, the trigram indexes' matches) instead of walking every user of
  // the project in sign-up order and testing each (service/test/query-plans.test.ts holds this).
  if (o.teamId) conditions.push(sql`u.id in (select m.user_id from team_members m where m.team_id = ${o.teamId} and m.project_id = ${projectId})`);
  if (o.query) {
    const like = `%${o.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const idCandidate = o.query.replace(/[^a-zA-Z0-9\-_.]/g, '');
    const idMatch = isUuid(idCandidate) ? sql` union all select ${idCandidate}::uuid` : sql``;
    conditions.push(sql`u.id in (select n.id from users n where n.project_id = ${projectId} and n.display_name ilike ${like}
      union all select c.user_id from contact_channels c where c.project_id = ${projectId} and c.value ilike ${like}${idMatch})`);
  }
  if (o.emailVerified !== undefined) conditions.push(sql`coalesce(u.primary_email_verified, false) = ${o.emailVerified}`);
  if (o.hasPassword !== undefined) conditions.push(sql`(u.password_hash is not null) = ${o.hasPassword}`);
  if (o.hasMfa !== undefined) conditions.push(sql`(u.totp_secret is not null) = ${o.hasMfa}`);
  // Never signed in (no activity yet) is never within N days.
  if (o.signedInWithinDays !== undefined) conditions.push(sql`u.last_active_at >= now() - make_interval(days => ${o.signedInWithinDays}::int)`);
  return conditions;
}

/** Keyset pagination by (created_at, id); the cursor is the id of the first user of the page (inclusive). */
export async function list(db: DB, projectId: string, o: ListOptions): Promise<{ items: UserRow[]; nextCursor: string | null }> {
  const conditions = listConditions(projectId, o);
  const cmp = o.desc ? sql`<=` : sql`>=`;
  if (o.cursor) {
    conditions.push(sql`(u.created_at, u.id) ${cmp} (select c.created_at, c.id from users c where c.id = ${o.cursor} and c.project_id = ${projectId})`);
  }
  const dir = o.desc ? sql`desc` : sql`asc`;
  const limit = o.limit ? sql`limit ${o.limit + 1}` : sql``;
  const rows = rowsOf<UserRow>(await db.execute(sql`select ${USER_COLUMNS} ${USER_FROM} where ${sql.join(conditions, sql` and `)} order by u.created_at ${dir}, u.id ${dir} ${limit}`));
  if (o.limit && rows.length > o.limit) return { items: rows.slice(0, o.limit), nextCursor: rows[o.limit].id };
  return { items: rows, nextCursor: null };
}

export async function remove(db: DB, projectId: string, userId: string): Promise<boolean> {
  const rows = await db.delete(schema.users).where(and(eq(schema.users.projectId, projectId), eq(schema.users.id, userId))).returning({ id: schema.users.id });
  return rows.length > 0;
}

/**
 * Deletes a user and returns the teams they were a member of (null when there is no such user). The user row is
 * locked first, so no membership can be added between reading the teams and the delete (an FK check waits on it).
 */
export async function removeWithTeams(db: DB, projectId: string, userId: string): Promise<string[] | null> {
  if (!isUuid(userId)) return null;
  const [locked] = await db.select({ id: schema.users.id }).from(schema.users)
    .where(and(eq(schema.users.projectId, projectId), eq(schema.users.id, userId))).for('update');
  if (!locked) return null;
  const teams = await db.delete(schema.teamMembers)
    .where(and(eq(schema.teamMembers.projectId, projectId), eq(schema.teamMembers.userId, userId)))
    .returning({ id: schema.teamMembers.teamId });
  await remove(db, projectId, userId);
  return teams.map((t) => t.id);
}

/** The user's password hash, or null (no password, or no such user). */
export async function passwordHash(db: DB, projectId: string, userId: string): Promise<string | null> {
  const [row] = await db.select({ h: schema.users.passwordHash }).from(schema.users)
    .where(and(eq(schema.users.projectId, projectId), eq(schema.users.id, userId))).limit(1);
  return row?.h ?? null;
}

export async function setPasswordHash(db: DB, projectId: string, userId: string, hash: string | null) {
  await db.update(schema.users).set({ passwordHash: hash }).where(and(eq(schema.users.projectId, projectId), eq(schema.users.id, userId)));
}

/** The auth-enabled email contact channel with exactly this value (at most one per project). */
const isAuthEmail = (projectId: string | Placeholder, email: string | Placeholder) => {
  const c = schema.contactChannels;
  return and(eq(c.projectId, projectId), eq(c.type, 'email'), eq(c.value, email), eq(c.usedForAuth, true));
};

/**
 * A sign-in address that may be used to sign in or recover the account: verified, or unverified but not added by a
 * client (the address the account signed up with, or one a server set).
 */
const usableForAuth = () => {
  const c = schema.contactChannels;
  return sql<boolean>`(${c.isVerified} or not ${c.authRequiresVerification})`;
};

// The two reads of a password sign-up and sign-in, on every request of the hottest unauthenticated routes: prepared
// once per database handle like `load`, so neither drizzle's SQL building nor Postgres' parse and plan run per
// request on the JS thread and the database cores that the password hashing needs (issue 16 §3).
const authEmailWhere = () => isAuthEmail(sql.placeholder('projectId'), sql.placeholder('email'));
const prepareFindByAuthEmail = (db: DB) => {
  const c = schema.contactChannels;
  return db.select({ userId: c.userId, channelId: c.id, isVerified: c.isVerified, usableForAuth: usableForAuth() }).from(c)
    .where(authEmailWhere()).limit(1).prepare('users_find_by_auth_email');
};
const preparedFinds = new WeakMap<DB, ReturnType<typeof prepareFindByAuthEmail>>();

/**
 * Finds the user owning an auth-enabled email contact channel with exactly this value. `usableForAuth` is false for
 * an address a client added that is not verified yet: it blocks the address for others but signs nobody in.
 */
export async function findByAuthEmail(db: DB, projectId: string, email: string): Promise<{ userId: string; channelId: string; isVerified: boolean; usableForAuth: boolean } | null> {
  let query = preparedFinds.get(db);
  if (!query) preparedFinds.set(db, (query = prepareFindByAuthEmail(db)));
  const [row] = await query.execute({ projectId, email });
  return row ?? null;
}

// The reads a password sign-up and sign-in need first. repo/rate-limits.ts carries them in the rate-limit hit's
// statement (one round trip fewer beside the hash); alone they run as prepared statements. Placeholders: projectId,
// email.

/** The owner of an auth email: a sign-up's "already exists" check. */
export const authEmailOwnerSql = () => {
  const c = schema.contactChannels;
  return sql`select ${c.userId} as user_id from ${c} where ${authEmailWhere()} limit 1`;
};
export type AuthEmailOwnerRow = { user_id: string };
const authEmailOwnerAlone = new PreparedSql('users_auth_email_owner', authEmailOwnerSql);
export async function authEmailOwner(db: DB, projectId: string, email: string): Promise<{ userId: string } | null> {
  const [row] = await authEmailOwnerAlone.rows<AuthEmailOwnerRow>(db, { projectId, email });
  return row ? { userId: row.user_id } : null;
}

/**
 * What a password sign-in needs about the account of an auth email, in one read: its user, password hash (null
 * when it has none) and whether it has TOTP MFA.
 */
export const signInFactsSql = () => {
  const c = schema.contactChannels;
  const u = schema.users;
  return sql`select ${u.id} as user_id, ${u.passwordHash} as password_hash, ${u.totpSecret} is not null as has_totp
    from ${c} inner join ${u} on ${and(eq(u.projectId, c.projectId), eq(u.id, c.userId))}
    where ${and(authEmailWhere(), usableForAuth())} limit 1`;
};
export type SignInFactsRow = { user_id: string; password_hash: string | null; has_totp: boolean };
export interface SignInFacts { userId: string; passwordHash: string | null; hasTotp: boolean }
export const signInFactsOf = (row: SignInFactsRow): SignInFacts => ({ userId: row.user_id, passwordHash: row.password_hash, hasTotp: row.has_totp });
const signInFactsAlone = new PreparedSql('users_password_sign_in_facts', signInFactsSql);

export async function passwordSignInFacts(db: DB, projectId: string, email: string): Promise<SignInFacts | null> {
  const [row] = await signInFactsAlone.rows<SignInFactsRow>(db, { projectId, email });
  return row ? signInFactsOf(row) : null;
}

export async function totpSecret(db: DB, projectId: string, userId: string): Promise<Uint8Array | null> {
  const [row] = await db.select({ s: schema.users.totpSecret }).from(schema.users)
    .where(and(eq(schema.users.projectId, projectId), eq(schema.users.id, userId))).limit(1);
  // Sealed at rest (db/secrets-at-rest.ts); a secret stored before sealing existed is read as it is.
  return row?.s ? openBytes('totp-secret', row.s) : null;
}

/** What a sign-in that found the user by a credential checks before issuing tokens: its TOTP secret and primary email. */
export async function signInFacts(db: DB, projectId: string, userId: string): Promise<{ totpSecret: Uint8Array | null; primaryEmail: string | null } | null> {
  const u = schema.users;
  const [row] = await db.select({ s: u.totpSecret, primaryEmail: u.primaryEmail }).from(u)
    .where(and(eq(u.projectId, projectId), eq(u.id, userId))).limit(1);
  if (!row) return null;
  return { totpSecret: row.s ? openBytes('totp-secret', row.s) : null, primaryEmail: row.primaryEmail };
}

/** The user's display name (null when unset or when the user does not exist). */
export async function displayName(db: DB, projectId: string, userId: string): Promise<string | null> {
  const u = schema.users;
  const [row] = await db.select({ displayName: u.displayName }).from(u).where(and(eq(u.projectId, projectId), eq(u.id, userId))).limit(1);
  return row?.displayName ?? null;
}
