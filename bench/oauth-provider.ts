// `npm run bench:oauth-provider`: issue 27's figures on PostgreSQL (a fresh database, dropped at the end), the service
// in production mode. At the project's token endpoint: authorization-code exchanges per second (the codes made first
// through the real flow, not timed: authorization request, the consent API answered with a user's token, the
// provider's redirects) and refresh grants per second (each refresh token used once, rotated); userinfo requests per
// second; and, in the same run and with the same load generator, the DB ceiling: Bun + postgres.js answering one
// primary-key SELECT per request (bench/ceiling-db.ts). Each figure is printed with its ratio to that ceiling.
// GATEHOUSE_BENCH_CODES codes (default 400; made in batches, as a code lives 60 s), GATEHOUSE_BENCH_REQUESTS requests
// for userinfo and the ceiling (default 3000), GATEHOUSE_BENCH_CONCURRENCY at a time (default 16).
// GATEHOUSE_BENCH_BUN_FLAGS: extra flags for the service's bun (e.g. `--cpu-prof-md --cpu-prof-dir=/tmp/prof`).
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import postgres from 'postgres';
import { CookieJar } from '../service/test/support/oidc-relying-party';
import { benchProject } from './support/bench-project';

const CODES = Number(process.env.GATEHOUSE_BENCH_CODES ?? 400);
const BATCH = 100;
const REQUESTS = Number(process.env.GATEHOUSE_BENCH_REQUESTS ?? 3000);
const CONCURRENCY = Number(process.env.GATEHOUSE_BENCH_CONCURRENCY ?? 16);
const PG = `postgres://${process.env.PGUSER ?? 'postgres'}@${process.env.PGHOST ?? '127.0.0.1'}:${process.env.PGPORT ?? 5432}`;
const DB_NAME = process.env.GATEHOUSE_BENCH_DB ?? 'gatehouse_bench_oauth_provider';
const REDIRECT = 'https://app.bench.example/callback';
const log = (s: string) => console.error(`\x1b[1m[oauth-provider]\x1b[0m ${s}`);

const admin = postgres(`${PG}/postgres`, { max: 1, onnotice: () => {} });
await admin.unsafe(`drop database if exists ${DB_NAME} with (force)`);
await admin.unsafe(`create database ${DB_NAME}`);
const port = 20000 + Math.floor(Math.random() * 20000);
const ceilingPort = port + 1;
const publicUrl = `http://127.0.0.1:${port}`;
const children: { proc: ReturnType<typeof Bun.spawn>; output: string }[] = [];
function spawn(cmd: string[], env: Record<string, string>) {
  const child = { proc: Bun.spawn(cmd, { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' }), output: '' };
  for (const stream of [child.proc.stdout, child.proc.stderr] as ReadableStream<Uint8Array>[]) {
    void (async () => { for await (const c of stream) child.output += new TextDecoder().decode(c); })();
  }
  children.push(child);
  return child;
}
async function waitFor(child: ReturnType<typeof spawn>, pattern: RegExp, what: string) {
  for (const t = Date.now(); !pattern.test(child.output); await Bun.sleep(100)) {
    if (child.proc.exitCode !== null || Date.now() - t > 300_000) throw new Error(`${what} did not start:\n${child.output}`);
  }
  return pattern.exec(child.output)!;
}

/** `total` calls of `one(i)`, CONCURRENCY at a time; answers calls per second. */
async function rate(total: number, one: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < total) await one(next++);
  }));
  return total / ((performance.now() - t0) / 1000);
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat (Linux; 100 ticks a second). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch { return NaN; }
}
/** `rate`, and the service's CPU milliseconds per call over the same time. */
async function measured(pid: number, total: number, one: (i: number) => Promise<void>): Promise<{ perS: number; cpuMs: number }> {
  const c0 = cpuSeconds(pid);
  const perS = await rate(total, one);
  return { perS, cpuMs: ((cpuSeconds(pid) - c0) * 1000) / total };
}

