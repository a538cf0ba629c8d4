// Enterprise sign-in's rows (db/schema-enterprise.ts): a team's SSO connections, the identities their IdPs
// assert, the SAML assertion ids already used, and which domain (verified, of which team) an address is at.
import { and, asc, eq, isNotNull, lt } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';
import { isUuid } from './users';

const c = schema.ssoConnections;
const i = schema.ssoIdentities;
const a = schema.ssoAssertionIds;
const d = schema.teamDomains;

export type SsoConnectionRow = typeof c.$inferSelect;

export async function insertConnection(db: DB, r: typeof c.$inferInsert): Promise<SsoConnectionRow> {
  const [row] = await db.insert(c).values(r).returning();
  return row!;
}

export async function listConnections(db: DB, projectId: string, teamId: string): Promise<SsoConnectionRow[]> {
  return db.select().from(c).where(and(eq(c.projectId, projectId), eq(c.teamId, teamId))).orderBy(asc(c.createdAt), asc(c.id));
}

/** A connection of the project (of the team, when given). */
export async function findConnection(db: DB, projectId: string, id: string, teamId?: string): Promise<SsoConnectionRow | null> {
  if (!isUuid(id) || (teamId !== undefined && !isUuid(teamId))) return null;
  const conditions = [eq(c.projectId, projectId), eq(c.id, id)];
  if (teamId !== undefined) conditions.push(eq(c.teamId, teamId));
  const [row] = await db.select().from(c).where(and(...conditions)).limit(1);
  return row ?? null;
}

/** A connection by id alone (the ACS and metadata URLs name only the connection); its project is in the row. */
export async function findConnectionById(db: DB, id: string): Promise<SsoConnectionRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(c).where(eq(c.id, id)).limit(1);
  return row ?? null;
}

export async function updateConnection(db: DB, row: SsoConnectionRow, set: Partial<typeof c.$inferInsert>): Promise<SsoConnectionRow> {
  const [updated] = await db.update(c).set({ ...set, updatedAt: new Date() }).where(and(eq(c.projectId, row.projectId), eq(c.id, row.id))).returning();
  return updated!;
}

export async function deleteConnection(db: DB, projectId: string, teamId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db.delete(c).where(and(eq(c.projectId, projectId), eq(c.teamId, teamId), eq(c.id, id))).returning({ id: c.id });
  return rows.length > 0;
}

/** The team whose verified domain this is, with its first enabled connection (if any) and whether SSO is required. */
export async function domainOwner(db: DB, projectId: string, domain: string): Promise<{ teamId: string; ssoRequired: boolean; connection: SsoConnectionRow | null } | null> {
  const [owner] = await db.select({ teamId: d.teamId, ssoRequired: d.ssoRequired }).from(d)
    .where(and(eq(d.projectId, projectId), eq(d.domain, domain), isNotNull(d.verifiedAt))).limit(1);
  if (!owner) return null;
  const [connection] = await db.select().from(c)
    .where(and(eq(c.projectId, projectId), eq(c.teamId, owner.teamId), eq(c.enabled, true))).orderBy(asc(c.createdAt)).limit(1);
  return { ...owner, connection: connection ?? null };
}

export async function setDomainSsoRequired(db: DB, projectId: string, teamId: string, domainId: string, required: boolean) {
  if (!isUuid(domainId)) return null;
  const [row] = await db.update(d).set({ ssoRequired: required }).where(and(eq(d.projectId, projectId), eq(d.teamId, teamId), eq(d.id, domainId))).returning();
  return row ?? null;
}

// ---- Identities

export async function findIdentity(db: DB, connectionId: string, subject: string): Promise<string | null> {
  const [row] = await db.select({ userId: i.userId }).from(i).where(and(eq(i.connectionId, connectionId), eq(i.subject, subject))).limit(1);
  return row?.userId ?? null;
}

/** False when a concurrent sign-in of the same subject recorded it first. */
export async function insertIdentity(tx: DB, r: { projectId: string; connectionId: string; subject: string; userId: string }): Promise<boolean> {
  const rows = await tx.insert(i).values(r).onConflictDoNothing().returning({ userId: i.userId });
  return rows.length > 0;
}

/** The connections through which the user has signed in (account settings: "managed by"). */
export async function identitiesOfUser(db: DB, projectId: string, userId: string): Promise<SsoConnectionRow[]> {
  if (!isUuid(userId)) return [];
  const rows = await db.select({ connection: c }).from(i).innerJoin(c, eq(c.id, i.connectionId))
    .where(and(eq(i.projectId, projectId), eq(i.userId, userId))).orderBy(asc(i.createdAt));
  return rows.map((r) => r.connection);
}

// ---- SAML assertion ids

/** Records an accepted assertion id; false when it was accepted before (a replay). */
export async function useAssertionId(db: DB, connectionId: string, assertionId: string, expiresAt: Date): Promise<boolean> {
  await db.delete(a).where(and(eq(a.connectionId, connectionId), lt(a.expiresAt, new Date())));
  const rows = await db.insert(a).values({ connectionId, assertionId, expiresAt }).onConflictDoNothing().returning({ id: a.assertionId });
  return rows.length > 0;
}

/** Every (project, domain) whose verified domain requires SSO and whose team has an enabled connection. */
export async function ssoRequiredDomains(db: DB): Promise<{ projectId: string; domain: string }[]> {
  return db.selectDistinct({ projectId: d.projectId, domain: d.domain }).from(d)
    .innerJoin(c, and(eq(c.teamId, d.teamId), eq(c.enabled, true)))
    .where(and(eq(d.ssoRequired, true), isNotNull(d.verifiedAt)));
}

/** Whether the project has an enabled connection at all. */
export async function projectHasSso(db: DB, projectId: string): Promise<boolean> {
  const [row] = await db.select({ id: c.id }).from(c).where(and(eq(c.projectId, projectId), eq(c.enabled, true))).limit(1);
  return row !== undefined;
}

/** The teams whose SSO the user signed in through, or whose SCIM provisioned them (active), with their names. */
export async function managingTeams(db: DB, projectId: string, userId: string) {
  if (!isUuid(userId)) return { viaSso: [], viaScim: [] };
  const t = schema.teams;
  const su = schema.scimUsers;
  const [viaSso, viaScim] = await Promise.all([
    db.select({ teamId: c.teamId, teamName: t.displayName, connectionName: c.displayName, type: c.type }).from(i)
      .innerJoin(c, eq(c.id, i.connectionId)).innerJoin(t, eq(t.id, c.teamId))
      .where(and(eq(i.projectId, projectId), eq(i.userId, userId))).orderBy(asc(i.createdAt)),
    db.select({ teamId: su.teamId, teamName: t.displayName }).from(su).innerJoin(t, eq(t.id, su.teamId))
      .where(and(eq(su.projectId, projectId), eq(su.userId, userId), eq(su.active, true))).orderBy(asc(su.createdAt)),
  ]);
  return { viaSso, viaScim };
}
