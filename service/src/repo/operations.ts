// Figures for the Prometheus endpoint (observability/metrics.ts), read at each scrape: the email outbox and the
// webhook deliveries by status, across projects, and failed email attempts.
import { sql } from 'drizzle-orm';
import type { DB } from '../db';
import { rowsOf } from '../db';

export async function emailOutboxByStatus(db: DB): Promise<{ status: string; n: number }[]> {
  return rowsOf<{ status: string; n: number | string }>(await db.execute(sql`select status, count(*)::int as n from emails group by status`))
    .map((r) => ({ status: r.status, n: Number(r.n) }));
}

export async function failedEmailAttempts(db: DB): Promise<number> {
  const [r] = rowsOf<{ n: number | string }>(await db.execute(sql`select count(*)::int as n from email_attempts where error is not null`));
  return Number(r?.n ?? 0);
}

export async function webhookDeliveriesByStatus(db: DB): Promise<{ status: string; n: number }[]> {
  return rowsOf<{ status: string; n: number | string }>(await db.execute(sql`select status, count(*)::int as n from webhook_deliveries group by status`))
    .map((r) => ({ status: r.status, n: Number(r.n) }));
}
