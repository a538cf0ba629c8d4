// The library runs on Node 20 too: bundle the public entry for Node and drive it from a `node` child process
// against a local server (sign-in, current user, refresh-token store round trip).
import { afterAll, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwtExpiringIn, localServer } from './support.ts';

setDefaultTimeout(30_000);
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-node-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('bundled for Node, the client signs in, reads the user and refreshes through a 429', async () => {
  const build = await Bun.build({ entrypoints: [join(import.meta.dir, '../../src/client/index.ts')], target: 'node', format: 'esm', outdir: dir });
  expect(build.success).toBe(true);
  let rateLimited = false;
  const server = localServer(async (req, { path }) => {
    if (path === '/api/v1/auth/password/sign-in') {
      return Response.json({ access_token: jwtExpiringIn(-1000), refresh_token: 'rt-node', user_id: 'u1' });
    }
    if (path === '/api/v1/auth/oauth/token') return Response.json({ access_token: jwtExpiringIn(600_000), token_type: 'Bearer' });
    if (path === '/api/v1/users/me') {
      if (!rateLimited) {
        rateLimited = true;
        return new Response('', { status: 429, headers: { 'retry-after': '0' } });
      }
      return Response.json({ id: 'u1', primary_email: 'node@example.com', signed_up_at_millis: 1, oauth_providers: [], selected_team: null });
    }
    return undefined;
  });
  try {
    const script = join(dir, 'run.mjs');
    writeFileSync(
      script,
      `import { GatehouseClientApp } from './index.js';
const app = new GatehouseClientApp({ baseUrl: ${JSON.stringify(server.url)}, projectId: 'p', publishableClientKey: 'pck', tokenStore: 'memory',
  timers: { sleep: async () => {} }, logger: { warn() {} } });
const r = await app.signInWithCredential({ email: 'node@example.com', password: 'password-1', noRedirect: true });
const user = await app.getUser({ or: 'throw' });
console.log(JSON.stringify({ status: r.status, email: user.primaryEmail, node: process.version, refresh: (await user.getAuthJson()).refreshToken }));
`,
    );
    const proc = Bun.spawn(['node', script], { stdout: 'pipe', stderr: 'pipe' });
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    await proc.exited;
    expect(err).toBe('');
    const result = JSON.parse(out.trim());
    expect(result).toMatchObject({ status: 'ok', email: 'node@example.com', refresh: 'rt-node' });
    expect(result.node).toMatch(/^v2\d\./);
    expect(server.count('POST', '/api/v1/auth/oauth/token')).toBe(1);
    expect(server.count('GET', '/api/v1/users/me')).toBe(2);
  } finally {
    server.stop();
  }
});
