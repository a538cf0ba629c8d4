// The users CSV export (GET /internal/users/export.csv): every user matching the list's filters and search, in
// sign-up order, as CSV text produced a page at a time while the reader takes it. Nothing waits for the whole
// list: 100,000 users cost one page of rows in memory, however slowly the owner's connection reads.
import { USER_EXPORT_COLUMNS } from '@gatehouse/shared/schemas/users';
import type { Services } from '../services';
import { exportPage, type ExportOptions, type ExportPosition, type ExportRow } from '../repo/user-export';
import { csvLine } from './csv';

export const EXPORT_PAGE_ROWS = 1000;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function exportLine(r: ExportRow): string {
  return csvLine([r.id, r.primary_email, r.primary_email_verified ?? false, r.display_name, r.has_password, r.has_mfa, iso(r.created_at), iso(r.last_active_at)]);
}

export interface UserExport extends ExportOptions { projectId: string; pageRows?: number }

/** The CSV: the header line, then one chunk per page of users. */
export async function* exportUsersCsv(services: Pick<Services, 'db' | 'activity'>, input: UserExport): AsyncGenerator<string> {
  // Sign-ins of the last second are still in memory (auth/activity.ts): written first, so "signed in within N days"
  // sees them as the list does.
  if (input.signedInWithinDays !== undefined) await services.activity.flush();
  const { projectId, pageRows = EXPORT_PAGE_ROWS, ...options } = input;
  yield csvLine(USER_EXPORT_COLUMNS);
  let after: ExportPosition | null = null;
  for (;;) {
    const page: { rows: ExportRow[]; last: ExportPosition | null } = await exportPage(services.db, projectId, options, after, pageRows);
    if (page.rows.length > 0) yield page.rows.map(exportLine).join('');
    if (page.rows.length < pageRows || !page.last) return;
    after = page.last;
  }
}
