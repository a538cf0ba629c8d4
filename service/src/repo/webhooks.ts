// Webhook endpoints (signing secret stored encrypted: it must be usable to sign) and the delivery outbox.
import { and, desc, eq, gte, inArray, lte, ne, sql } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';
import { PreparedSql } from '../db/prepared-sql';

const e = schema.webhookEndpoints;
const d = schema.webhookDeliveries;

export type EndpointRow = typeof e.$inferSelect;
export type DeliveryRow = typeof d.$inferSelect;

export async function listEndpoints(db: DB, projectId: string): Promise<EndpointRow[]> {
  return db.select().from(e).where(eq(e.projectId, projectId)).orderBy(desc(e.createdAt), desc(e.id));
}

export async function findEndpoint(db: DB, projectId: string, id: string): Promise<EndpointRow | null> {
  const [row] = await db.select().from(e).where(and(eq(e.projectId, projectId), eq(e.id, id))).limit(1);
  return row ?? null;
}

export async function insertEndpoint(db: DB, v: { projectId: string; url: string; description: string | null; enabled: boolean; eventTypes: string[] | null; secretEncrypted: string }): Promise<EndpointRow> {
  const [row] = await db.insert(e).values(v).returning();
  return row!;
}

export async function updateEndpoint(db: DB, projectId: string, id: string, patch: { url?: string; description?: string | null; enabled?: boolean; eventTypes?: string[] | null }): Promise<EndpointRow | null> {
  const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  if (Object.keys(set).length === 0) return findEndpoint(db, projectId, id);
  const [row] = await db.update(e).set(set).where(and(eq(e.projectId, projectId), eq(e.id, id))).returning();
  return row ?? null;
}

/** Deleting an endpoint drops its pending deliveries with it (cascade). */
export async function deleteEndpoint(db: DB, projectId: string, id: string): Promise<boolean> {
  const rows = await db.delete(e).where(and(eq(e.projectId, projectId), eq(e.id, id))).returning({ id: e.id });
  return rows.length > 0;
}

/** One pending delivery per enabled endpoint subscribed to `type`, in the caller's transaction. Returns the count. */
// Every user or team change queues its event in the change's transaction (events.ts): prepared, built once.
const enqueueStatement = new PreparedSql('webhook_deliveries_enqueue', () => enqueueDeliveriesSql());

/**
 * The insert of one event's deliveries, with placeholders `projectId`, `type` and `payload` (JSON text); returns their
 * ids. Also the last part of a statement that makes the change itself (repo/user-writes.ts `insertPlainUser`).
 */
export const enqueueDeliveriesSql = () => sql`
  insert into webhook_deliveries (project_id, endpoint_id, event_type, payload)
  select project_id, id, ${sql.placeholder('type')}, ${sql.placeholder('payload')}::text::jsonb from webhook_endpoints
  where project_id = ${sql.placeholder('projectId')} and enabled and (event_types is null or ${sql.placeholder('type')}::text = any(event_types))
  returning id`;

export async function enqueueDeliveries(tx: DB, projectId: string, type: string, payload: unknown): Promise<number> {
  const rows = await enqueueStatement.rows<{ id: string }>(tx, { projectId, type, payload: JSON.stringify(payload) });
  return rows.length;
}

const afterMs = (ms: number) => sql`now() + (${ms}::double precision * interval '1 millisecond')`;

export interface ClaimedDelivery extends DeliveryRow { url: string; secretEncrypted: string; endpointEnabled: boolean }

/**
 * Claims due deliveries for this worker: `FOR UPDATE SKIP LOCKED`, so concurrent workers (in any number of
 * instances) never take the same row; a claimed row is leased until `leaseMs` from now, and a worker that dies
 * leaves it to be claimed again after that. Rows whose lease expired on their last allowed attempt fail.
 */
