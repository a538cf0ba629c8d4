// The users CSV export (Gatehouse's own admin/server route): every user the list's filters and search match, streamed
// as CSV (users/csv-export.ts). `userFilter` decodes the filters, which GET /users takes too.
import { UserExportQuery, type UserExportQuery as ExportQuery } from '@gatehouse/shared/schemas/users';
import { route } from '../http/route';
import { HttpResult } from '../http/respond';
import { exportUsersCsv } from '../users/csv-export';
import type { UserFilter } from '../repo/users';

export function userFilter(q: Pick<ExportQuery, 'email_verified' | 'has_password' | 'has_mfa' | 'signed_in_within_days'>): UserFilter {
  return { emailVerified: q.email_verified, hasPassword: q.has_password, hasMfa: q.has_mfa, signedInWithinDays: q.signed_in_within_days };
}

export const userExportRoutes = [
  route({
    method: 'GET', path: '/internal/users/export.csv', summary: '[Gatehouse] Every user matching the filters and search, as CSV, streamed in sign-up order', tags: ['Users'],
    access: ['server', 'admin'], query: UserExportQuery,
    async handler({ services, auth, query }) {
      const chunks = exportUsersCsv(services, { projectId: auth.project.id, desc: query.desc, query: query.query, ...userFilter(query) });
      return HttpResult.stream(chunks, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="users.csv"',
        'cache-control': 'no-store',
      });
    },
  }),
];
