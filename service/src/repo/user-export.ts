// The users CSV export's reads: the matching users a page at a time, keyset by (created_at, id), with only the
// columns the export writes. The use case (users/export.ts) asks for the next page as the reader takes rows, so
// an export of any size holds one page in memory.
import { sql } from 'drizzle-orm';
import type { DB } from '../db';
import { rowsOf } from '../db';
import { listConditions, type ListOptions } from './users';

export interface ExportRow {
  id: string;
  primary_email: string | null;
  primary_email_verified: boolean | null;
  display_name: string | null;
  has_password: boolean;
  has_mfa: boolean;
  created_at: Date | string;
  last_active_at: Date | string | null;
}

/** Where the previous page ended: the last row's sign-up time (as the database wrote it) and id. */
export interface ExportPosition { createdAt: string; id: string }

export type ExportOptions = Omit<ListOptions, 'cursor' | 'limit'>;

export async function exportPage(db: DB, projectId: string, o: ExportOptions, after: ExportPosition | null, limit: number): Promise<{ rows: ExportRow[]; last: ExportPosition | null }> {
  const conditions = listConditions(projectId, o);
  const dir = o.desc ? sql`desc` : sql`asc`;
  if (after) conditions.push(o.desc ? sql`(u.created_at, u.id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)` : sql`(u.created_at, u.id) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`);
  // The position is kept as the database's own text of the timestamp: a JavaScript Date would drop its microseconds,
  // and the next page would repeat or skip users who signed up within the same millisecond.
  const rows = rowsOf<ExportRow & { position: string }>(await db.execute(sql`
    select u.id, u.primary_email, u.primary_email_verified, u.display_name, (u.password_hash is not null) as has_password,
      (u.totp_secret is not null) as has_mfa, u.created_at, u.last_active_at, u.created_at::text as position
    from users u where ${sql.join(conditions, sql` and `)} order by u.created_at ${dir}, u.id ${dir} limit ${limit}`));
  const tail = rows.at(-1);
  return { rows, last: tail ? { createdAt: tail.position, id: tail.id } : null };
}
