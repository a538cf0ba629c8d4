// Revocation at once (ASVS 3.3.1, 3.3.3): an access token is a signed JWT checked without the database, so a
// session ended before its time (sign-out, revocation, password reset or change, user deletion) would keep
// working until its tokens expire. Every instance keeps the ids of recently revoked sessions in memory and refuses
// their tokens: one Map lookup per request, no database read.
//
// How an instance learns of a revocation: a trigger on `sessions` records every delete of a live session in
// `revoked_sessions` and NOTIFYs `gatehouse_invalidate` with `session-revoked:<id>` in the same transaction
// (drizzle/0010_revoked_sessions_trigger.sql). Other instances get the notification (services.ts); the instance
// that revoked reads the new rows before answering (`sync`), so its next request already sees them; at start, and
// after the listening connection reconnects (notifications may have been missed), the whole window is loaded.
// An id is kept for the access-token lifetime after the revocation (tokens minted before it expire by then).
import type { DB } from '../db';
import { pruneRevoked, revokedSince } from '../repo/revoked-sessions';

/** Clock differences between instances and the database (and a token minted just before the revocation). */
const MARGIN_MS = 60_000;

export class RevokedSessions {
  private until = new Map<string, number>();
  /** Database time of the last sync (rows revoked since then, less a margin, are read by the next one). */
  private syncedTo: Date | null = null;
  private pruneTimer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly db: DB, private readonly tokenLifetimeSeconds: number) {}

  private get keepMs() { return this.tokenLifetimeSeconds * 1000 + MARGIN_MS; }

  /** Is this session revoked (so its access tokens are refused)? */
  has(sessionId: string): boolean {
    const until = this.until.get(sessionId);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.until.delete(sessionId);
    return false;
  }

  /** Records a revocation announced by another instance. */
  add(sessionId: string, revokedAtMs = Date.now()) {
    this.until.set(sessionId, revokedAtMs + this.keepMs);
  }

  /**
   * Reads revocations from the database: all of the last token lifetime (`full`, at start and after a reconnect),
   * or those since the last sync (after this instance revoked sessions).
   */
  async sync(full = false): Promise<void> {
    const since = !full && this.syncedTo ? new Date(this.syncedTo.getTime() - MARGIN_MS) : null;
    const rows = await revokedSince(this.db, since, this.keepMs / 1000);
    for (const row of rows) this.add(row.id, new Date(row.at).getTime());
    if (rows[0]) this.syncedTo = new Date(rows[0].now);
    else if (!this.syncedTo || full) this.syncedTo = new Date(Date.now() - MARGIN_MS);
  }

  /** Loads the window and starts pruning (memory every minute; old rows, which no instance needs, hourly). */
  async start(): Promise<void> {
    await this.sync(true);
    let ticks = 0;
    this.pruneTimer = setInterval(() => {
      const now = Date.now();
      for (const [id, until] of this.until) if (until <= now) this.until.delete(id);
      if (++ticks % 60 === 0) {
        pruneRevoked(this.db, (this.keepMs + 3_600_000) / 1000)
          .catch((err) => console.error('Failed to prune revoked sessions:', err));
      }
    }, 60_000);
    this.pruneTimer.unref?.();
  }

  stop() { clearInterval(this.pruneTimer); }
}
