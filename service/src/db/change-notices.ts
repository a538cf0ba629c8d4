// When a value a ReadCache keeps on PostgreSQL stops being true (issue 31). Other instances write to the same
// database, so the write counts of the embedded database (db/read-cache.ts) cannot say it; the database says it
// instead: the triggers of drizzle/0026 send the rows a committed statement changed (`user:<project> <id>@<xid>`,
// `team:<id>@<xid>`, `session:<id>@<xid>`, `users:*@<xid>` for "too many to name") on the channel every instance
// listens on. Three rules keep a kept value from being older than it may be:
// - while this instance's listening connection is down (or not yet up), nothing is kept: every read goes to the
//   database, and on reconnection everything kept before is dropped (notices may have been missed);
// - a load that overlapped a notice for its key (or for everything) is not kept: it may have read the old row;
// - the instance that made a change learns its keys at once from its own statement (a NOTICE the trigger raises on
//   the service's own connections, before the statement's answer) and reads those keys from the database until the
//   change's NOTIFY comes back to it: a read after its own write's answer always sees that write.
// Another instance sees a change when its NOTIFY arrives (a few milliseconds after the commit).

/** The NOTICE the triggers raise on connections that set `gatehouse.change_notices` (db/index.ts). */
export const CHANGE_NOTICE_MESSAGE = 'gatehouse: kept rows changed';
/** The kinds of payload on the invalidation channel that are change notices (`users:*`: everything kept). */
const KINDS = new Set(['user', 'team', 'session', 'users']);
const EVERYTHING = 'users:*';
/** How long a key this instance changed is read from the database without its NOTIFY (a rolled-back change sends none). */
const OWN_CHANGE_WAIT_MS = 60_000;
/** Notices remembered for overlap checks; past this, every load in flight is treated as overlapped. */
const MAX_CHANGED_REMEMBERED = 10_000;

/**
 * What a kept value depends on, as notice ids (`user:<project> <id>`, `team:<id>`, `session:<id>`): a notice for one
 * of them drops it.
 */
export type NoticeIds = readonly string[];

export interface KeptEntries {
  /** Drops the entries depending on `id` (undefined: every entry). */
  forget(id?: string): void;
}

/** `user:<key>@<xid>` → its notice id and transaction; undefined for any other payload of the channel. */
export function parseChangeNotice(payload: string): { id: string; xid: string } | undefined {
  const colon = payload.indexOf(':');
  const at = payload.lastIndexOf('@');
  if (colon < 0 || at < colon || !KINDS.has(payload.slice(0, colon))) return undefined;
  return { id: payload.slice(0, at), xid: payload.slice(at + 1) };
}

/** The change notices of one PostgreSQL handle, and the caches keeping values by them. */
export class ChangeNotices {
  /** True while the listening connection is up (set by `connected`, cleared by `lost`). */
  private listening = false;
  /** Moves at every change notice; a load remembers it when it starts. */
  private clock = 0;
  /** Moves when everything is dropped: a load begun before is not kept. */
  private allChangedAt = 0;
  private readonly changedAt = new Map<string, number>();
  /** Notice ids this instance changed, by the transactions whose NOTIFY has not come back yet (xid → when noticed). */
  private readonly ownChanges = new Map<string, Map<string, number>>();
  private readonly caches: KeptEntries[] = [];

  /** A cache that keeps values by these notices; its entries are dropped as notices say. */
  register(cache: KeptEntries): void {
    this.caches.push(cache);
  }

  /** The listening connection is (again) up: what was kept before may have missed notices. */
  connected(): void {
    this.dropAll();
    this.listening = true;
  }

  /** The listening connection is down: nothing is kept until it is up again. */
  lost(): void {
    this.listening = false;
    this.dropAll();
  }

  /** A payload of the invalidation channel; false when it is no change notice. */
  received(payload: string): boolean {
    const notice = parseChangeNotice(payload);
    if (!notice) return false;
    this.apply(notice.id);
    const own = this.ownChanges.get(notice.id);
    if (own) {
      own.delete(notice.xid);
      if (own.size === 0) this.ownChanges.delete(notice.id);
    }
    return true;
  }

  /** The NOTICE of this instance's own statement (its detail: one payload a line). */
  changedHere(detail: string): void {
    const now = Date.now();
    for (const payload of detail.split('\n')) {
      const notice = parseChangeNotice(payload);
      if (!notice) continue;
      let own = this.ownChanges.get(notice.id);
      if (!own) this.ownChanges.set(notice.id, (own = new Map()));
      own.set(notice.xid, now);
      this.apply(notice.id);
    }
  }

  /** A load is starting: the clock to give `mayKeep`, or undefined when nothing may be kept now. */
  beginLoad(): number | undefined {
    return this.listening ? this.clock : undefined;
  }

  /**
   * Whether a value loaded since `begun` (from `beginLoad`) may be kept: no notice for what it depends on since, and
   * no change of this instance's to it still waiting for its NOTIFY.
   */
  mayKeep(begun: number, dependsOn: NoticeIds): boolean {
    if (!this.listening || this.allChangedAt > begun) return false;
    if (dependsOn.some((id) => (this.changedAt.get(id) ?? -1) > begun)) return false;
    return this.mayServe(dependsOn);
  }

  /** Whether a kept value may be served now: listening, and not changed here with the NOTIFY still to come. */
  mayServe(dependsOn: NoticeIds): boolean {
    if (!this.listening) return false;
    if (this.ownChanges.size === 0) return true;
    return !this.changedHereRecently(EVERYTHING) && !dependsOn.some((id) => this.changedHereRecently(id));
  }

  private changedHereRecently(id: string): boolean {
    const own = this.ownChanges.get(id);
    if (!own) return false;
    const now = Date.now();
    for (const [xid, at] of own) if (now - at > OWN_CHANGE_WAIT_MS) own.delete(xid);
    if (own.size === 0) { this.ownChanges.delete(id); return false; }
    return true;
  }

  private apply(id: string): void {
    this.clock++;
    if (id === EVERYTHING) { this.dropAll(); return; }
    if (this.changedAt.size >= MAX_CHANGED_REMEMBERED) {
      this.changedAt.clear();
      this.allChangedAt = this.clock;
    }
    this.changedAt.set(id, this.clock);
    for (const cache of this.caches) cache.forget(id);
  }

  private dropAll(): void {
    this.clock++;
    this.allChangedAt = this.clock;
    this.changedAt.clear();
    for (const cache of this.caches) cache.forget();
  }
}