export async function claimDue(db: DB, o: { batchSize: number; leaseMs: number; maxAttempts: number }): Promise<ClaimedDelivery[]> {
  await db.update(d).set({ status: 'failed', lastError: sql`coalesce(${d.lastError}, 'The worker delivering this event stopped before recording the outcome')` })
    .where(and(eq(d.status, 'sending'), lte(d.nextAttemptAt, sql`now()`), gte(d.attempts, o.maxAttempts)));
  const due = db.select({ id: d.id }).from(d)
    .where(and(inArray(d.status, ['pending', 'sending']), lte(d.nextAttemptAt, sql`now()`)))
    .orderBy(d.nextAttemptAt).limit(o.batchSize).for('update', { skipLocked: true });
  const claimed = await db.update(d)
    .set({ status: 'sending', attempts: sql`${d.attempts} + 1`, nextAttemptAt: afterMs(o.leaseMs) })
    .where(inArray(d.id, due)).returning();
  if (claimed.length === 0) return [];
  const endpoints = await db.select({ id: e.id, url: e.url, secretEncrypted: e.secretEncrypted, enabled: e.enabled }).from(e)
    .where(inArray(e.id, [...new Set(claimed.map((r) => r.endpointId))]));
  const byId = new Map(endpoints.map((x) => [x.id, x]));
  return claimed.flatMap((r) => {
    const ep = byId.get(r.endpointId);
    return ep ? [{ ...r, url: ep.url, secretEncrypted: ep.secretEncrypted, endpointEnabled: ep.enabled }] : [];
  });
}

/** Records an attempt's outcome, fenced on (status, attempts) so a worker whose lease was taken over cannot overwrite it. */
export async function recordOutcome(db: DB, row: DeliveryRow, outcome: ({ delivered: true } | { delivered: false; error: string; retryInMs: number | null }) & { responseStatus?: number | null }) {
  const mine = and(eq(d.id, row.id), eq(d.status, 'sending'), eq(d.attempts, row.attempts));
  const attempt = { lastResponseStatus: outcome.responseStatus ?? null, lastAttemptAt: sql`now()` };
  if (outcome.delivered) {
    await db.update(d).set({ ...attempt, status: 'delivered', deliveredAt: sql`now()`, lastError: null }).where(mine);
  } else if (outcome.retryInMs === null) {
    await db.update(d).set({ ...attempt, status: 'failed', lastError: outcome.error }).where(mine);
  } else {
    await db.update(d).set({ ...attempt, status: 'pending', lastError: outcome.error, nextAttemptAt: afterMs(outcome.retryInMs) }).where(mine);
  }
}

export interface DeliveryFilter { eventType?: string; status?: DeliveryRow['status'] }

export async function listDeliveries(db: DB, projectId: string, endpointId: string, limit = 100, filter: DeliveryFilter = {}): Promise<DeliveryRow[]> {
  const where = and(
    eq(d.projectId, projectId), eq(d.endpointId, endpointId),
    filter.eventType ? eq(d.eventType, filter.eventType) : undefined,
    filter.status ? eq(d.status, filter.status) : undefined,
  );
  return db.select().from(d).where(where).orderBy(desc(d.createdAt), desc(d.id)).limit(limit);
}

export async function findDelivery(db: DB, projectId: string, endpointId: string, id: string): Promise<DeliveryRow | null> {
  const [row] = await db.select().from(d).where(and(eq(d.projectId, projectId), eq(d.endpointId, endpointId), eq(d.id, id))).limit(1);
  return row ?? null;
}

/** A delivery for one endpoint only, due now (a test event ignores the endpoint's event_types filter). */
export async function insertDelivery(db: DB, v: { projectId: string; endpointId: string; eventType: string; payload: unknown }): Promise<DeliveryRow> {
  const [row] = await db.insert(d).values(v).returning();
  return row!;
}

/**
 * Makes a delivery due now (again, if it was delivered or given up). A delivery a worker holds right now is
 * left alone (null): its attempt is under way and will record its own outcome.
 */
export async function makeDueNow(db: DB, projectId: string, endpointId: string, id: string): Promise<DeliveryRow | null> {
  const [row] = await db.update(d).set({ status: 'pending', nextAttemptAt: sql`now()` })
    .where(and(eq(d.projectId, projectId), eq(d.endpointId, endpointId), eq(d.id, id), ne(d.status, 'sending'))).returning();
  return row ?? null;
}
