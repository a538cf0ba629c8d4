// The README's first steps run as written (issue 15 §1): each fenced block after a `<!-- readme-test: NAME -->`
// marker is taken from README.md and run against a started service (curl blocks with bash, TypeScript blocks
// with bun), only the README's http://localhost:8102 replaced by the test service's address. A README edit
// that breaks a step, or drops one, fails here.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientApi, startService, type RunningService } from './support/service';

setDefaultTimeout(60_000);
const REPO = join(import.meta.dir, '../..');
// Inside the repository, so that the snippets' imports resolve through its node_modules as an app's would.
const SCRATCH = join(REPO, 'node_modules/.cache/readme-test', crypto.randomUUID());

export function readmeBlocks(markdown: string): Map<string, { lang: string; code: string }> {
  const blocks = new Map<string, { lang: string; code: string }>();
  for (const m of markdown.matchAll(/<!-- readme-test: ([\w-]+) -->\n```(\w+)\n([\s\S]*?)\n```/g)) blocks.set(m[1], { lang: m[2], code: m[3] });
  return blocks;
}

const blocks = readmeBlocks(readFileSync(join(REPO, 'README.md'), 'utf8'));
let svc: RunningService;
beforeAll(async () => {
  mkdirSync(SCRATCH, { recursive: true });
  svc = await startService({ env: { DATABASE_URL: '' } });
}, 60_000);
afterAll(async () => {
  await svc?.stop();
  rmSync(SCRATCH, { recursive: true, force: true });
});

function snippet(name: string, lang: string): string {
  const block = blocks.get(name);
  expect(block, `README block "${name}"`).toBeDefined();
  expect(block!.lang).toBe(lang);
  expect(block!.code).toContain('http://localhost:8102');
  return block!.code.replaceAll('http://localhost:8102', svc.url);
}

async function run(cmd: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn(cmd, { cwd: REPO, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const code = await proc.exited;
  expect({ code, err: code === 0 ? '' : err }).toEqual({ code: 0, err: '' });
  return out;
}
const runShell = async (name: string, env: Record<string, string> = {}) => JSON.parse(await run(['bash', '-euo', 'pipefail', '-c', snippet(name, 'sh')], env));
async function runTs(name: string) {
  const file = join(SCRATCH, `${name}.ts`);
  writeFileSync(file, snippet(name, 'ts'));
  return (await run([process.execPath, file])).trim();
}

describe('README: first sign-up, own project, apps', () => {
  const state: { accessToken?: string; projectId?: string } = {};

  test('curl: sign up alice in the internal project', async () => {
    const body = await runShell('curl-sign-up');
    state.accessToken = body.access_token;
    expect(Object.keys(body).sort()).toEqual(['access_token', 'refresh_token', 'user_id']);
    expect(state.accessToken).toMatch(/^eyJ/);
  });

  test('curl: /users/me with the access token', async () => {
    const me = await runShell('curl-me', { ACCESS_TOKEN: state.accessToken! });
    expect(me).toMatchObject({ primary_email: 'alice@example.com', primary_email_verified: false });
  });

  test('curl: alice creates her project, then its keys, which work', async () => {
    const project = await runShell('curl-create-project', { ACCESS_TOKEN: state.accessToken! });
    // (Bun's toMatchObject writes its asymmetric matchers into the object it checks: read the values first.)
    const projectId: string = project.id;
    expect(typeof projectId).toBe('string');
    expect(project.display_name).toBe('My app');
    const keys = await runShell('curl-create-keys', { ACCESS_TOKEN: state.accessToken!, PROJECT_ID: projectId });
    const publishableKey: string = keys.publishable_client_key;
    expect({ pck: typeof publishableKey, ssk: typeof keys.secret_server_key, sak: keys.super_secret_admin_key }).toEqual({ pck: 'string', ssk: 'string', sak: undefined });
    // The new keys are the project's: a client of that project signs a user up with them.
    const client = clientApi(svc.url, projectId, publishableKey);
    expect((await client.get('/projects/current')).body).toMatchObject({ id: projectId, display_name: 'My app' });
    expect((await client.post('/auth/password/sign-up', { email: 'first@example.com', password: 'correct-horse-battery' })).status).toBe(200);
  });

  test('the client library snippet signs bob up and reads him back', async () => {
    expect(await runTs('client-library')).toMatch(/^[0-9a-f-]{36} bob@example\.com$/);
  });

  test("Stack Auth's SDK (@stackframe/js 2.8.3) pointed at Gatehouse signs carol up and reads her back", async () => {
    expect(await runTs('stackframe-js')).toMatch(/^[0-9a-f-]{36} carol@example\.com$/);
  });
});
