// Project events (user.created, team.updated, ...) for webhooks, emitted by the use cases that make the change (never
// by repo/ or routes/), inside the change's transaction, so an event exists exactly when its change committed.
//
// The path of an event: `services.events.emit(tx, ...)` writes one webhook_deliveries row per enabled endpoint of
// the project subscribed to the type (repo/webhooks.ts `enqueueDeliveries`), then wakes the webhook workers
// (webhooks/worker.ts), which claim the rows and POST them. Nothing else is installed at start.
import type { DB } from './db';
import * as webhooks from './repo/webhooks';
import type { Wakers } from './worker-loop';

export type EventType =
  | 'user.created' | 'user.updated' | 'user.deleted'
  | 'team.created' | 'team.updated' | 'team.deleted'
  | 'team_membership.created' | 'team_membership.deleted'
  | 'team_permission.created' | 'team_permission.deleted'
  | 'project_permission.created' | 'project_permission.deleted';

export class Events {
  /** `webhookWorkers`: the webhook workers of this process (Services.webhookWorkers). */
  constructor(private readonly webhookWorkers: Wakers) {}

  async emit(tx: DB, projectId: string, type: EventType, data: unknown): Promise<void> {
    this.queued(await webhooks.enqueueDeliveries(tx, projectId, type, payloadOf(type, data)));
  }

  /**
   * `count` deliveries were queued by the change's own statement (users/create.ts: a plain new user is one statement,
   * its event built with `payloadOf`).
   */
  queued(count: number): void {
    // The rows become visible when the caller commits: look shortly after rather than waiting for the next poll.
    if (count > 0) {
      setTimeout(() => this.webhookWorkers.wake(), 20);
      setTimeout(() => this.webhookWorkers.wake(), 250);
    }
  }
}

/** What a webhook delivery of an event carries. */
export const payloadOf = (type: EventType, data: unknown) => ({ type, data });
