// Starts the real service as a child process (as `npm start` does) and talks HTTP to it.
// On PGlite by default; on PostgreSQL when the test run has DATABASE_URL set.
import { isolatedDatabase } from './isolated-database';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'bun:test';
import { startSmtpFixture, type SmtpFixture } from './smtp';
import { seedDataDir } from './pglite-template';
import { startTestDns, type TestDns } from './dns';

const SERVICE_ENTRY = join(import.meta.dir, '../../src/main.ts');
// The shared service is never stopped by a test; this wrapper ends it when the test process is gone.
const EXIT_WITH_PARENT = join(import.meta.dir, 'exit-with-parent.ts');

export const DEV_KEYS = {
  projectId: 'internal',
  publishableClientKey: 'this-publishable-client-key-is-for-local-development-only',
  secretServerKey: 'this-secret-server-key-is-for-local-development-only',
  superSecretAdminKey: 'this-super-secret-admin-key-is-for-local-development-only',
};

export interface RunningService {
  url: string;
  /** Everything the process printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/** A service this process started. */
export interface StartedService extends RunningService {
  /** The service's own process id (not its exit-with-parent wrapper's), e.g. to read its memory in /proc. */
  pid(): number;
}

export async function startService(opts: { env?: Record<string, string | undefined>; startTimeoutMs?: number; preload?: string } = {}): Promise<StartedService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
  // `preload`: a module Bun runs before the service in its process (a test's way to act from inside it).
  const preload = opts.preload ? ['--preload', opts.preload] : [];
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: '0',
    GATEHOUSE_DATA_DIR: dataDir,
    GATEHOUSE_DEV_OIDC: 'false',
    // No demo project (it would be one more project every owner lists); the account kit's tests turn it on.
    GATEHOUSE_DEMO_PROJECT: 'false',
    NODE_ENV: 'test',
    // Off by default; the protocol tests of anonymous users (and the client library's) need it on.
    GATEHOUSE_INTERNAL_ANONYMOUS_SIGN_UP: 'true',
    ...opts.env,
  };
  // On the embedded database, the service's own new directory starts as a copy of the migrated template.
  if (!env.DATABASE_URL && env.GATEHOUSE_DATA_DIR === dataDir) await seedDataDir(dataDir);
  const proc = Bun.spawn([process.execPath, EXIT_WITH_PARENT, process.execPath, ...preload, SERVICE_ENTRY], {
    env,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let output = '';
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) output += decoder.decode(chunk);
  };
  void collect(proc.stdout);
  void collect(proc.stderr);

  const deadline = Date.now() + (opts.startTimeoutMs ?? 60_000);
  let url: string | undefined;
  while (!url) {
    const m = /listening on (http:\/\/localhost:\d+)/.exec(output);
    if (m) url = m[1];
    else if (proc.exitCode !== null) throw new Error(`service exited (${proc.exitCode}):\n${output}`);
    else if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`service did not start in ${Math.round((opts.startTimeoutMs ?? 60_000) / 1000)} s:\n${output}`);
    }
    else await Bun.sleep(50);
  }
  // A service that ends while its tests still use it (a crash) says why: its output's end, in the test's log.
  let stopping = false;
  void proc.exited.then((code) => {
    if (!stopping) console.error(`[service ${url} ended unexpectedly with ${code}; its last output:]\n${output.slice(-6000)}`);
  });
  return {
    url,
    pid: () => Number(readFileSync(`/proc/${proc.pid}/task/${proc.pid}/children`, 'utf8').trim().split(/\s+/)[0]),
    output: () => output,
    async stop() {
      stopping = true;
      proc.kill('SIGTERM');
      await Promise.race([proc.exited, Bun.sleep(5000)]);
      if (proc.exitCode === null) proc.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SharedService extends RunningService {
  /** The real SMTP server the shared service's "shared" email config delivers to. */
  mailbox: SmtpFixture;
  /** The DNS server (loopback, dns2) the shared service verifies team domains with (GATEHOUSE_DNS_SERVERS). */
  dns: TestDns;
}

let shared: Promise<SharedService> | undefined;

/**
 * One service for the whole test process (bun test runs every file in one process), with a real SMTP server
 * as its shared mail server. Tests isolate themselves by creating their own projects (and unique emails).
 * Tests that need other settings start their own service with `startService({env})`.
 */
export function sharedService(): Promise<SharedService> {
  shared ??= (async () => {
    const [mailbox, dns] = await Promise.all([startSmtpFixture(), startTestDns()]);
    // Under DATABASE_URL, a database of its own: with parallel test workers (GATEHOUSE_TEST_JOBS) each worker has a
    // shared service, and on one database each one's email worker would deliver the other's mail to its own SMTP
    // server (seen as a sign-in code that never arrived). Dropped by .ci/run with the run's other scratch databases.
    const { url } = await isolatedDatabase();
    const svc = await startService({ env: { SMTP_URL: mailbox.url, GATEHOUSE_DNS_SERVERS: dns.address, ...(url ? { DATABASE_URL: url } : {}) } });
    return { ...svc, mailbox, dns };
  })();
  return shared;
}

export interface ApiResponse<T = any> { status: number; headers: Headers; body: T; text: string }

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string | undefined>;
  accessToken?: string;
  refreshToken?: string;
  /** Send the body as application/x-www-form-urlencoded. */
  form?: boolean;
}

/** A client bound to one project and access type, sending the x-stack-* headers the SDK sends. */
export class Api {
  constructor(readonly baseUrl: string, readonly headers: Record<string, string | undefined> = {}) {}

  with(headers: Record<string, string | undefined>): Api {
    return new Api(this.baseUrl, { ...this.headers, ...headers });
  }

  async request<T = any>(method: string, path: string, o: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...this.headers, ...o.headers })) if (v !== undefined) headers[k] = v;
    if (o.accessToken) headers['x-stack-access-token'] = o.accessToken;
    if (o.refreshToken) headers['x-stack-refresh-token'] = o.refreshToken;
    let body: string | undefined;
    if (o.body !== undefined) {
      if (o.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(o.body as Record<string, string>).toString();
      } else {
        headers['content-type'] ??= 'application/json';
        body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
      }
    }
    const res = await fetch(`${this.baseUrl}/api/v1${path}`, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('application/json')) {
      try { parsed = JSON.parse(text); } catch { /* keep text */ }
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, o?: RequestOptions) { return this.request<T>('GET', path, o); }
  post<T = any>(path: string, body?: unknown, o?: RequestOptions) { return this.request<T>('POST', path, { ...o, body }); }
  patch<T = any>(path: string, body?: unknown, o?: RequestOptions) { return this.request<T>('PATCH', path, { ...o, body }); }
  delete<T = any>(path: string, o?: RequestOptions) { return this.request<T>('DELETE', path, o); }
}

export function clientApi(url: string, projectId: string, publishableClientKey: string) {
  return new Api(url, { 'x-stack-project-id': projectId, 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': publishableClientKey });
}
export function serverApi(url: string, projectId: string, secretServerKey: string) {
  return new Api(url, { 'x-stack-project-id': projectId, 'x-stack-access-type': 'server', 'x-stack-secret-server-key': secretServerKey });
}
export function adminApi(url: string, projectId: string, superSecretAdminKey: string) {
  return new Api(url, { 'x-stack-project-id': projectId, 'x-stack-access-type': 'admin', 'x-stack-super-secret-admin-key': superSecretAdminKey });
}

/** Asserts a known-error response: status, header and body code. */
export function expectKnownError(res: ApiResponse, code: string, status: number) {
  expect({ status: res.status, code: res.body?.code, header: res.headers.get('x-stack-known-error') })
    .toEqual({ status, code, header: code });
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;
}
