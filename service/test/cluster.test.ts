// Own CI step: takes minutes; `npm test` leaves it out when it runs a directory, .ci/run runs it by itself.
// A cluster, proven (issue 29): three instances on one PostgreSQL behind a round-robin proxy on loopback take a mixed
// load for a minute (support/cluster-load.ts), with mail to a real SMTP server and webhooks to a real receiver.
// Mid-run one instance is killed with SIGKILL and started again, and PostgreSQL is restarted once. Afterwards:
// no acknowledged write lost (in the database and through every instance's API); every revoked session refused by
// every instance within a second of the revocation's answer; every config change seen by every instance within a
// second; every mail (by Message-ID) and every webhook (by webhook-id) delivered exactly once, a second time only
// for a send in flight when its worker died or lost the database (delivery is at least once: email/outbox.ts);
// a rate limit of N per window holds over the three instances.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import postgres from 'postgres';
import { Api, uniqueEmail, type RunningService } from './support/service';
import { newProject, type TestProject } from './support/projects';
import { startCluster, type Cluster } from './support/cluster';
import { newLoadRecord, runMixedLoad, type LoadRecord, type Seen } from './support/cluster-load';

setDefaultTimeout(600_000);
const LOAD_MS = Number(process.env.GATEHOUSE_CLUSTER_LOAD_MS ?? 60_000);
const CLIENTS = Number(process.env.GATEHOUSE_CLUSTER_CLIENTS ?? 4);
const CODE_LIMIT = 3;
const CALLBACK = 'http://localhost:12345/callback';
// Generous limits for the load (it comes from one address, the proxy's); a small one per email for the check.
const RATE_LIMITS = [
  'sign_in_ip=1000000/600', 'sign_in_account=1000/600', 'sign_up_ip=1000000/3600', 'code_send_ip=1000000/600',
  'code_attempt_ip=1000000/600', `code_send_email=${CODE_LIMIT}/120`,
].join(',');

let cluster: Cluster;
let p: TestProject;
let sql: postgres.Sql;

beforeAll(async () => {
  cluster = await startCluster({ instances: 3, rateLimits: RATE_LIMITS });
  sql = postgres(cluster.databaseUrl, { max: 2, onnotice: () => {} });
  p = await newProject({ url: cluster.proxy.url } as RunningService, { displayName: 'Cluster', config: { magic_link_enabled: true } });
  const ep = await p.admin.post('/webhooks/endpoints', { url: cluster.receiver.url, description: 'cluster receiver' });
  expect(ep.status).toBe(201);
  cluster.receiver.secret = ep.body.secret;
}, 180_000);

afterAll(async () => {
  await sql?.end({ timeout: 1 }).catch(() => {});
  await cluster?.stop();
}, 60_000);

/** Ids of outbox rows and webhook deliveries claimed by a worker and not yet recorded as sent. */
async function inFlight(): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`select id from emails where status = 'sending' union all select id from webhook_deliveries where status = 'sending'`;
  return rows.map((r) => r.id);
}

const direct = (url: string, api: Api) => new Api(url, api.headers);
const seenText = (x: { seen: Seen; seenFrom: number[] }) => x.seen.map((s, i) => (typeof s === 'number' ? `${s} (read began at ${x.seenFrom[i]})` : s)).join(' / ');
const within = (seen: Seen, ms: number) => seen.every((s) => s === 'down' || (typeof s === 'number' && s < ms));

