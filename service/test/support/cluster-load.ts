// The cluster test's mixed load (and the bench's): virtual clients go through the proxy, each in a loop of a user's
// life: sign-up, password sign-in, refresh, profile change, sign-out of one session (a revocation), sign-in with a
// code read from the mail, a team and an invitation to it (mail); one admin client changes the project's config.
// What is written is recorded only when it was acknowledged (a 2xx answer), for the checks afterwards. A request that
// failed with a connection error (or the proxy's 502, or a 503 while the database is down) is retried only where
// that is safe: reads, refreshes and writes that set an absolute value; the others count as not acknowledged.
// With `consistency`, each revocation and config change is followed by polling every instance directly (not through
// the proxy) until it shows the change, timed from the write's answer.
import { Api, uniqueEmail, type ApiResponse } from './service';
import { extractOtp, type SmtpFixture } from './smtp';
import type { TestProject } from './projects';

const CALLBACK = 'http://localhost:12345/callback';
const PASSWORD = 'cluster-password-1';
/** How long a consistency poll waits before giving up (the assertion is 1 s: this leaves room to see how late). */
const POLL_LIMIT_MS = 5_000;

export interface AckedUser { id: string; email: string; displayName: string; attempted: string[] }
/**
 * Per instance: ms from the write's answer to the end of its first consistent read; 'down' if the instance refused
 * the connection. `seenFrom`: when that read began (the instance was consistent somewhere between the two).
 */
export type Seen = (number | 'down' | 'never')[];
export interface Revocation { userId: string; accessToken: string; answeredAt: number; seen: Seen; seenFrom: number[] }
export interface ConfigChange { displayName: string; answeredAt: number; seen: Seen; seenFrom: number[] }

export interface LoadRecord {
  users: Map<string, AckedUser>;
  /** Sessions acknowledged by a sign-in and never signed out: their refresh tokens must keep working. */
  liveSessions: { userId: string; refreshToken: string }[];
  revocations: Revocation[];
  configChanges: ConfigChange[];
  teams: { id: string; creatorId: string }[];
  invitations: { teamId: string; email: string }[];
  /** Emails a sign-in code was sent to (acknowledged). */
  codesSentTo: string[];
  /** Per operation: acknowledged, failed (answer or connection error), retried. */
  ops: Record<string, { ok: number; failed: number; retried: number }>;
  /** Unexpected answers (a 4xx or 500 the load did not ask for), with what was asked. */
  surprises: string[];
  /** Times (ms since epoch) of acknowledged requests, for throughput and recovery. */
  acks: number[];
  /** Sign-in code mails that had not come within a minute (checked again once the outbox is drained). */
  lateCodeMails: number;
}

export function newLoadRecord(): LoadRecord {
  return { users: new Map(), liveSessions: [], revocations: [], configChanges: [], teams: [], invitations: [], codesSentTo: [], ops: {}, surprises: [], acks: [], lateCodeMails: 0 };
}

export interface LoadOptions {
  project: TestProject;
  /** The proxy's URL. */
  url: string;
  /** Every instance's URL (for the consistency polls). */
  instanceUrls: readonly string[];
  mailbox: SmtpFixture;
  clients: number;
  durationMs: number;
  consistency: boolean;
  /** Pause between two config changes of the admin client. */
  configEveryMs?: number;
  /** Ends the load before `durationMs` once it says so. */
  stopWhen?: () => boolean;
}

const isTransient = (r: ApiResponse | null) => r === null || r.status === 502 || r.status === 503;

