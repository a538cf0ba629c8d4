// `npm run bench:cluster`: the cluster test's layout (service/test/support/cluster.ts: instances on a PostgreSQL server
// of its own behind a round-robin proxy on loopback, real SMTP and webhook receiver) under its mixed load
// (support/cluster-load.ts, without the consistency polls), measured:
//   - throughput (acknowledged requests per second through the proxy) with one instance, then with three;
//   - on the three, under the same load: the time from an instance's SIGKILL (started again at once) until it answers
//     /health?db again, and the time from PostgreSQL's restart until requests are acknowledged again.
// Knobs: GATEHOUSE_BENCH_SECONDS (each throughput run, default 30), GATEHOUSE_BENCH_CLIENTS (virtual clients, default 8).
// Everything runs on this machine: the instances, PostgreSQL, the proxy and the load share its cores.
import { loadavg, cpus } from 'node:os';
import type { RunningService } from '../service/test/support/service';
import { newProject, type TestProject } from '../service/test/support/projects';
import { startCluster, type Cluster } from '../service/test/support/cluster';
import { newLoadRecord, runMixedLoad, type LoadRecord } from '../service/test/support/cluster-load';

const SECONDS = Number(process.env.GATEHOUSE_BENCH_SECONDS ?? 30);
const CLIENTS = Number(process.env.GATEHOUSE_BENCH_CLIENTS ?? 8);
const RATE_LIMITS = 'sign_in_ip=1000000/600,sign_in_account=1000000/600,sign_up_ip=1000000/3600,code_send_ip=1000000/600,code_attempt_ip=1000000/600';
const log = (s: string) => console.error(`[cluster bench] ${s}`);
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');

async function setUp(instances: number): Promise<{ cluster: Cluster; project: TestProject }> {
  const cluster = await startCluster({ instances, rateLimits: RATE_LIMITS });
  const project = await newProject({ url: cluster.proxy.url } as RunningService, { displayName: 'Bench', config: { magic_link_enabled: true } });
  const ep = await project.admin.post('/webhooks/endpoints', { url: cluster.receiver.url });
  cluster.receiver.secret = ep.body.secret;
  return { cluster, project };
}

function run(cluster: Cluster, project: TestProject, ms: number, rec: LoadRecord, stopWhen?: () => boolean) {
  return runMixedLoad({
    project, url: cluster.proxy.url, instanceUrls: cluster.instances.map((i) => i.url), mailbox: cluster.mailbox,
    clients: CLIENTS, durationMs: ms, consistency: false, configEveryMs: 1_000, stopWhen,
  }, rec);
}

async function throughput(instances: number): Promise<number> {
  const { cluster, project } = await setUp(instances);
  try {
    const rec = newLoadRecord();
    const t0 = Date.now();
    await run(cluster, project, SECONDS * 1000, rec);
    // Within the window only: the clients' last rounds finish after it (a code sign-in waits for its mail).
    const inWindow = rec.acks.filter((t) => t < t0 + SECONDS * 1000).length;
    const perSecond = inWindow / SECONDS;
    log(`${instances} instance(s): ${inWindow} acknowledged requests in ${SECONDS} s = ${perSecond.toFixed(1)}/s (load average ${load()})`);
    return perSecond;
  } finally { await cluster.stop(); }
}

async function answersHealth(url: string): Promise<boolean> {
  try { return (await fetch(`${url}/health?db`)).status === 200; } catch { return false; }
}

async function recovery(): Promise<{ instanceMs: number; pgMs: number; pgDownMs: number }> {
  const { cluster, project } = await setUp(3);
  try {
    const rec = newLoadRecord();
    // Until both faults are over (an instance's start takes long on a loaded machine).
    let over = false;
    const loadDone = run(cluster, project, 600_000, rec, () => over);
    await Bun.sleep(8_000);
    const killedAt = Date.now();
    await cluster.kill(1);
    const restart = cluster.restart(1);
    while (!(await answersHealth(cluster.instances[1]!.url)) && Date.now() - killedAt < 120_000) await Bun.sleep(20);
    const instanceMs = Date.now() - killedAt;
    await restart;
    await Bun.sleep(8_000);
    const stopAt = Date.now();
    await cluster.pg.stop();
    await Bun.sleep(1_000);
    await cluster.pg.start();
    const upAt = Date.now();
    const before = rec.acks.length;
    while ((rec.acks.length === before || rec.acks.at(-1)! < upAt) && Date.now() - upAt < 60_000) await Bun.sleep(10);
    const pgMs = rec.acks.filter((t) => t >= upAt).sort((a, b) => a - b)[0]! - upAt;
    over = true;
    await loadDone;
    return { instanceMs, pgMs, pgDownMs: upAt - stopAt };
  } finally { await cluster.stop(); }
}

log(`${cpus().length} cores, load average ${load()} at the start; ${CLIENTS} virtual clients, ${SECONDS} s per run`);
const one = await throughput(1);
const three = await throughput(3);
const r = await recovery();
console.log([
  `Cluster bench (${CLIENTS} virtual clients, mixed load; load average at the end ${load()} on ${cpus().length} cores)`,
  `  throughput, 1 instance:  ${one.toFixed(1)} acknowledged requests/s`,
  `  throughput, 3 instances: ${three.toFixed(1)} acknowledged requests/s (${(three / one).toFixed(2)}x)`,
  `  instance killed (SIGKILL, started again at once): answering /health?db again after ${r.instanceMs} ms`,
  `  PostgreSQL restarted (down ${r.pgDownMs} ms from the stop's start to the start's end): requests acknowledged again ${r.pgMs} ms after it was up`,
].join('\n'));
process.exit(0);
