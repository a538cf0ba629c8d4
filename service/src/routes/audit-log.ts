// GET /internal/audit-log: a project's owner-plane audit log (admin; Gatehouse's own API; projects/audit-log.ts). The
// internal project's log also holds the creation and deletion of every project (the operator's view).
import { AuditLogPage, AuditLogQuery } from '@gatehouse/shared/schemas/audit-log';
import { route } from '../http/route';
import { listAuditLog } from '../projects/audit-log';
import { auditLogEntryView } from '../presenters/audit-log';

const DEFAULT_PAGE = 50;

export const auditLogRoutes = [
  route({
    method: 'GET', path: '/internal/audit-log', summary: "List the project's audit log of owner-plane actions, newest first", tags: ['Audit log'],
    access: ['admin'], query: AuditLogQuery, response: AuditLogPage,
    async handler({ services, auth, query }) {
      const { entries, nextCursor } = await listAuditLog(services, { projectId: auth.project.id, cursor: query.cursor, limit: query.limit ?? DEFAULT_PAGE });
      return { items: entries.map(auditLogEntryView), is_paginated: true as const, pagination: { next_cursor: nextCursor } };
    },
  }),
];
