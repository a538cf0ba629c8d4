// Data of a project's own OpenID provider (issue 27): its OAuth clients, what oidc-provider stores through its
// adapter (oauth-provider/adapter.ts), its signing keys (sealed here on the way in, opened on the way out) and the
// consents users gave. Every query names the project.
import { and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';
import { hashSecret } from '../db/secret-hash';
import { PreparedSql } from '../db/prepared-sql';
import { needsReseal, openSecret, sealSecret } from '../db/secrets-at-rest';

const c = schema.oauthProviderClients;
const r = schema.oauthProviderRecords;
const k = schema.oauthProviderKeys;
const g = schema.oauthProviderConsents;

export type ProviderClientRow = typeof c.$inferSelect;
export type ProviderConsentRow = typeof g.$inferSelect;

// ---- Clients

/**
 * Serializes the changes of a project's provider configuration (settings, clients) until the transaction `tx` ends:
 * a scope taken from the settings while a client is being given it, or two clients created past the limit, would
 * each pass its check alone.
 */
export async function lockProviderConfiguration(tx: DB, projectId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`gatehouse.oauth-provider:${projectId}`}, 0))`);
}

export async function listClients(db: DB, projectId: string): Promise<ProviderClientRow[]> {
  return db.select().from(c).where(eq(c.projectId, projectId)).orderBy(asc(c.createdAt), asc(c.clientId));
}

/**
 * The statements every token request runs (a client's lookup, a record's lookup and consumption): prepared once per
 * database handle, so neither drizzle builds their text nor the database plans them at each call (issue 27's figures).
 */
function preparedPerDb<Q>(prepare: (db: DB) => Q): (db: DB) => Q {
  const made = new WeakMap<DB, Q>();
  return (db) => {
    let query = made.get(db);
    if (!query) made.set(db, (query = prepare(db)));
    return query;
  };
}

const findClientStatement = preparedPerDb((db) => db.select().from(c)
  .where(and(eq(c.projectId, sql.placeholder('projectId')), eq(c.clientId, sql.placeholder('clientId')))).limit(1)
  .prepare('oauth_provider_find_client'));

export async function findClient(db: DB, projectId: string, clientId: string): Promise<ProviderClientRow | null> {
  const [row] = await findClientStatement(db).execute({ projectId, clientId });
  return row ?? null;
}

export async function insertClient(db: DB, v: typeof c.$inferInsert): Promise<ProviderClientRow> {
  const [row] = await db.insert(c).values(v).returning();
  return row!;
}

export interface ClientPatch {
  displayName?: string; redirectUris?: string[]; grantTypes?: string[]; scopes?: string[]; logoUrl?: string | null;
  accessTokenLifetimeSeconds?: number; idTokenLifetimeSeconds?: number; refreshTokenLifetimeSeconds?: number;
}

export async function updateClient(db: DB, projectId: string, clientId: string, patch: ClientPatch): Promise<ProviderClientRow | null> {
  const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  const [row] = await db.update(c).set({ ...set, updatedAt: new Date() }).where(and(eq(c.projectId, projectId), eq(c.clientId, clientId))).returning();
  return row ?? null;
}

/** Removes the client with its consents; what it was issued is revoked with it (its records deleted). */
export async function deleteClient(db: DB, projectId: string, clientId: string): Promise<boolean> {
  const rows = await db.delete(c).where(and(eq(c.projectId, projectId), eq(c.clientId, clientId))).returning({ id: c.clientId });
  if (rows.length === 0) return false;
  await db.delete(r).where(and(eq(r.projectId, projectId), eq(r.clientId, clientId)));
  return true;
}

// ---- Adapter records (keyed by the hash of the id: see the table's comment in db/schema.ts)

export interface ProviderRecord { payload: Record<string, unknown>; consumedAt: Date | null; expiresAt: Date | null }

const idHash = (id: string) => hashSecret(id);

export async function upsertRecord(db: DB, v: {
  projectId: string; model: string; id: string; uid: string | null; grantId: string | null; accountId: string | null;
  clientId: string | null; payload: Record<string, unknown>; expiresAt: Date | null;
}): Promise<void> {
  await upsertRecordStatement.rows(db, {
    projectId: v.projectId, model: v.model, idHash: idHash(v.id), uidHash: v.uid ? idHash(v.uid) : null, grantId: v.grantId,
    accountId: v.accountId, clientId: v.clientId, payload: JSON.stringify(v.payload), expiresAt: v.expiresAt?.toISOString() ?? null,
  });
}
const upsertRecordStatement = new PreparedSql('oauth_provider_upsert_record', () => sql`
  insert into oauth_provider_records (project_id, model, id_hash, uid_hash, grant_id, account_id, client_id, payload, expires_at)
  values (${sql.placeholder('projectId')}::text, ${sql.placeholder('model')}::text, ${sql.placeholder('idHash')}::text,
    ${sql.placeholder('uidHash')}::text, ${sql.placeholder('grantId')}::text, ${sql.placeholder('accountId')}::uuid,
    ${sql.placeholder('clientId')}::text, ${sql.placeholder('payload')}::jsonb, ${sql.placeholder('expiresAt')}::timestamptz)
  on conflict (project_id, model, id_hash) do update set
    -- A re-save that does not name the uid (a device code saved after it was found by its id) keeps the stored one.
    uid_hash = coalesce(excluded.uid_hash, oauth_provider_records.uid_hash), grant_id = excluded.grant_id,
    account_id = excluded.account_id, client_id = excluded.client_id, payload = excluded.payload, expires_at = excluded.expires_at`);

const live = () => sql`(${r.expiresAt} is null or ${r.expiresAt} > now())`;

const findRecordStatement = preparedPerDb((db) => db.select({ payload: r.payload, consumedAt: r.consumedAt, expiresAt: r.expiresAt }).from(r)
  .where(and(eq(r.projectId, sql.placeholder('projectId')), eq(r.model, sql.placeholder('model')), eq(r.idHash, sql.placeholder('idHash')), live())).limit(1)
  .prepare('oauth_provider_find_record'));

export async function findRecord(db: DB, projectId: string, model: string, id: string): Promise<ProviderRecord | null> {
  const [row] = await findRecordStatement(db).execute({ projectId, model, idHash: idHash(id) });
  return row ? { payload: row.payload as Record<string, unknown>, consumedAt: dateOrNull(row.consumedAt), expiresAt: dateOrNull(row.expiresAt) } : null;
}

/** A timestamp as a Date (a prepared statement's row may carry the driver's text). */
const dateOrNull = (v: Date | string | null) => (v === null ? null : new Date(v));

/** A record by its `uid` (sessions): the payload carries no id, so the caller learns it only through `uid`'s row. */
export async function findRecordByUid(db: DB, projectId: string, model: string, uid: string): Promise<ProviderRecord | null> {
  const [row] = await db.select({ payload: r.payload, consumedAt: r.consumedAt, expiresAt: r.expiresAt }).from(r)
    .where(and(eq(r.projectId, projectId), eq(r.model, model), eq(r.uidHash, idHash(uid)), live())).limit(1);
  return row ? { ...row, payload: row.payload as Record<string, unknown> } : null;
}

/** Removes a record and answers its payload, once: of two concurrent takers only one gets it. */
export async function takeRecord(db: DB, projectId: string, model: string, id: string): Promise<Record<string, unknown> | null> {
  const [row] = await db.delete(r).where(and(eq(r.projectId, projectId), eq(r.model, model), eq(r.idHash, idHash(id)), live()))
    .returning({ payload: r.payload });
  return row ? (row.payload as Record<string, unknown>) : null;
}

const consumeRecordStatement = preparedPerDb((db) => db.update(r).set({ consumedAt: sql`now()` })
  .where(and(eq(r.projectId, sql.placeholder('projectId')), eq(r.model, sql.placeholder('model')), eq(r.idHash, sql.placeholder('idHash')), isNull(r.consumedAt)))
  .prepare('oauth_provider_consume_record'));

export async function consumeRecord(db: DB, projectId: string, model: string, id: string): Promise<void> {
  await consumeRecordStatement(db).execute({ projectId, model, idHash: idHash(id) });
}

export async function destroyRecord(db: DB, projectId: string, model: string, id: string): Promise<void> {
  await db.delete(r).where(and(eq(r.projectId, projectId), eq(r.model, model), eq(r.idHash, idHash(id))));
}

export async function revokeGrant(db: DB, projectId: string, grantId: string): Promise<void> {
  await db.delete(r).where(and(eq(r.projectId, projectId), eq(r.grantId, grantId)));
}

/** The grants and tokens of one user for one client (a consent withdrawn): removed. */
export async function revokeUserClient(db: DB, projectId: string, accountId: string, clientId: string): Promise<void> {
  await db.delete(r).where(and(eq(r.projectId, projectId), eq(r.accountId, accountId), eq(r.clientId, clientId)));
}

/** Housekeeping: records past their expiry, every project. */
export async function deleteExpiredRecords(db: DB, before: Date): Promise<number> {
  const rows = await db.delete(r).where(lt(r.expiresAt, before)).returning({ model: r.model });
  return rows.length;
}

// ---- Signing keys

const KEY_PURPOSE = 'oauth-provider-key';

export interface ProviderKey { kid: string; alg: string; privateJwk: Record<string, unknown> }

/** The project's keys; on its first use, those `fresh` makes are stored first (concurrent first uses agree). */
export async function ensureKeys(db: DB, projectId: string, fresh: () => Promise<ProviderKey[]>): Promise<ProviderKey[]> {
  const read = async () => (await db.select().from(k).where(eq(k.projectId, projectId)).orderBy(asc(k.createdAt), asc(k.alg)))
    .map((row) => ({ kid: row.kid, alg: row.alg, privateJwk: JSON.parse(openSecret(KEY_PURPOSE, row.privateJwkSealed)) as Record<string, unknown> }));
  const stored = await read();
  if (stored.length > 0) return stored;
  const missing = await fresh();
  await db.insert(k).values(missing.map((key) => ({
    projectId, kid: key.kid, alg: key.alg, privateJwkSealed: sealSecret(KEY_PURPOSE, JSON.stringify(key.privateJwk)),
  }))).onConflictDoNothing();
  return read();
}

/** After a rotation of the server secret: each key sealed under an older secret, sealed again under the current one. */
export async function resealKeys(db: DB): Promise<number> {
  const rows = await db.select({ projectId: k.projectId, kid: k.kid, sealed: k.privateJwkSealed }).from(k);
  let rewritten = 0;
  for (const row of rows) {
    if (!needsReseal(row.sealed)) continue;
    const next = sealSecret(KEY_PURPOSE, openSecret(KEY_PURPOSE, row.sealed));
    rewritten += (await db.update(k).set({ privateJwkSealed: next })
      .where(and(eq(k.projectId, row.projectId), eq(k.kid, row.kid), eq(k.privateJwkSealed, row.sealed))).returning({ kid: k.kid })).length;
  }
  return rewritten;
}

// ---- Consents

export async function findConsent(db: DB, projectId: string, userId: string, clientId: string): Promise<ProviderConsentRow | null> {
  const [row] = await db.select().from(g).where(and(eq(g.projectId, projectId), eq(g.userId, userId), eq(g.clientId, clientId))).limit(1);
  return row ?? null;
}

export async function saveConsent(db: DB, v: { projectId: string; userId: string; clientId: string; scopes: string[] }): Promise<void> {
  await db.insert(g).values(v).onConflictDoUpdate({ target: [g.projectId, g.userId, g.clientId], set: { scopes: v.scopes, updatedAt: new Date() } });
}

export interface ConnectedApp { client: ProviderClientRow; scopes: string[]; grantedAt: Date }

/** The clients a user consented to, with what they may ask for, oldest consent first. */
export async function listConnectedApps(db: DB, projectId: string, userId: string): Promise<ConnectedApp[]> {
  const rows = await db.select({ client: c, scopes: g.scopes, grantedAt: g.createdAt }).from(g)
    .innerJoin(c, and(eq(c.projectId, g.projectId), eq(c.clientId, g.clientId)))
    .where(and(eq(g.projectId, projectId), eq(g.userId, userId))).orderBy(asc(g.createdAt), asc(g.clientId));
  return rows;
}

/** Withdraws a consent: the consent and every grant and token of that user for that client. False: there was none. */
export async function revokeConnectedApp(db: DB, projectId: string, userId: string, clientId: string): Promise<boolean> {
  const gone = await db.delete(g).where(and(eq(g.projectId, projectId), eq(g.userId, userId), eq(g.clientId, clientId))).returning({ id: g.clientId });
  await revokeUserClient(db, projectId, userId, clientId);
  return gone.length > 0;
}

// ---- A client's activity (the console's OAuth apps screen)

/** The provider's models that are tokens a client holds. */
const TOKEN_MODELS = ['AccessToken', 'ClientCredentials', 'RefreshToken'];

export interface ClientActivity { consents: number; liveTokens: number; lastTokenAt: Date | null }

export async function clientActivity(db: DB, projectId: string, clientId: string): Promise<ClientActivity> {
  const [consents] = await db.select({ n: sql<number>`count(*)::int` }).from(g).where(and(eq(g.projectId, projectId), eq(g.clientId, clientId)));
  const [tokens] = await db.select({
    live: sql<number>`(count(*) filter (where ${r.consumedAt} is null and ${live()}))::int`,
    last: sql<Date | null>`max(${r.createdAt})`.mapWith(r.createdAt),
  }).from(r).where(and(eq(r.projectId, projectId), eq(r.clientId, clientId), inArray(r.model, TOKEN_MODELS)));
  return { consents: consents?.n ?? 0, liveTokens: tokens?.live ?? 0, lastTokenAt: tokens?.last ?? null };
}

// ---- Settings

const s = schema.oauthProviderSettings;
export type ProviderSettingsRow = typeof s.$inferSelect;

export async function findSettings(db: DB, projectId: string): Promise<ProviderSettingsRow | null> {
  const [row] = await db.select().from(s).where(eq(s.projectId, projectId)).limit(1);
  return row ?? null;
}

export interface SettingsPatch {
  dynamicClientRegistration?: boolean; resources?: string[]; scopes?: ProviderSettingsRow['scopes']; claims?: ProviderSettingsRow['claims'];
}

export async function saveSettings(db: DB, projectId: string, patch: SettingsPatch): Promise<ProviderSettingsRow> {
  const set = { ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)), updatedAt: new Date() };
  const [row] = await db.insert(s).values({ projectId, ...set }).onConflictDoUpdate({ target: s.projectId, set }).returning();
  return row!;
}
