// SCIM provisioning's rows (db/schema-enterprise.ts): a team's bearer tokens (hashed), its provisioned users and
// groups, group members, and the team permissions SCIM granted through group mappings.
import { and, asc, count, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';
import { isUuid } from './users';

const tok = schema.scimTokens;
const su = schema.scimUsers;
const sg = schema.scimGroups;
const sgm = schema.scimGroupMembers;
const spg = schema.scimPermissionGrants;
const u = schema.users;

// ---- Tokens

export type ScimTokenRow = typeof tok.$inferSelect;

export async function insertToken(db: DB, r: { projectId: string; teamId: string; tokenHash: string; description: string }): Promise<ScimTokenRow> {
  const [row] = await db.insert(tok).values(r).returning();
  return row!;
}

export async function listTokens(db: DB, projectId: string, teamId: string): Promise<ScimTokenRow[]> {
  return db.select().from(tok).where(and(eq(tok.projectId, projectId), eq(tok.teamId, teamId))).orderBy(asc(tok.createdAt), asc(tok.id));
}

export async function deleteToken(db: DB, projectId: string, teamId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db.delete(tok).where(and(eq(tok.projectId, projectId), eq(tok.teamId, teamId), eq(tok.id, id))).returning({ id: tok.id });
  return rows.length > 0;
}

/** The token with this hash, if it belongs to the team (a token of another team or project is no token here). */
export async function findToken(db: DB, teamId: string, tokenHash: string): Promise<ScimTokenRow | null> {
  if (!isUuid(teamId)) return null;
  const [row] = await db.select().from(tok).where(and(eq(tok.tokenHash, tokenHash), eq(tok.teamId, teamId))).limit(1);
  return row ?? null;
}

/** Notes a use, at most once a minute per token (a provisioning run sends thousands of requests). */
export async function touchToken(db: DB, row: ScimTokenRow, at: Date): Promise<void> {
  if (row.lastUsedAt && at.getTime() - row.lastUsedAt.getTime() < 60_000) return;
  await db.update(tok).set({ lastUsedAt: at })
    .where(and(eq(tok.id, row.id), or(isNull(tok.lastUsedAt), lt(tok.lastUsedAt, new Date(at.getTime() - 60_000)))));
}

// ---- Users

export interface ScimUserRecord {
  userId: string;
  userName: string;
  externalId: string | null;
  active: boolean;
  name: unknown;
  createdAt: Date;
  updatedAt: Date;
  /** From the Gatehouse user. */
  displayName: string | null;
  email: string | null;
}

const userRecord = {
  userId: su.userId, userName: su.userName, externalId: su.externalId, active: su.active, name: su.name,
  createdAt: su.createdAt, updatedAt: su.updatedAt, displayName: u.displayName, email: u.primaryEmail,
};

export type UserCondition =
  | { field: 'id' | 'userName' | 'externalId' | 'email' | 'displayName'; value: string }
  | { field: 'active'; value: boolean };

function userCondition(c: UserCondition): SQL | null {
  switch (c.field) {
    case 'id': return isUuid(c.value) ? eq(su.userId, c.value) : null;
    case 'userName': return sql`lower(${su.userName}) = lower(${c.value})`;
    case 'externalId': return eq(su.externalId, c.value);
    case 'email': return sql`lower(${u.primaryEmail}) = lower(${c.value})`;
    case 'displayName': return eq(u.displayName, c.value);
    case 'active': return eq(su.active, c.value);
  }
}

/** One page of the team's provisioned users matching every condition, and how many match in all. */
export async function listUsers(db: DB, projectId: string, teamId: string, conditions: UserCondition[], page: { offset: number; limit: number }): Promise<{ total: number; rows: ScimUserRecord[] }> {
  const where: SQL[] = [eq(su.projectId, projectId), eq(su.teamId, teamId)];
  for (const c of conditions) {
    const condition = userCondition(c);
    if (!condition) return { total: 0, rows: [] };
    where.push(condition);
  }
  const joined = () => db.select(userRecord).from(su).innerJoin(u, and(eq(u.id, su.userId), eq(u.projectId, su.projectId)));
  const [rows, [totals]] = await Promise.all([
    page.limit === 0 ? Promise.resolve([]) : joined().where(and(...where)).orderBy(asc(su.createdAt), asc(su.userId)).offset(page.offset).limit(page.limit),
    db.select({ n: count() }).from(su).innerJoin(u, and(eq(u.id, su.userId), eq(u.projectId, su.projectId))).where(and(...where)),
  ]);
  return { total: totals?.n ?? 0, rows };
}

export async function findUser(db: DB, projectId: string, teamId: string, userId: string, lock?: 'update'): Promise<ScimUserRecord | null> {
  if (!isUuid(userId)) return null;
  const q = db.select(userRecord).from(su).innerJoin(u, and(eq(u.id, su.userId), eq(u.projectId, su.projectId)))
    .where(and(eq(su.projectId, projectId), eq(su.teamId, teamId), eq(su.userId, userId))).limit(1);
  const [row] = lock ? await q.for('update', { of: su }) : await q;
  return row ?? null;
}

/** The provisioned user another than `exceptUserId` holding this userName or externalId, if any. */
export async function findClash(db: DB, projectId: string, teamId: string, f: { userName: string; externalId: string | null }, exceptUserId?: string): Promise<'userName' | 'externalId' | null> {
  const rows = await db.select({ userId: su.userId, userName: su.userName, externalId: su.externalId }).from(su)
    .where(and(eq(su.projectId, projectId), eq(su.teamId, teamId),
      f.externalId ? or(sql`lower(${su.userName}) = lower(${f.userName})`, eq(su.externalId, f.externalId)) : sql`lower(${su.userName}) = lower(${f.userName})`));
  const other = rows.filter((r) => r.userId !== exceptUserId);
  if (other.some((r) => r.userName.toLowerCase() === f.userName.toLowerCase())) return 'userName';
  return other.length > 0 ? 'externalId' : null;
}

export interface ScimUserWrite { userName: string; externalId: string | null; active: boolean; name: unknown }

/** False when a concurrent request provisioned the same user, userName or externalId first. */
export async function insertUser(tx: DB, projectId: string, teamId: string, userId: string, w: ScimUserWrite): Promise<boolean> {
  const rows = await tx.insert(su).values({ projectId, teamId, userId, ...w }).onConflictDoNothing().returning({ id: su.userId });
  return rows.length > 0;
}

export async function updateUser(tx: DB, projectId: string, teamId: string, userId: string, w: ScimUserWrite): Promise<void> {
  await tx.update(su).set({ ...w, updatedAt: new Date() }).where(and(eq(su.projectId, projectId), eq(su.teamId, teamId), eq(su.userId, userId)));
}

export async function deleteUser(tx: DB, projectId: string, teamId: string, userId: string): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const rows = await tx.delete(su).where(and(eq(su.projectId, projectId), eq(su.teamId, teamId), eq(su.userId, userId))).returning({ id: su.userId });
  return rows.length > 0;
}

