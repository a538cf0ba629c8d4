// The audit entries of the project's users (sign-ins, MFA, passwords, sessions, user and team keys; issue 26), queued
// and written in batches: a sign-in adds no round trip to the two its password route may take (issue 16 §3,
// service/test/signup-statements.test.ts), and a burst of failed sign-ins costs one insert per batch. Owner-plane
// entries are still written before their answer (http/route-events.ts) and take the queue along, so that on one
// instance ids keep the order things happened in; a read of the log writes the queue first (projects/audit-log.ts).
// An entry keeps the time it happened. Entries queued when the process dies are lost; the security-event log
// (security-events.ts) has each one already.
import * as auditLog from '../repo/audit-log';
import type { DB } from '../db';
import { requestScope } from './security-events';

/** The longest an entry waits in the queue, and the queue length that writes at once. */
const DELAY_MS = 200;
const BATCH = 500;

export class AuditTrail {
  private pending: auditLog.AuditRecord[] = [];
  private timer?: ReturnType<typeof setTimeout>;

  constructor(private readonly db: DB) {}

  /** Queues entries; written within DELAY_MS. */
  add(records: auditLog.AuditRecord[]): void {
    if (!records.length) return;
    this.pending.push(...records.map((r) => ({ ...r, createdAt: r.createdAt ?? new Date() })));
    if (this.pending.length >= BATCH) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), DELAY_MS);
      this.timer.unref?.();
    }
  }

  /** Writes `records` now, after every queued entry (one statement). */
  async write(records: auditLog.AuditRecord[]): Promise<void> {
    await auditLog.append(this.db, [...this.take(), ...records]);
  }

  /** Writes the queue. A failure is logged (the entries are in the security-event log) rather than thrown. */
  async flush(): Promise<void> {
    const batch = this.take();
    if (batch.length) await auditLog.append(this.db, batch).catch((err) => console.error(`Failed to write ${batch.length} audit entries:`, err));
  }

  async stop(): Promise<void> {
    await this.flush();
  }

  private take(): auditLog.AuditRecord[] {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    return this.pending.splice(0);
  }
}

/** An entry of the current request (its IP and id) for `projectId`, acted by a signed-in user or the public client. */
export function userPlaneEntry(projectId: string, e: Pick<auditLog.AuditRecord, 'event' | 'target' | 'details'> & { subjectUserId: string | null; actorUserId?: string | null; actorKind?: auditLog.ActorKind }): auditLog.AuditRecord {
  const scope = requestScope();
  return {
    projectId, event: e.event, actorKind: e.actorKind ?? 'client', actorUserId: e.actorUserId ?? null, ip: scope?.ip ?? null,
    requestId: scope?.requestId ?? null, target: e.target, subjectUserId: e.subjectUserId, details: e.details,
  };
}
