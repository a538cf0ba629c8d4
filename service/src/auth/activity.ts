// Session activity ("last used" time and IP, user last-active time, daily activity for metrics) is collected
// in memory when tokens are minted and written in one batch per second, so no request waits on a write.
import type { DB } from '../db';
import { writeActivity, type IpInfo, type NewDeviceSignIn, type SignInDevice } from '../repo/activity';
import { patchKeptLastActive } from '../repo/users';
import { declaredWrite } from '../db/read-cache';

export type { IpInfo } from '../repo/activity';

/** `sessionWritten`: the session row already holds this use (a new session, written with its insert). */
interface Pending { projectId: string; userId: string; at: Date; ipInfo: IpInfo | null; sessionWritten: boolean; device?: SignInDevice }

/**
 * Where a request came from: the client IP the route resolved (GATEHOUSE_TRUST_PROXY applied, http/client-ip.ts:
 * the same address rate limits and logs use) and the request headers (user agent, geo headers).
 */
export interface ClientOrigin {
  ip: string;
  headers: Headers;
  /** Does a proxy of the operator's stand in front (GATEHOUSE_TRUST_PROXY set)? Only then are its geo headers believed. */
  proxyTrusted: boolean;
}

/**
 * IP information is recorded only for browser requests (protocol-auth §2.11). The IP is the resolved client IP;
 * the geo headers a proxy adds (Cloudflare, Vercel) are taken only behind a trusted proxy: without one, any
 * client could write them.
 */
export function ipInfoOf(origin: ClientOrigin): IpInfo | null {
  const { headers, ip } = origin;
  const ua = headers.get('user-agent') ?? '';
  if (!/Mozilla|Chrome|Safari/.test(ua)) return null;
  if (!ip || ip === 'unknown') return null;
  if (!origin.proxyTrusted) {
    return { ip, countryCode: null, regionCode: null, cityName: null, latitude: null, longitude: null, tzIdentifier: null };
  }
  const num = (v: string | null) => (v && Number.isFinite(Number(v)) ? Number(v) : null);
  const city = headers.get('x-vercel-ip-city');
  return {
    ip,
    countryCode: headers.get('cf-ipcountry') ?? headers.get('x-vercel-ip-country'),
    regionCode: headers.get('x-vercel-ip-country-region'),
    cityName: city ? safeDecode(city) : null,
    latitude: num(headers.get('x-vercel-ip-latitude')),
    longitude: num(headers.get('x-vercel-ip-longitude')),
    tzIdentifier: headers.get('x-vercel-ip-timezone'),
  };
}

/** Vercel percent-encodes the city; a malformed value is kept as sent. */
function safeDecode(v: string): string {
  try { return decodeURIComponent(v); } catch { return v; }
}

export class ActivityRecorder {
  private pending = new Map<string, Pending>();
  /** The batch being written: still shown by the reads below until its transaction has committed. */
  private inFlight = new Map<string, Pending>();
  private timer?: ReturnType<typeof setInterval>;
  private flushing?: Promise<void>;

  /** Told of sign-ins from new devices once they are written (services.ts: the notices). */
  onNewDevices?: (signIns: NewDeviceSignIn[]) => Promise<void>;

  constructor(private readonly db: DB, private readonly intervalMs = 1000) {}

  start() { this.timer = setInterval(() => void this.flush(), this.intervalMs); }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  /** `o.sessionWritten`: the session's row was inserted with this use (`o.at`), only the user's activity is left. */
  record(sessionId: string, projectId: string, userId: string, ipInfo: IpInfo | null, o: { at?: Date; sessionWritten?: boolean; device?: SignInDevice } = {}) {
    this.pending.set(sessionId, { projectId, userId, at: o.at ?? new Date(), ipInfo, sessionWritten: o.sessionWritten ?? false, device: o.device ?? this.pending.get(sessionId)?.device });
  }

  /** Activity not yet written, so reads right after a sign-in already show it. */
  pendingFor(sessionId: string): { at: Date; ipInfo: IpInfo | null } | undefined {
    return this.pending.get(sessionId) ?? this.inFlight.get(sessionId);
  }

  pendingForUser(userId: string): Date | undefined {
    let latest: Date | undefined;
    for (const map of [this.inFlight, this.pending]) {
      for (const p of map.values()) if (p.userId === userId && (!latest || p.at > latest)) latest = p.at;
    }
    return latest;
  }

  async flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.pending.size === 0) return;
    const batch = [...this.pending.entries()];
    // Reads during the write still see the batch (a session listed mid-flush showed neither its pending nor its
    // stored IP info).
    this.inFlight = this.pending;
    this.pending = new Map();
    this.flushing = this.write(batch).catch((err) => {
      console.error('Failed to record session activity (kept for the next flush):', err);
      // Put the batch back, unless newer activity of the same session arrived meanwhile.
      for (const [id, p] of batch) if (!this.pending.has(id)) this.pending.set(id, p);
    }).finally(() => { this.inFlight = new Map(); this.flushing = undefined; });
    return this.flushing;
  }

  private write(batch: [string, Pending][]) {
    const entries = batch.map(([sessionId, p]) => ({ sessionId, ...p }));
    // Declared (db/read-cache.ts): kept user rows get the new last_active_at instead of all being read again.
    return declaredWrite(async () => {
      const newDevices = await writeActivity(this.db, entries);
      patchKeptLastActive(this.db, entries);
      return newDevices;
    }).then(async (newDevices) => {
      // Outside the declared write (the notices' mail is an ordinary write). Best effort: a failure is logged, never
      // retried as activity (that is written).
      if (newDevices.length && this.onNewDevices) {
        await this.onNewDevices(newDevices).catch((err) => console.error('Failed to queue the new-device sign-in notices:', err));
      }
    });
  }
}
