// Seeds a fresh project in a running Gatehouse over its HTTP API, the way an operator would:
// an internal user (server key of the internal project) creates a project and an API key set for it,
// then the project gets BENCH_USERS users with sessions and BENCH_SIGNIN_USERS users with a password.
// Writes access.txt, refresh.txt, emails.txt and env.sh into BENCH_OUT.
import { mkdirSync, writeFileSync } from 'node:fs';

const base = process.env.BENCH_URL!;
const internal = { pck: process.env.INTERNAL_PCK!, ssk: process.env.INTERNAL_SSK! };
const nUsers = Number(process.env.BENCH_USERS ?? 2000);
const nSignIn = Number(process.env.BENCH_SIGNIN_USERS ?? 200);
const password = process.env.BENCH_PASSWORD ?? 'bench-password-1';
const out = process.env.BENCH_OUT!;
mkdirSync(out, { recursive: true });

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} -> ${res.status}: ${text}`);
  return JSON.parse(text);
}

async function pool<T>(n: number, concurrency: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(n);
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < n) { const i = next++; results[i] = await fn(i); }
  }));
  return results;
}

const t0 = performance.now();
const internalServer = { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'server', 'x-stack-secret-server-key': internal.ssk };
const owner = await call('POST', '/users', internalServer, { primary_email: `owner-${Date.now()}@bench.local`, primary_email_auth_enabled: true });
const ownerSession = await call('POST', '/auth/sessions', internalServer, { user_id: owner.id });
const project = await call('POST', '/internal/projects', {
  'x-stack-project-id': 'internal', 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': internal.pck,
  'x-stack-access-token': ownerSession.access_token,
}, { display_name: 'Bench' });
const keys = await call('POST', '/internal/api-keys', {
  'x-stack-project-id': project.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': ownerSession.access_token,
}, { description: 'bench', expires_at_millis: Date.now() + 86_400_000, has_publishable_client_key: true, has_secret_server_key: true, has_super_secret_admin_key: false });

const server = { 'x-stack-project-id': project.id, 'x-stack-access-type': 'server', 'x-stack-secret-server-key': keys.secret_server_key };
const sessions = await pool(nUsers, 16, async (i) => {
  const user = await call('POST', '/users', server, { primary_email: `user${i}@bench.local`, primary_email_auth_enabled: true, display_name: `User ${i}` });
  return call('POST', '/auth/sessions', server, { user_id: user.id });
});
// Users with a password are created through the API too, so their hashes carry the service's argon2id parameters.
const emails = await pool(nSignIn, 8, async (i) => {
  const email = `signin${i}@bench.local`;
  await call('POST', '/users', server, { primary_email: email, primary_email_auth_enabled: true, password });
  return email;
});

writeFileSync(`${out}/access.txt`, sessions.map((s) => s.access_token).join('\n') + '\n');
writeFileSync(`${out}/refresh.txt`, sessions.map((s) => s.refresh_token).join('\n') + '\n');
writeFileSync(`${out}/emails.txt`, emails.join('\n') + '\n');
writeFileSync(`${out}/env.sh`, `export BENCH_PROJECT=${project.id}\nexport BENCH_PCK=${keys.publishable_client_key}\nexport BENCH_PASSWORD=${password}\n`);
console.log(`seeded project ${project.id}: ${nUsers} users with sessions, ${nSignIn} with passwords in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
