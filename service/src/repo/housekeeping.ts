// Housekeeping deletes (housekeeping.ts runs them): rows nobody can use any more, one small batch at a time.
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DB } from '../db';

export type HousekeepingTable =
  | 'verification_codes' | 'oauth_states' | 'authorization_codes' | 'cli_auth_attempts'
  | 'rate_limits' | 'sessions' | 'webhook_deliveries' | 'email_attempts' | 'emails' | 'oauth_provider_records';

const DAY = 86_400;

/** `now` minus `seconds`, as a timestamptz. Without an explicit `now`, the database clock (the one rows are stamped with). */
function before(now: Date | undefined, seconds: number): SQL {
  const t = now ? sql`${now.toISOString()}::timestamptz` : sql`now()`;
  return sql`(${t} - ${seconds}::int * interval '1 second')`;
}

/**
 * Which rows of each table are dead at `now`. Grace periods keep a row a while past its expiry where a late request
 * should still get the precise error (VERIFICATION_CODE_EXPIRED / ALREADY_USED rather than NOT_FOUND).
 */
export function deadRows(now: Date | undefined, rateLimitWindowSeconds: number): Record<HousekeepingTable, SQL> {
  return {
    verification_codes: sql`expires_at < ${before(now, DAY)}`,
    oauth_states: sql`expires_at < ${before(now, 3600)}`,
    authorization_codes: sql`expires_at < ${before(now, 0)}`,
    cli_auth_attempts: sql`expires_at < ${before(now, DAY)}`,
    rate_limits: sql`window_start < ${before(now, rateLimitWindowSeconds)}`,
    // A null expires_at is a session that never expires.
    sessions: sql`expires_at < ${before(now, 0)}`,
    webhook_deliveries: sql`status in ('delivered', 'failed') and created_at < ${before(now, 30 * DAY)}`,
    // The sent-email list shows the newest 100 delivery attempts; older ones go after the same 90 days as the
    // finished mail they belong to (deleting a mail also deletes its attempts, by cascade).
    email_attempts: sql`created_at < ${before(now, 90 * DAY)}`,
    emails: sql`status in ('sent', 'failed') and created_at < ${before(now, 90 * DAY)}`,
    // The projects' OpenID providers' codes, tokens, sessions and interactions past their expiry (reads skip them
    // already); a grant without one lives until it is revoked.
    oauth_provider_records: sql`expires_at < ${before(now, 0)}`,
  };
}

/**
 * Deletes one batch. Rows locked by a request in flight are skipped (next run gets them), and the condition is
 * checked again by the delete itself, so a row updated meanwhile (e.g. a session refreshed) is left alone.
 */
export async function deleteBatch(db: DB, table: HousekeepingTable, where: SQL, batchSize: number): Promise<number> {
  const t = sql.identifier(table);
  const rows = rowsOf<{ n: number }>(await db.execute(sql`
    with gone as (
      delete from ${t} where ${where} and ctid = any(array(
        select ctid from ${t} where ${where} limit ${batchSize} for update skip locked
      )) returning 1
    ) select count(*)::int as n from gone`));
  return Number(rows[0]?.n ?? 0);
}