let exitCode = 0;
try {
  const bunFlags = (process.env.GATEHOUSE_BENCH_BUN_FLAGS ?? '').split(' ').filter(Boolean);
  const service = spawn([process.execPath, ...bunFlags, 'service/src/main.ts'], {
    NODE_ENV: 'production', PORT: String(port), DATABASE_URL: `${PG}/${DB_NAME}`, GATEHOUSE_PUBLIC_URL: publicUrl,
    GATEHOUSE_PROJECT_CREATION: 'open', GATEHOUSE_OWNER_MFA_REQUIRED: 'false', GATEHOUSE_RATE_LIMITS: 'off',
    GATEHOUSE_SERVER_SECRET: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64'),
  });
  await waitFor(service, /secret server key: *(\S+)/, 'the service');
  const { call, project, admin: adminH, server, client } = await benchProject(publicUrl, service.output, { display_name: 'OAuth provider bench' });
  const app = await call('POST', '/oauth-provider/clients', adminH, { display_name: 'Bench app', client_type: 'confidential', redirect_uris: [REDIRECT] });
  const basic = `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}`;
  const issuer = `${publicUrl}/oidc/${project.id}`;
  const discovery = await (await fetch(`${issuer}/.well-known/openid-configuration`)).json() as Record<string, string>;

  // People who sign in: each answers the consent API with their own Gatehouse access token.
  const people = await Promise.all(Array.from({ length: 8 }, async (_, i) => {
    const user = await call('POST', '/users', server, { primary_email: `person${i}@bench.local`, primary_email_auth_enabled: true, display_name: `Person ${i}` });
    return (await call('POST', '/auth/sessions', server, { user_id: user.id })).access_token as string;
  }));

  /** One authorization code through the real flow; answers it with its PKCE verifier. */
  async function authorizationCode(i: number): Promise<{ code: string; verifier: string }> {
    const jar = new CookieJar();
    const verifier = randomBytes(32).toString('base64url');
    const q = new URLSearchParams({
      client_id: app.client_id, redirect_uri: REDIRECT, response_type: 'code', scope: 'openid profile email offline_access', prompt: 'consent',
      state: `s${i}`, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
    });
    const start = await jar.fetch(`${discovery.authorization_endpoint}?${q}`);
    const interaction = new URL(start.headers.get('location') ?? '', issuer).searchParams.get('interaction');
    if (!interaction) throw new Error(`authorization request: ${start.status} ${await start.text()}`);
    const answer = await call('POST', `/oauth-provider/interactions/${interaction}`, { ...client, 'x-stack-access-token': people[i % people.length]! }, { allow: true });
    let next = new URL(answer.redirect_to);
    for (let hops = 0; next.href.startsWith(issuer) && hops < 5; hops++) {
      const res = await jar.fetch(next);
      next = new URL(res.headers.get('location') ?? '', next);
    }
    const code = next.searchParams.get('code');
    if (!code) throw new Error(`no code in ${next.href}`);
    return { code, verifier };
  }

  async function token(body: Record<string, string>): Promise<{ access_token: string; refresh_token: string }> {
    const res = await fetch(discovery.token_endpoint!, {
      method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body),
    });
    const json = await res.json() as { access_token: string; refresh_token: string };
    if (res.status !== 200 || !json.refresh_token) throw new Error(`token endpoint: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  // ---- Authorization-code exchanges: codes live 60 s, so they are made and exchanged in batches; only exchanges timed.
  const tokens: { access_token: string; refresh_token: string }[] = [];
  let exchangeSeconds = 0;
  let exchangeCpu = 0;
  for (let done = 0; done < CODES; done += BATCH) {
    const n = Math.min(BATCH, CODES - done);
    log(`making ${n} authorization codes through the flow (not timed; ${done} exchanged so far)`);
    const codes: { code: string; verifier: string }[] = [];
    await rate(n, async (i) => { codes[i] = await authorizationCode(done + i); });
    const t0 = performance.now();
    const c0 = cpuSeconds(service.proc.pid);
    await rate(n, async (i) => {
      tokens[done + i] = await token({ grant_type: 'authorization_code', code: codes[i]!.code, code_verifier: codes[i]!.verifier, redirect_uri: REDIRECT });
    });
    exchangeSeconds += (performance.now() - t0) / 1000;
    exchangeCpu += cpuSeconds(service.proc.pid) - c0;
  }
  const exchanges = { perS: CODES / exchangeSeconds, cpuMs: (exchangeCpu * 1000) / CODES };

  // ---- Refresh grants: every refresh token used once (each answer rotates it), twice over.
  log(`${CODES * 2} refresh grants`);
  const live = tokens.map((t) => t.refresh_token);
  const refreshes = await measured(service.proc.pid, CODES * 2, async (i) => {
    const k = i % CODES;
    // Each token is taken before its refresh starts: a rotated token is never sent twice.
    const current = live[k]!;
    live[k] = '';
    if (!current) throw new Error('a refresh token was sent before its previous refresh answered (more requests than tokens in flight)');
    live[k] = (await token({ grant_type: 'refresh_token', refresh_token: current })).refresh_token;
  });

  // ---- Userinfo with the access tokens issued.
  log(`${REQUESTS} userinfo requests`);
  const access = tokens.map((t) => t.access_token);
  const userinfo = await measured(service.proc.pid, REQUESTS, async (i) => {
    const res = await fetch(discovery.userinfo_endpoint!, { headers: { authorization: `Bearer ${access[i % access.length]}` } });
    if (res.status !== 200) throw new Error(`userinfo: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  });

  // ---- The DB ceiling, same database server, same load generator.
  log(`${REQUESTS} requests to the DB ceiling`);
  const ceilingProc = spawn([process.execPath, 'bench/ceiling-db.ts'], { DATABASE_URL: `${PG}/${DB_NAME}`, PORT: String(ceilingPort) });
  await waitFor(ceilingProc, /ready \d+/, 'the DB ceiling');
  const ceilingRun = await measured(ceilingProc.proc.pid, REQUESTS, async (i) => {
    const res = await fetch(`http://127.0.0.1:${ceilingPort}/users/${1 + (i % 10_000)}`);
    if (res.status !== 200) throw new Error(`ceiling: ${res.status}`);
    await res.arrayBuffer();
  });

  const ceiling = ceilingRun.perS;
  const [l1, l5, l15] = loadavg();
  const line = (what: string, m: { perS: number; cpuMs: number }) => `| ${what} | ${m.perS.toFixed(1)} per s | ${(m.perS / ceiling).toFixed(3)} | ${m.cpuMs.toFixed(2)} ms |`;
  console.log(`\n## Issue 27 figures (PostgreSQL, ${new Date().toISOString()}, load average ${l1!.toFixed(1)} / ${l5!.toFixed(1)} / ${l15!.toFixed(1)})\n`);
  console.log(`${CONCURRENCY} requests at a time from one Bun process (fetch), the same for every line.\n`);
  console.log('| what | figure | ratio to the DB ceiling | server CPU per request |');
  console.log('|---|---:|---:|---:|');
  console.log(line(`authorization-code exchanges (${CODES}; PKCE, client_secret_basic; ID, access and refresh token issued)`, exchanges));
  console.log(line(`refresh grants (${CODES * 2}; rotation)`, refreshes));
  console.log(line(`userinfo (${REQUESTS})`, userinfo));
  console.log(line(`DB ceiling: Bun + postgres.js, one primary-key SELECT (${REQUESTS})`, ceilingRun));
} catch (err) {
  console.error(err);
  for (const child of children) console.error(child.output.slice(-3000));
  exitCode = 1;
} finally {
  for (const child of children) child.proc.kill();
  await Promise.all(children.map((c) => c.proc.exited));
  await admin.unsafe(`drop database if exists ${DB_NAME} with (force)`);
  await admin.end();
}
process.exit(exitCode);
