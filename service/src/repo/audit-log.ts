// The audit log: append-only. This module only inserts and reads (a database trigger refuses UPDATE and DELETE,
// drizzle/0014), and every read is scoped to one project.
import { and, desc, eq, gte, inArray, lt, or, sql } from 'drizzle-orm';
import type { AUDIT_ACTOR_KINDS, AuditEvent } from '@gatehouse/shared/schemas/audit-log';
import type { DB } from '../db';
import { schema } from '../db';

const a = schema.auditLog;
export type AuditRow = typeof a.$inferSelect;
export type ActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

export interface AuditRecord {
  projectId: string;
  event: AuditEvent;
  actorKind: ActorKind;
  actorUserId: string | null;
  ip: string | null;
  requestId: string | null;
  target: string | null;
  /** The project user the entry concerns, if known. */
  subjectUserId?: string | null;
  details: Record<string, unknown>;
  /** When it happened (an entry written from a queue is inserted a moment later); default: now. */
  createdAt?: Date;
}

export async function append(db: DB, records: AuditRecord[]): Promise<void> {
  if (records.length) await db.insert(a).values(records);
}

export interface AuditFilter {
  /** Only these events (none given: every event). */
  events?: AuditEvent[];
  /** Entries whose actor or subject is this user. */
  userId?: string;
  /** Entries whose details name this team (`team_id`). */
  teamId?: string;
  since?: Date;
  until?: Date;
}

/** A project's entries, newest first; `before` is the id of the last entry of the previous page. */
export async function listForProject(db: DB, projectId: string, o: { before?: number; limit: number } & AuditFilter): Promise<AuditRow[]> {
  return db.select().from(a)
    .where(and(
      eq(a.projectId, projectId),
      o.before === undefined ? undefined : lt(a.id, o.before),
      o.events ? inArray(a.event, o.events) : undefined,
      o.userId ? or(eq(a.subjectUserId, o.userId), eq(a.actorUserId, o.userId)) : undefined,
      o.teamId ? sql`${a.details}->>'team_id' = ${o.teamId}` : undefined,
      o.since ? gte(a.createdAt, o.since) : undefined,
      o.until ? lt(a.createdAt, o.until) : undefined,
    ))
    .orderBy(desc(a.id)).limit(o.limit);
}
