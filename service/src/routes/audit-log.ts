// GET /internal/audit-log: a project's owner-plane audit log (admin; Gatehouse's own API). Entries are written by
// observability/security-events.ts when an owner-plane action succeeds, and are never changed or deleted. The
// internal project's log also holds the creation and deletion of every project (the operator's view).
import { AuditLogPage, AuditLogQuery } from '@gatehouse/shared/schemas/audit-log';
import { route } from '../http/route';
import * as auditLog from '../repo/audit-log';
import { auditLogEntryView } from '../presenters/audit-log';

const DEFAULT_PAGE = 50;

export const auditLogRoutes = [
  route({
    method: 'GET', path: '/internal/audit-log', summary: "List the project's audit log of owner-plane actions, newest first", tags: ['Audit log'],
    access: ['admin'], query: AuditLogQuery, response: AuditLogPage,
    async handler({ services, auth, query }) {
      const db = services.db;
      const limit = query.limit ?? DEFAULT_PAGE;
      const rows = await auditLog.listForProject(db, auth.project.id, { before: query.cursor ? Number(query.cursor) : undefined, limit: limit + 1 });
      const page = rows.slice(0, limit);
      const next = rows.length > limit ? String(page[page.length - 1]!.id) : null;
      return { items: page.map(auditLogEntryView), is_paginated: true as const, pagination: { next_cursor: next } };
    },
  }),
];
