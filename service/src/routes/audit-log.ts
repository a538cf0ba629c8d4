// GET /internal/audit-log: a project's audit log (admin; Gatehouse's own API; projects/audit-log.ts): owner-plane
// actions and the security events of the project's users, filtered by kind, user and time. The internal project's
// log also holds the creation and deletion of every project (the operator's view).
import { AuditLogPage, AuditLogQuery } from '@gatehouse/shared/schemas/audit-log';
import { route } from '../http/route';
import { listAuditLog } from '../projects/audit-log';
import { auditLogEntryView } from '../presenters/audit-log';

const DEFAULT_PAGE = 50;

export const auditLogRoutes = [
  route({
    method: 'GET', path: '/internal/audit-log', summary: "List the project's audit log, newest first, filtered by event kind, user, team and time", tags: ['Audit log'],
    access: ['admin'], query: AuditLogQuery, response: AuditLogPage,
    async handler({ services, auth, query }) {
      const { entries, nextCursor } = await listAuditLog(services, {
        projectId: auth.project.id, cursor: query.cursor, limit: query.limit ?? DEFAULT_PAGE,
        event: query.event, userId: query.user_id, teamId: query.team_id, sinceMillis: query.since_millis, untilMillis: query.until_millis,
      });
      return { items: entries.map(auditLogEntryView), is_paginated: true as const, pagination: { next_cursor: nextCursor } };
    },
  }),
];