/** Which of `userIds` are provisioned users of the team. */
export async function provisionedAmong(db: DB, projectId: string, teamId: string, userIds: string[]): Promise<Set<string>> {
  const ids = userIds.filter(isUuid);
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: su.userId }).from(su).where(and(eq(su.projectId, projectId), eq(su.teamId, teamId), inArray(su.userId, ids)));
  return new Set(rows.map((r) => r.id));
}

// ---- Groups

export type ScimGroupRow = typeof sg.$inferSelect;
export type GroupCondition = { field: 'id' | 'displayName' | 'externalId'; value: string };

function groupCondition(c: GroupCondition): SQL | null {
  switch (c.field) {
    case 'id': return isUuid(c.value) ? eq(sg.id, c.value) : null;
    case 'displayName': return sql`lower(${sg.displayName}) = lower(${c.value})`;
    case 'externalId': return eq(sg.externalId, c.value);
  }
}

export async function listGroups(db: DB, projectId: string, teamId: string, conditions: GroupCondition[], page: { offset: number; limit: number }): Promise<{ total: number; rows: ScimGroupRow[] }> {
  const where: SQL[] = [eq(sg.projectId, projectId), eq(sg.teamId, teamId)];
  for (const c of conditions) {
    const condition = groupCondition(c);
    if (!condition) return { total: 0, rows: [] };
    where.push(condition);
  }
  const [rows, [totals]] = await Promise.all([
    page.limit === 0 ? Promise.resolve([]) : db.select().from(sg).where(and(...where)).orderBy(asc(sg.createdAt), asc(sg.id)).offset(page.offset).limit(page.limit),
    db.select({ n: count() }).from(sg).where(and(...where)),
  ]);
  return { total: totals?.n ?? 0, rows };
}

