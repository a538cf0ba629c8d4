// Project events (user.created, team.updated, ...) for webhooks. Emitting inside the caller's transaction
// means an event exists exactly when its change was committed.
import type { DB } from './db';

export type EventType =
  | 'user.created' | 'user.updated' | 'user.deleted'
  | 'team.created' | 'team.updated' | 'team.deleted'
  | 'team_membership.created' | 'team_membership.deleted'
  | 'team_permission.created' | 'team_permission.deleted'
  | 'project_permission.created' | 'project_permission.deleted';

type Emitter = (tx: DB, projectId: string, type: EventType, data: unknown) => Promise<void>;
let emitter: Emitter = async () => {};

/** Installed by the webhook module at start. */
export function setEventEmitter(e: Emitter) { emitter = e; }

export function emitEvent(tx: DB, projectId: string, type: EventType, data: unknown): Promise<void> {
  return emitter(tx, projectId, type, data);
}
