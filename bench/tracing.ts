// `npm run bench:tracing` (issue 29): what OpenTelemetry tracing costs. The service on the embedded database, started
// three ways in turn: tracing off; on at the default sampling (parentbased_always_on: every request) with a loopback
// OTLP receiver that reads and drops what arrives; and on with an always-off sampler (spans decided, none recorded).
// Each serves GET /users/me (one user's token) and password sign-in under wrk; the rounds alternate twice so that
// drift of a shared machine falls on every mode. Printed: requests per second, the ratio to the "off" run of the same
// round, and the cost per request in microseconds of the service's time (1/on − 1/off at saturation).
import { $ } from 'bun';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedDataDir } from '../service/test/support/pglite-template';

const ROOT = join(import.meta.dir, '..');
const DURATION = process.env.BENCH_DURATION ?? '8s';
const CONNECTIONS = process.env.BENCH_CONNECTIONS ?? '32';
const DEV = { pck: 'this-publishable-client-key-is-for-local-development-only', ssk: 'this-secret-server-key-is-for-local-development-only' };

let spansReceived = 0;
const sink = Bun.serve({
  port: 0, hostname: '127.0.0.1',
  async fetch(req) {
    const body = await req.json() as { resourceSpans?: { scopeSpans?: { spans?: unknown[] }[] }[] };
    for (const rs of body.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) spansReceived += ss.spans?.length ?? 0;
    return Response.json({});
  },
});

type Mode = 'off' | 'on' | 'on, sampled out';
const MODES: Record<Mode, Record<string, string>> = {
  off: {},
  on: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sink.port}` },
  'on, sampled out': { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sink.port}`, OTEL_TRACES_SAMPLER: 'always_off' },
};

async function startService(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-tracing-'));
  // A copy of the migrated embedded database (the tests' template): each start skips running every migration.
  await seedDataDir(dataDir);
  const proc = Bun.spawn([process.execPath, join(ROOT, 'service/src/main.ts')], {
    env: { ...process.env, ...env, PORT: '0', GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_DEV_OIDC: 'false', GATEHOUSE_DEMO_PROJECT: 'false', GATEHOUSE_RATE_LIMITS: 'off', NODE_ENV: 'test', DATABASE_URL: '' },
    stdout: 'pipe', stderr: 'pipe',
  });
  let output = '';
  void (async () => { for await (const c of proc.stdout) output += new TextDecoder().decode(c); })();
  void (async () => { for await (const c of proc.stderr) output += new TextDecoder().decode(c); })();
  for (const until = Date.now() + 180_000; !/listening on (http:\/\/localhost:\d+)/.test(output); await Bun.sleep(50)) {
    if (Date.now() > until || proc.exitCode !== null) {
      proc.kill('SIGKILL');
      throw new Error(`service did not start:\n${output}`);
    }
  }
  const url = /listening on (http:\/\/localhost:\d+)/.exec(output)![1]!;
  return { url, stop: async () => { proc.kill('SIGTERM'); await proc.exited; rmSync(dataDir, { recursive: true, force: true }); } };
}

async function api(url: string, path: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${url}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, string>>;
}

async function wrk(args: string[]): Promise<number> {
  const out = await $`wrk -t1 -c${CONNECTIONS} -d${DURATION} ${args}`.quiet().text();
  // Only successful answers count: a run that fails fast must not look fast.
  const failed = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out);
  if (failed) throw new Error(`${failed[1]} answers were not 2xx:\n${out}`);
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]);
}

async function measure(mode: Mode): Promise<{ usersMe: number; signIn: number }> {
  const svc = await startService(MODES[mode]);
  try {
    const client = { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': DEV.pck };
    const email = `bench-${crypto.randomUUID()}@example.com`;
    const { access_token } = await api(svc.url, '/auth/password/sign-up', { email, password: 'bench-password-1' }, client);
    const headers = Object.entries({ ...client, 'x-stack-access-token': access_token! }).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
    await wrk([...headers, '-d2s', `${svc.url}/api/v1/users/me`]); // warm-up
    const usersMe = await wrk([...headers, `${svc.url}/api/v1/users/me`]);
    const signInScript = join(mkdtempSync(join(tmpdir(), 'gatehouse-bench-lua-')), 'sign-in.lua');
    await Bun.write(signInScript, `wrk.method = "POST"\nwrk.body = '${JSON.stringify({ email, password: 'bench-password-1' })}'\nwrk.headers["content-type"] = "application/json"\n`);
    const signIn = await wrk([...Object.entries(client).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), '-s', signInScript, `${svc.url}/api/v1/auth/password/sign-in`]);
    return { usersMe, signIn };
  } finally {
    await svc.stop();
  }
}

const rows: { round: number; mode: Mode; usersMe: number; signIn: number }[] = [];
console.log(`load before: ${(await Bun.file('/proc/loadavg').text()).trim()}`);
for (const round of [1, 2]) {
  for (const mode of Object.keys(MODES) as Mode[]) rows.push({ round, mode, ...(await measure(mode)) });
}
sink.stop(true);
const cost = (on: number, off: number) => (1e6 / on - 1e6 / off).toFixed(0);
console.log('| round | tracing | GET /users/me per s | ratio to off | cost µs/request | sign-in per s | ratio to off |');
console.log('|---:|---|---:|---:|---:|---:|---:|');
for (const r of rows) {
  const off = rows.find((o) => o.round === r.round && o.mode === 'off')!;
  console.log(`| ${r.round} | ${r.mode} | ${r.usersMe.toFixed(0)} | ${(r.usersMe / off.usersMe).toFixed(2)} | ${r.mode === 'off' ? '' : cost(r.usersMe, off.usersMe)} | ${r.signIn.toFixed(1)} | ${(r.signIn / off.signIn).toFixed(2)} |`);
}
console.log(`spans received by the loopback OTLP receiver: ${spansReceived}`);
console.log(`load after: ${(await Bun.file('/proc/loadavg').text()).trim()}`);
