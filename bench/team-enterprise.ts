// `npm run bench:enterprise`: issue 28's figures on PostgreSQL. (1) SAML sign-ins per second through a team's
// connection, excluding the IdP's own time: the AuthnRequests are made and the responses signed first (samlify, the
// tests' IdP), then the timed part posts each response to the ACS and redeems the code, GATEHOUSE_BENCH_CONCURRENCY at
// a time (default 16): first sign-ins (just-in-time users), then the same people again. (2) SCIM list with a filter at
// GATEHOUSE_BENCH_SCIM_USERS provisioned users (default 100000, seeded by set-based SQL): sequential requests,
// p50/p95 of `userName eq`, `externalId eq` and the unfiltered first page.
import { createHash, randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import postgres from 'postgres';
import { startTestDns } from '../service/test/support/dns';
import { startSamlIdp } from '../service/test/support/saml-idp';
import { benchProject } from './support/bench-project';

const SIGN_INS = Number(process.env.GATEHOUSE_BENCH_SIGN_INS ?? 400);
const CONCURRENCY = Number(process.env.GATEHOUSE_BENCH_CONCURRENCY ?? 16);
const SCIM_USERS = Number(process.env.GATEHOUSE_BENCH_SCIM_USERS ?? 100_000);
const REQUESTS = Number(process.env.GATEHOUSE_BENCH_REQUESTS ?? 200);
const PG = `postgres://${process.env.PGUSER ?? 'postgres'}@${process.env.PGHOST ?? '127.0.0.1'}:${process.env.PGPORT ?? 5432}`;
const DB_NAME = process.env.GATEHOUSE_BENCH_DB ?? 'gatehouse_bench_enterprise';
const log = (s: string) => console.error(`\x1b[1m[enterprise]\x1b[0m ${s}`);

const admin = postgres(`${PG}/postgres`, { max: 1, onnotice: () => {} });
await admin.unsafe(`drop database if exists ${DB_NAME} with (force)`);
await admin.unsafe(`create database ${DB_NAME}`);
const dns = await startTestDns();
const idp = await startSamlIdp('bench-idp');
const port = 20000 + Math.floor(Math.random() * 20000);
const publicUrl = `http://127.0.0.1:${port}`;
const service = Bun.spawn([process.execPath, 'service/src/main.ts'], {
  env: {
    ...process.env, NODE_ENV: 'production', PORT: String(port), DATABASE_URL: `${PG}/${DB_NAME}`, GATEHOUSE_PUBLIC_URL: publicUrl,
    GATEHOUSE_PROJECT_CREATION: 'open', GATEHOUSE_OWNER_MFA_REQUIRED: 'false', GATEHOUSE_DNS_SERVERS: dns.address, GATEHOUSE_RATE_LIMITS: 'off',
    GATEHOUSE_SERVER_SECRET: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64'),
  },
  stdout: 'pipe', stderr: 'pipe',
});
let output = '';
void (async () => { for await (const c of service.stdout) output += new TextDecoder().decode(c); })();
void (async () => { for await (const c of service.stderr) output += new TextDecoder().decode(c); })();
const sql = postgres(`${PG}/${DB_NAME}`, { max: 2, onnotice: () => {} });
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
let exitCode = 0;
try {
  for (let t = Date.now(); !/secret server key: *(\S+)/.test(output); await Bun.sleep(100)) {
    if (service.exitCode !== null || Date.now() - t > 300_000) throw new Error(`service did not start:\n${output}`);
  }
  const { call, base, project, keys, server } = await benchProject(publicUrl, output, {
    display_name: 'Enterprise bench', config: { domains: [{ domain: 'https://app.bench.example', handler_path: '/handler' }] },
  });
  const domain = 'bench-corp.example';
  const team = await call('POST', '/teams', server, { display_name: 'Bench Corp' });
  const claimed = await call('POST', `/teams/${team.id}/domains`, server, { domain });
  dns.setTxt(claimed.txt_record.name, [claimed.txt_record.value]);
  await call('POST', `/teams/${team.id}/domains/${claimed.id}/verify`, server, {});
  // Production wants an https SSO URL: the IdP is never visited here (its responses are made in-process).
  const connection = await call('POST', `/teams/${team.id}/sso-connections`, server, {
    type: 'saml', idp_entity_id: idp.entityId, idp_sso_url: 'https://idp.bench.example/sso', idp_certificate: idp.certificatePem,
  });
  const appCallback = 'https://app.bench.example/handler/oauth-callback';

  // ---- SAML sign-ins
  async function prepare(n: number, emailOf: (i: number) => string) {
    const flows = [];
    for (let i = 0; i < n; i++) {
      const verifier = randomBytes(32).toString('base64url');
      const q = new URLSearchParams({
        client_id: project.id, client_secret: keys.publishable_client_key, redirect_uri: appCallback, scope: 'legacy', state: `s${i}`,
        grant_type: 'authorization_code', code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
        response_type: 'code', connection_id: connection.id,
      });
      const res = await fetch(`${base}/auth/sso/authorize?${q}`, { redirect: 'manual' });
      const location = new URL(res.headers.get('location')!);
      const requestXml = inflateRawSync(Buffer.from(location.searchParams.get('SAMLRequest')!, 'base64')).toString();
      const requestId = /ID="([^"]+)"/.exec(requestXml)![1]!;
      const samlResponse = await idp.response({ entityId: connection.sp_entity_id, acsUrl: connection.acs_url }, { user: { email: emailOf(i), displayName: `Person ${i}` }, requestId, signAssertion: true });
      flows.push({ verifier, relayState: location.searchParams.get('RelayState')!, samlResponse });
    }
    return flows;
  }
  async function timed(flows: Awaited<ReturnType<typeof prepare>>) {
    let next = 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < flows.length) {
        const f = flows[next++]!;
        const acs = await fetch(connection.acs_url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ SAMLResponse: f.samlResponse, RelayState: f.relayState }) });
        const code = new URL(acs.headers.get('location')!).searchParams.get('code');
        if (!code) throw new Error(`ACS answered ${acs.status}: ${await acs.text()}`);
        const token = await fetch(`${base}/auth/oauth/token`, {
          method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-stack-project-id': project.id, 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': keys.publishable_client_key },
          body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: appCallback, client_id: project.id, client_secret: keys.publishable_client_key, code_verifier: f.verifier }),
        });
        if (token.status !== 200) throw new Error(`token: ${token.status} ${await token.text()}`);
        await token.arrayBuffer();
      }
    }));
    return flows.length / ((performance.now() - t0) / 1000);
  }
  const email = (i: number) => `person${i}@${domain}`;
  log(`preparing ${SIGN_INS} first sign-ins (AuthnRequests made, responses signed; not timed)`);
  const first = await timed(await prepare(SIGN_INS, email));
  log(`preparing ${SIGN_INS} sign-ins of the same people again`);
  const again = await timed(await prepare(SIGN_INS, email));

  // ---- SCIM list at SCIM_USERS provisioned users
  log(`seeding ${SCIM_USERS} SCIM users`);
  await sql.begin(async (tx) => {
    // As bench/scale-seed.ts does: the rows are complete as written (the summary columns set), so the triggers that
    // keep them are skipped for the seed.
    await tx`set local session_replication_role = replica`;
    await tx`insert into users (id, project_id, display_name, primary_email, primary_email_verified, primary_email_auth_enabled)
      select gen_random_uuid(), ${project.id}, 'Seeded ' || i, 'seeded' || i || '@' || ${domain}, true, true from generate_series(1, ${SCIM_USERS}::int) i`;
    await tx`insert into scim_users (project_id, team_id, user_id, user_name, external_id, active)
      select ${project.id}, ${team.id}, id, 'seeded' || substr(display_name, 8) || '@' || ${domain}, 'ext-' || substr(display_name, 8), true from users where project_id = ${project.id} and display_name like 'Seeded %'`;
  });
  await sql`vacuum analyze scim_users`;
  await sql`vacuum analyze users`;
  const token = await call('POST', `/teams/${team.id}/scim-tokens`, server, { description: 'bench' });
  const scimGet = async (path: string) => {
    const t0 = performance.now();
    const res = await fetch(`${token.scim_base_url}${path}`, { headers: { authorization: `Bearer ${token.token}` } });
    const body = await res.json() as { totalResults: number };
    if (res.status !== 200) throw new Error(`SCIM ${path}: ${res.status}`);
    return { ms: performance.now() - t0, total: body.totalResults };
  };
  const measure = async (name: string, path: (i: number) => string, expectTotal?: number) => {
    // Warm-up (connections, caches, the token's row), not counted.
    for (let k = 0; k < 20; k++) await scimGet(path(1 + Math.floor(Math.random() * SCIM_USERS)));
    const ms: number[] = [];
    for (let k = 0; k < REQUESTS; k++) {
      const r = await scimGet(path(1 + Math.floor(Math.random() * SCIM_USERS)));
      if (expectTotal !== undefined && r.total !== expectTotal) throw new Error(`${name}: ${r.total} results`);
      ms.push(r.ms);
    }
    return { name, p50: percentile(ms, 0.5), p95: percentile(ms, 0.95) };
  };
  const scim = [
    await measure('filter userName eq', (i) => `/Users?filter=${encodeURIComponent(`userName eq "seeded${i}@${domain}"`)}`, 1),
    await measure('filter externalId eq', (i) => `/Users?filter=${encodeURIComponent(`externalId eq "ext-${i}"`)}`, 1),
    await measure('first page (100), no filter', () => '/Users?startIndex=1&count=100'),
  ];

  console.log(`\n## Issue 28 figures (PostgreSQL, ${new Date().toISOString()})\n`);
  console.log(`SAML sign-ins through a team's connection (ACS post + code redemption; IdP time excluded), ${CONCURRENCY} at a time:`);
  console.log(`- first sign-ins (just-in-time users): ${first.toFixed(1)} per s`);
  console.log(`- returning people: ${again.toFixed(1)} per s`);
  console.log(`\nSCIM GET /Users at ${SCIM_USERS} provisioned users, ${REQUESTS} sequential requests each:`);
  for (const r of scim) console.log(`- ${r.name}: p50 ${r.p50.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms`);
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  service.kill();
  await service.exited;
  idp.close();
  await dns.close();
  await sql.end();
  await admin.unsafe(`drop database if exists ${DB_NAME} with (force)`);
  await admin.end();
}
process.exit(exitCode);
