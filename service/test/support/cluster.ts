// A cluster on loopback for the cluster test and `npm run bench:cluster`: a PostgreSQL server of its own
// (private-postgres.ts: it is restarted, the machine's server never is), N service instances on it, a real SMTP
// server, a webhook receiver, and a round-robin proxy in front (the layout of the README's production recipe).
// An instance can be killed with SIGKILL and started again on its port; the proxy skips an instance that refuses
// connections.
import { startPrivatePostgres, type PrivatePostgres } from './private-postgres';
import { startService, type StartedService } from './service';
import { startSmtpFixture, type SmtpFixture } from './smtp';
import { WebhookReceiver } from './webhook-receiver';

export interface Instance {
  readonly url: string;
  readonly port: number;
  /** Up, as far as this harness knows (false between a kill and the restart's "listening"). */
  up: boolean;
  service: StartedService;
}

export interface Cluster {
  pg: PrivatePostgres;
  databaseUrl: string;
  mailbox: SmtpFixture;
  receiver: WebhookReceiver;
  instances: Instance[];
  proxy: RoundRobinProxy;
  /** SIGKILL of instance `i`'s service process (not a graceful stop: no in-flight work is finished). */
  kill(i: number): Promise<void>;
  /** Starts instance `i` again on its port. */
  restart(i: number): Promise<void>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  instances: number;
  /** GATEHOUSE_RATE_LIMITS of every instance. */
  rateLimits?: string;
  env?: Record<string, string>;
}

export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  const pg = await startPrivatePostgres();
  const { default: postgres } = await import('postgres');
  const admin = postgres(pg.url(), { max: 1, onnotice: () => {} });
  await admin.unsafe('create database gatehouse');
  await admin.end();
  const databaseUrl = pg.url('gatehouse');
  const mailbox = await startSmtpFixture();
  const receiver = new WebhookReceiver().start();
  const env = (port: number): Record<string, string> => ({
    PORT: String(port), DATABASE_URL: databaseUrl, SMTP_URL: mailbox.url,
    GATEHOUSE_RATE_LIMITS: o.rateLimits ?? 'off', GATEHOUSE_DB_CONNECT_TIMEOUT_SECONDS: '2',
    GATEHOUSE_INTERNAL_ANONYMOUS_SIGN_UP: 'false', ...o.env,
  });
  const instances: Instance[] = [];
  // One after the other: the first applies the migrations and makes the key records.
  for (let i = 0; i < o.instances; i++) {
    const service = await startService({ env: env(0) });
    const port = Number(new URL(service.url).port);
    instances.push({ url: service.url, port, up: true, service });
  }
  const proxy = startRoundRobinProxy(instances);
  const cluster: Cluster = {
    pg, databaseUrl, mailbox, receiver, instances, proxy,
    async kill(i) {
      const inst = instances[i]!;
      inst.up = false;
      process.kill(inst.service.pid(), 'SIGKILL');
      // The wrapper (exit-with-parent.ts) exits with its child; the port is free once both are gone.
      await inst.service.stop();
    },
    async restart(i) {
      const inst = instances[i]!;
      inst.service = await startService({ env: env(inst.port) });
      if (inst.service.url !== inst.url) throw new Error(`instance ${i} came back on ${inst.service.url}, not ${inst.url}`);
      inst.up = true;
    },
    async stop() {
      proxy.stop();
      await Promise.all(instances.map((inst) => inst.service.stop()));
      receiver.stop();
      await mailbox.stop();
      await pg.destroy();
    },
  };
  return cluster;
}

export interface RoundRobinProxy {
  url: string;
  /** Requests answered by each instance (by index). */
  served: number[];
  stop(): void;
}

/**
 * Bun.serve on loopback forwarding each request to the next instance in turn. An instance that refuses the connection
 * (killed, not yet listening) never saw the request, so the request goes to the next one; any other failure of the
 * upstream is a 502 (the request may have reached it: the client decides whether a retry is safe).
 */
export function startRoundRobinProxy(instances: readonly { port: number }[]): RoundRobinProxy {
  let next = 0;
  const served = instances.map(() => 0);
  const server = Bun.serve({
    port: 0, hostname: '127.0.0.1', idleTimeout: 60,
    async fetch(req) {
      const url = new URL(req.url);
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.arrayBuffer();
      const headers = new Headers(req.headers);
      headers.delete('host');
      for (let tried = 0; tried < instances.length; tried++) {
        const i = next++ % instances.length;
        try {
          // A connection per request: on a kept-alive one, a request the instance took and then died on could be
          // sent again by the client on a new connection, and reported as refused.
          const res = await fetch(`http://127.0.0.1:${instances[i]!.port}${url.pathname}${url.search}`, {
            method: req.method, headers, body, redirect: 'manual', keepalive: false,
          });
          served[i]!++;
          // The body is read here: a connection the upstream drops mid-answer is a 502, not a truncated answer.
          const out = new Headers(res.headers);
          out.delete('content-encoding');
          out.delete('content-length');
          out.set('x-cluster-instance', `${i}${tried ? ` (after ${tried} refused)` : ''}`);
          return new Response(await res.arrayBuffer(), { status: res.status, headers: out });
        } catch (err) {
          if ((err as { code?: string }).code === 'ConnectionRefused' || /ECONNREFUSED|Unable to connect/i.test(String(err))) continue;
          return new Response(`upstream ${i} failed: ${String(err)}`, { status: 502 });
        }
      }
      return new Response('no instance accepted the connection', { status: 502 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, served, stop: () => server.stop(true) };
}