test('three instances, one PostgreSQL, a mixed load for a minute with an instance killed and PostgreSQL restarted', async () => {
  const rec: LoadRecord = newLoadRecord();
  const mayRepeat = new Set<string>();
  const faults: Record<string, number> = {};
  const started = Date.now();
  // A minute, and at least 5 s past the faults (an instance's start takes long on a busy machine).
  const load = runMixedLoad({
    project: p, url: cluster.proxy.url, instanceUrls: cluster.instances.map((i) => i.url), mailbox: cluster.mailbox,
    clients: CLIENTS, durationMs: 10 * LOAD_MS, consistency: true,
    stopWhen: () => Date.now() > started + LOAD_MS && faults.pgUpAt !== undefined && Date.now() > faults.pgUpAt + 5_000,
  }, rec);

  // The faults: instance 1 killed at a quarter of the run and started again at once; PostgreSQL down for a second at
  // about 60 % of it.
  const faultsDone = (async () => {
    await Bun.sleep(LOAD_MS * 0.25);
    faults.killedAt = Date.now();
    await cluster.kill(1);
    faults.goneAt = Date.now();
    for (const id of await inFlight()) mayRepeat.add(id);
    await cluster.restart(1);
    faults.restartedAt = Date.now();
    await Bun.sleep(Math.max(0, started + LOAD_MS * 0.6 - Date.now()));
    faults.pgStopAt = Date.now();
    await cluster.pg.stop();
    await Bun.sleep(1_000);
    await cluster.pg.start();
    faults.pgUpAt = Date.now();
    for (const id of await inFlight()) mayRepeat.add(id);
  })();
  await Promise.all([load, faultsDone]);
  const firstAckAfterPg = rec.acks.filter((t) => t >= faults.pgUpAt!).sort((a, b) => a - b)[0];

  // Rate limits over the three: 3N concurrent code requests for one address, spread over the instances directly.
  const limited = uniqueEmail('limited');
  const answers = await Promise.all(Array.from({ length: 3 * CODE_LIMIT }, (_, k) =>
    direct(cluster.instances[k % 3]!.url, p.client).post('/auth/otp/send-sign-in-code', { email: limited, callback_url: CALLBACK })));
  const byStatus = answers.reduce<Record<number, number>>((m, r) => ({ ...m, [r.status]: (m[r.status] ?? 0) + 1 }), {});

  // The outbox and the webhook deliveries drained (a send in flight when its worker died waits out its lease).
  const drainedBy = Date.now() + 240_000;
  let pending: { n: number }[] = [];
  do {
    await Bun.sleep(500);
    pending = await sql<{ n: number }[]>`select (select count(*) from emails where status in ('pending', 'sending'))::int
      + (select count(*) from webhook_deliveries where status in ('pending', 'sending'))::int as n`;
  } while (pending[0]!.n > 0 && Date.now() < drainedBy);
  await Bun.sleep(1_000);

  const repeats = (ids: string[]) => ids.length - new Set(ids).size;
  const mailRepeats = repeats(cluster.mailbox.messages.map((m) => m.messageId));
  const hookRepeats = repeats(cluster.receiver.received.map((h) => h.id));
  const ops = Object.entries(rec.ops).map(([op, s]) => `${op} ${s.ok}${s.failed ? ` (${s.failed} not acknowledged)` : ''}${s.retried ? ` (${s.retried} retries)` : ''}`).join(', ');
  const worst = (list: { seen: Seen }[]) => Math.max(0, ...list.flatMap((x) => x.seen.filter((s): s is number => typeof s === 'number')));
  console.log(`cluster: ${rec.users.size} users; ${ops}; served per instance ${cluster.proxy.served.join('/')}; `
    + `revocations: slowest ${worst(rec.revocations)} ms; config changes: slowest ${worst(rec.configChanges)} ms; `
    + `killed instance answering again ${faults.restartedAt! - faults.killedAt!} ms after the kill (gone in ${faults.goneAt! - faults.killedAt!} ms); `
    + `first acknowledged request ${firstAckAfterPg ? firstAckAfterPg - faults.pgUpAt! : 'never'} ms after PostgreSQL was up `
    + `(${faults.pgUpAt! - faults.pgStopAt!} ms after its stop began); in flight at the faults: ${mayRepeat.size}; `
    + `${cluster.mailbox.messages.length} mails (${mailRepeats} sent again), ${cluster.receiver.received.length} webhooks (${hookRepeats} sent again); `
    + `code mails late: ${rec.lateCodeMails}; rate limit: ${JSON.stringify(byStatus)}; `
    + `kill at ${new Date(faults.killedAt!).toISOString()}, PostgreSQL stop at ${new Date(faults.pgStopAt!).toISOString()}, up at ${new Date(faults.pgUpAt!).toISOString()}`);

  // Every check's findings are gathered and compared at the end, so that one run shows all that went wrong.
  const problems: Record<string, string[]> = {};
  const check = (name: string, found: string[]) => { if (found.length > 0) problems[name] = found; };
  check('unexpected answers during the load', rec.surprises);
  check('the outbox or the webhook deliveries not drained', pending[0]!.n > 0 ? [`${pending[0]!.n} left`] : []);

  // No acknowledged write lost: users (email, last acknowledged display name, or a later one whose answer was lost),
  // in the database and through every instance's API.
  const rows = await sql<{ id: string; primary_email: string | null; display_name: string | null }[]>`select id, primary_email, display_name from users where project_id = ${p.id}`;
  const stored = new Map(rows.map((r) => [r.id, r]));
  const lost: string[] = [];
  for (const u of rec.users.values()) {
    const r = stored.get(u.id);
    const names = [u.displayName || null, ...u.attempted];
    if (!r || r.primary_email !== u.email || !names.includes(r.display_name)) lost.push(`db ${u.id}: ${JSON.stringify(u)} vs ${JSON.stringify(r)}`);
    for (const inst of cluster.instances) {
      const got = await direct(inst.url, p.server).get(`/users/${u.id}`);
      if (got.status !== 200 || got.body.primary_email !== u.email || !names.includes(got.body.display_name)) lost.push(`${inst.url} ${u.id}: ${got.status} ${got.text.slice(0, 200)}`);
    }
  }
  // Teams with their creators, invitations listed by every instance.
  for (const t of rec.teams) {
    for (const inst of cluster.instances) {
      const mine = await direct(inst.url, p.server).get(`/teams?user_id=${t.creatorId}`);
      if (!mine.body.items?.some((x: { id: string }) => x.id === t.id)) lost.push(`${inst.url} team ${t.id} of ${t.creatorId}: ${mine.text.slice(0, 200)}`);
    }
  }
  for (const inv of rec.invitations) {
    for (const inst of cluster.instances) {
      const listed = await direct(inst.url, p.server).get(`/team-invitations?team_id=${inv.teamId}`);
      if (!listed.body.items?.some((i: { recipient_email: string }) => i.recipient_email === inv.email)) lost.push(`${inst.url} invitation to ${inv.email}: ${listed.text.slice(0, 200)}`);
    }
  }
  // Sessions acknowledged and not signed out: their refresh tokens work on every instance.
  for (const s of rec.liveSessions) {
    for (const inst of cluster.instances) {
      const r = await direct(inst.url, p.client).post('/auth/sessions/current/refresh', {}, { refreshToken: s.refreshToken });
      if (r.status !== 200) lost.push(`${inst.url} session of ${s.userId}: ${r.status} ${r.text.slice(0, 200)}`);
    }
  }
  check('acknowledged writes lost', lost);

  // Revocations: refused by every instance that was up within a second of the answer, and by all three now.
  const when = (t: number) => `+${t - started} ms (kill at +${faults.killedAt! - started}, back +${faults.restartedAt! - started}; PostgreSQL stop +${faults.pgStopAt! - started}, up +${faults.pgUpAt! - started})`;
  check('revocations not refused by every instance within a second', rec.revocations.filter((r) => !within(r.seen, 1_000)).map((r) => `${r.userId} at ${when(r.answeredAt)}: ${seenText(r)}`));
  const stillAccepted: string[] = [];
  for (const r of rec.revocations) {
    for (const inst of cluster.instances) {
      const res = await direct(inst.url, p.client).get('/users/me', { accessToken: r.accessToken });
      if (res.status !== 401) stillAccepted.push(`${inst.url} ${r.userId}: ${res.status}`);
    }
  }
  check('revoked sessions accepted afterwards', stillAccepted);
  // Config changes: seen by every instance that was up within a second, and the last one by all three now.
  check('config changes not seen by every instance within a second', rec.configChanges.filter((c) => !within(c.seen, 1_000)).map((c) => `${c.displayName} at ${when(c.answeredAt)}: ${seenText(c)}`));
  const last = rec.configChanges.at(-1)!.displayName;
  const lastSeen: string[] = [];
  for (const inst of cluster.instances) {
    const shown = (await direct(inst.url, p.client).get('/projects/current')).body.display_name;
    if (shown !== last) lastSeen.push(`${inst.url} shows ${shown}, not ${last}`);
  }
  check('the last config change not shown afterwards', lastSeen);

  // Mail: every queued message sent, and received once by its Message-ID (twice only if in flight at a fault).
  const mailRows = await sql<{ id: string; status: string; to: string[] }[]>`select id, status, "to" from emails`;
  const received = new Map<string, number>();
  for (const m of cluster.mailbox.messages) received.set(m.messageId, (received.get(m.messageId) ?? 0) + 1);
  const rowOf = (messageId: string) => /^<([0-9a-f-]{36})@/.exec(messageId)?.[1];
  const mailProblems: string[] = [];
  const rowIds = new Set(mailRows.map((r) => r.id));
  for (const [messageId, n] of received) {
    const id = rowOf(messageId);
    if (!id || !rowIds.has(id)) mailProblems.push(`received ${messageId}, which no queued mail has`);
    else if (n > 1 && !mayRepeat.has(id)) mailProblems.push(`${messageId} received ${n} times, at ${cluster.mailbox.messages.filter((m) => m.messageId === messageId).map((m) => `+${m.receivedAt - started}`).join(', ')} ms`);
  }
  for (const r of mailRows) {
    if (r.status !== 'sent') mailProblems.push(`${r.id} to ${r.to}: ${r.status}`);
    if (![...received.keys()].some((m) => rowOf(m) === r.id)) mailProblems.push(`${r.id} to ${r.to} never received`);
  }
  for (const to of [...rec.codesSentTo, ...rec.invitations.map((i) => i.email)]) {
    if (!cluster.mailbox.messages.some((m) => m.to.includes(to))) mailProblems.push(`no mail to ${to}`);
  }
  check('mail', mailProblems);

  // Webhooks: every event delivered, received once by its id (twice only if in flight at a fault), signed.
  const deliveries = await sql<{ id: string; status: string; event_type: string }[]>`select id, status, event_type from webhook_deliveries where project_id = ${p.id}`;
  const hooks = new Map<string, number>();
  for (const h of cluster.receiver.received) hooks.set(h.id, (hooks.get(h.id) ?? 0) + 1);
  const hookProblems: string[] = [];
  const deliveryIds = new Set(deliveries.map((d) => d.id));
  for (const [id, n] of hooks) {
    if (!deliveryIds.has(id)) hookProblems.push(`received ${id}, which no delivery has`);
    else if (n > 1 && !mayRepeat.has(id)) {
      const [row] = await sql<{ attempts: number; event_type: string }[]>`select attempts, event_type from webhook_deliveries where id = ${id}`;
      const at = cluster.receiver.received.filter((h) => h.id === id).map((h) => `+${h.at - started}`).join(', ');
      hookProblems.push(`${id} (${row?.event_type}, ${row?.attempts} attempts) received ${n} times, at ${at} ms; ${when(started)}`);
    }
  }
  // What the workers said of failed attempts (a repeat without a fault follows one).
  if (hookProblems.length > 0) hookProblems.push(...cluster.instances.flatMap((i) => i.service.output().split('\n').filter((l) => l.includes('[webhooks]')).slice(0, 10)));
  for (const d of deliveries) {
    if (d.status !== 'delivered') hookProblems.push(`${d.id} (${d.event_type}): ${d.status}`);
    if (!hooks.has(d.id)) hookProblems.push(`${d.id} (${d.event_type}) never received`);
  }
  hookProblems.push(...cluster.receiver.received.filter((h) => !h.verified).map((h) => `${h.id}: signature not verified`));
  const created = new Set(cluster.receiver.events('user.created').map((h) => h.json.data.id));
  hookProblems.push(...[...rec.users.keys()].filter((id) => !created.has(id)).map((id) => `no user.created for ${id}`));
  check('webhooks', hookProblems);

  // The rate limit held over the three instances: N answered, the rest refused.
  const rateExpected = { 200: CODE_LIMIT, 429: 2 * CODE_LIMIT };
  check('rate limit over the instances', JSON.stringify(byStatus) === JSON.stringify(rateExpected) ? [] : [`answers ${JSON.stringify(byStatus)}, expected ${JSON.stringify(rateExpected)}`]);

  expect(problems).toEqual({});
  // Enough of each kind happened for the checks to mean something.
  expect({ users: rec.users.size > 10, revocations: rec.revocations.length > 5, configChanges: rec.configChanges.length > 5, mails: cluster.mailbox.messages.length > 10, hooks: cluster.receiver.received.length > 10 })
    .toEqual({ users: true, revocations: true, configChanges: true, mails: true, hooks: true });
});