export async function findGroup(db: DB, projectId: string, teamId: string, groupId: string, lock?: 'update'): Promise<ScimGroupRow | null> {
  if (!isUuid(groupId)) return null;
  const q = db.select().from(sg).where(and(eq(sg.projectId, projectId), eq(sg.teamId, teamId), eq(sg.id, groupId))).limit(1);
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

export async function groupNameTaken(db: DB, projectId: string, teamId: string, displayName: string, exceptGroupId?: string): Promise<boolean> {
  const rows = await db.select({ id: sg.id }).from(sg)
    .where(and(eq(sg.projectId, projectId), eq(sg.teamId, teamId), sql`lower(${sg.displayName}) = lower(${displayName})`));
  return rows.some((r) => r.id !== exceptGroupId);
}

/** Null when a concurrent request created a group of that name first. */
export async function insertGroup(tx: DB, r: { projectId: string; teamId: string; displayName: string; externalId: string | null }): Promise<ScimGroupRow | null> {
  const [row] = await tx.insert(sg).values(r).onConflictDoNothing().returning();
  return row ?? null;
}

export async function updateGroup(tx: DB, row: ScimGroupRow, w: { displayName?: string; externalId?: string | null; permissionIds?: string[] }): Promise<ScimGroupRow> {
  const [updated] = await tx.update(sg).set({ ...w, updatedAt: new Date() }).where(and(eq(sg.projectId, row.projectId), eq(sg.id, row.id))).returning();
  return updated!;
}

export async function deleteGroup(tx: DB, projectId: string, teamId: string, groupId: string): Promise<boolean> {
  if (!isUuid(groupId)) return false;
  const rows = await tx.delete(sg).where(and(eq(sg.projectId, projectId), eq(sg.teamId, teamId), eq(sg.id, groupId))).returning({ id: sg.id });
  return rows.length > 0;
}

export interface GroupMember { groupId: string; userId: string; display: string | null }

/** The members of the groups, with the name a provider shows for each (their userName). */
export async function membersOf(db: DB, projectId: string, teamId: string, groupIds: string[]): Promise<GroupMember[]> {
  if (groupIds.length === 0) return [];
  return db.select({ groupId: sgm.groupId, userId: sgm.userId, display: su.userName }).from(sgm)
    .innerJoin(su, and(eq(su.teamId, sgm.teamId), eq(su.userId, sgm.userId)))
    .where(and(eq(sgm.projectId, projectId), eq(sgm.teamId, teamId), inArray(sgm.groupId, groupIds)))
    .orderBy(asc(sgm.groupId), asc(su.createdAt), asc(sgm.userId));
}

export async function memberCounts(db: DB, projectId: string, teamId: string): Promise<Map<string, number>> {
  const rows = await db.select({ groupId: sgm.groupId, n: count() }).from(sgm)
    .where(and(eq(sgm.projectId, projectId), eq(sgm.teamId, teamId))).groupBy(sgm.groupId);
  return new Map(rows.map((r) => [r.groupId, r.n]));
}

export async function addMembers(tx: DB, projectId: string, teamId: string, groupId: string, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await tx.insert(sgm).values(userIds.map((userId) => ({ projectId, teamId, groupId, userId }))).onConflictDoNothing();
}

export async function removeMembers(tx: DB, projectId: string, groupId: string, userIds: string[]): Promise<void> {
  const ids = userIds.filter(isUuid);
  if (ids.length === 0) return;
  await tx.delete(sgm).where(and(eq(sgm.projectId, projectId), eq(sgm.groupId, groupId), inArray(sgm.userId, ids)));
}

/** The users in any of the team's groups (those whose SCIM grants may change with a group's mapping). */
export async function memberIdsOf(db: DB, projectId: string, groupId: string): Promise<string[]> {
  const rows = await db.select({ userId: sgm.userId }).from(sgm).where(and(eq(sgm.projectId, projectId), eq(sgm.groupId, groupId)));
  return rows.map((r) => r.userId);
}

/** The team permissions the user's groups map to. */
export async function mappedPermissions(db: DB, projectId: string, teamId: string, userId: string): Promise<Set<string>> {
  const rows = await db.select({ ids: sg.permissionIds }).from(sgm).innerJoin(sg, eq(sg.id, sgm.groupId))
    .where(and(eq(sgm.projectId, projectId), eq(sgm.teamId, teamId), eq(sgm.userId, userId)));
  return new Set(rows.flatMap((r) => r.ids));
}

// ---- Grants SCIM made

export async function scimGrants(db: DB, projectId: string, teamId: string, userId: string): Promise<string[]> {
  const rows = await db.select({ id: spg.permissionId }).from(spg)
    .where(and(eq(spg.projectId, projectId), eq(spg.teamId, teamId), eq(spg.userId, userId)));
  return rows.map((r) => r.id);
}

export async function recordScimGrant(tx: DB, projectId: string, teamId: string, userId: string, permissionId: string): Promise<void> {
  await tx.insert(spg).values({ projectId, teamId, userId, permissionId }).onConflictDoNothing();
}

/** The team permissions the team's groups of these names map to (names compared case-insensitively). */
export async function permissionsOfGroupNames(db: DB, projectId: string, teamId: string, names: string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const lowered = [...new Set(names.map((n) => n.toLowerCase()))];
  const rows = await db.select({ ids: sg.permissionIds }).from(sg)
    .where(and(eq(sg.projectId, projectId), eq(sg.teamId, teamId), inArray(sql`lower(${sg.displayName})`, lowered)));
  return new Set(rows.flatMap((r) => r.ids));
}

/** Whether the team's SCIM provisioned the user (then SCIM, not SSO, decides their groups). */
export async function isProvisioned(db: DB, projectId: string, teamId: string, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: su.userId }).from(su).where(and(eq(su.projectId, projectId), eq(su.teamId, teamId), eq(su.userId, userId))).limit(1);
  return row !== undefined;
}