export async function runMixedLoad(o: LoadOptions, rec: LoadRecord): Promise<void> {
  const at = (api: Api) => new Api(o.url, api.headers);
  const client = at(o.project.client);
  const server = at(o.project.server);
  const admin = at(o.project.admin);
  const endsAt = Date.now() + o.durationMs;
  const running = () => Date.now() < endsAt && !o.stopWhen?.();

  /** One request; `safe`: retried on connection errors and 502/503 (for up to 20 s). Null: not acknowledged. */
  async function call(op: string, safe: boolean, fn: () => Promise<ApiResponse>, ok = (r: ApiResponse) => r.status >= 200 && r.status < 300): Promise<ApiResponse | null> {
    const stat = (rec.ops[op] ??= { ok: 0, failed: 0, retried: 0 });
    const giveUpAt = Date.now() + 20_000;
    for (;;) {
      let res: ApiResponse | null = null;
      try { res = await fn(); } catch { res = null; }
      if (res && ok(res)) { stat.ok++; rec.acks.push(Date.now()); return res; }
      if (safe && isTransient(res) && Date.now() < giveUpAt) { stat.retried++; await Bun.sleep(100); continue; }
      stat.failed++;
      if (res && !isTransient(res)) rec.surprises.push(`${op} at ${new Date().toISOString()} via instance ${res.headers.get('x-cluster-instance')}: ${res.status} ${res.text.slice(0, 200)}`);
      return null;
    }
  }

  async function userLife(n: number) {
    const email = uniqueEmail(`c${n}`);
    const up = await call('sign-up', false, () => client.post('/auth/password/sign-up', { email, password: PASSWORD }));
    // Not acknowledged (an instance or the database down): a pause, not a tight loop of failures.
    if (!up) { await Bun.sleep(250); return; }
    const user: AckedUser = { id: up.body.user_id, email, displayName: '', attempted: [] };
    rec.users.set(user.id, user);
    let access = up.body.access_token as string;
    const refresh = up.body.refresh_token as string;

    const second = await call('password sign-in', false, () => client.post('/auth/password/sign-in', { email, password: PASSWORD }));
    const refreshed = await call('refresh', true, () => client.post('/auth/sessions/current/refresh', {}, { refreshToken: refresh }));
    if (refreshed) access = refreshed.body.access_token;

    for (const name of [`${n}-a`, `${n}-b`]) {
      user.attempted.push(name);
      const res = await call('profile change', true, () => client.patch('/users/me', { display_name: name }, { accessToken: access }));
      if (res) { user.displayName = name; user.attempted = []; }
    }

    if (second) {
      const token = second.body.access_token as string;
      const out = await call('session revocation', false, () => client.delete('/auth/sessions/current', { accessToken: token }));
      if (out) {
        const r: Revocation = { userId: user.id, accessToken: token, answeredAt: Date.now(), seen: [], seenFrom: [] };
        rec.revocations.push(r);
        if (o.consistency) Object.assign(r, await pollEveryInstance(o, (api) => api.get('/users/me', { accessToken: token }), (res) => res.status === 401));
      }
    }
    rec.liveSessions.push({ userId: user.id, refreshToken: refresh });

    // A sign-in with a code, by a new address (a sign-up by code; the password user's address is not verified, so
    // a code for it is refused as taken).
    const codeEmail = uniqueEmail(`otp${n}`);
    const sent = await call('code send', false, () => client.post('/auth/otp/send-sign-in-code', { email: codeEmail, callback_url: CALLBACK }));
    if (sent) {
      rec.codesSentTo.push(codeEmail);
      const nonce = sent.body.nonce as string;
      const mail = await o.mailbox.waitForMail((m) => m.to.includes(codeEmail) && m.text.includes(nonce), 60_000).catch(() => null);
      const otp = mail && extractOtp(mail);
      // Late only when a worker died (or lost the database) mid-send: the mail waits out the outbox's lease.
      if (!otp) rec.lateCodeMails++;
      else {
        const signedIn = await call('code sign-in', false, () => client.post('/auth/otp/sign-in', { code: otp + nonce }));
        if (signedIn) {
          rec.users.set(signedIn.body.user_id, { id: signedIn.body.user_id, email: codeEmail, displayName: '', attempted: [] });
          rec.liveSessions.push({ userId: signedIn.body.user_id, refreshToken: signedIn.body.refresh_token });
        }
      }
    }

    const team = await call('team creation', false, () => server.post('/teams', { display_name: `Team ${n}`, creator_user_id: user.id }));
    if (team) {
      rec.teams.push({ id: team.body.id, creatorId: user.id });
      const invitee = uniqueEmail(`inv${n}`);
      const inv = await call('team invitation', false, () => server.post('/team-invitations/send-code', { team_id: team.body.id, email: invitee, callback_url: CALLBACK }));
      if (inv) rec.invitations.push({ teamId: team.body.id, email: invitee });
    }
  }

  async function virtualClient(n: number) {
    for (let i = 0; running(); i++) await userLife(n * 100_000 + i);
  }

  async function configChanges() {
    for (let i = 0; running(); i++) {
      const displayName = `Cluster ${i}`;
      const res = await call('config change', true, () => admin.patch('/projects/current', { display_name: displayName, config: { client_team_creation_enabled: i % 2 === 0 } }));
      if (res) {
        const c: ConfigChange = { displayName, answeredAt: Date.now(), seen: [], seenFrom: [] };
        rec.configChanges.push(c);
        if (o.consistency) {
          Object.assign(c, await pollEveryInstance(o, (api) => api.get('/projects/current'), (r) => r.status === 200 && r.body.display_name === displayName));
        }
      }
      await Bun.sleep(o.configEveryMs ?? 1_500);
    }
  }

  await Promise.all([...Array.from({ length: o.clients }, (_, n) => virtualClient(n)), configChanges()]);
}

/** Polls each instance directly until `done`; per instance the ms since now (taken as the write's answer). */
async function pollEveryInstance(o: LoadOptions, read: (api: Api) => Promise<ApiResponse>, done: (r: ApiResponse) => boolean): Promise<{ seen: Seen; seenFrom: number[] }> {
  const answeredAt = Date.now();
  const seenFrom: number[] = [];
  const seen = await Promise.all(o.instanceUrls.map(async (url, i) => {
    const api = new Api(url, o.project.client.headers);
    for (;;) {
      const began = Date.now() - answeredAt;
      let res: ApiResponse | null = null;
      try { res = await read(api); } catch { return 'down' as const; }
      if (done(res)) { seenFrom[i] = began; return Date.now() - answeredAt; }
      if (Date.now() - answeredAt > POLL_LIMIT_MS) return 'never' as const;
      await Bun.sleep(10);
    }
  }));
  return { seen, seenFrom };
}
