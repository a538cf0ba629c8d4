// The client library is a real package: built (shared/scripts/build.mjs), packed with `npm pack`, installed from
// the tarball outside this repository and used, against a started service, from (a) a plain Node 20 script, (b) a
// fresh Vite react-ts app made by create-vite with its default tsconfig, built and opened in Chromium, (c) Bun.
// Each signs a new user up and reads the current user back.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedBrowser } from '../../account-kit/test/support/browser';
import { sharedService, uniqueEmail } from '../../service/test/support/service';
import { newProject, type TestProject } from '../../service/test/support/projects';

setDefaultTimeout(300_000);
const SHARED = join(import.meta.dir, '..');
const ROOT = join(SHARED, '..');
const CREATE_VITE = 'create-vite@9.3.0';
const work = mkdtempSync(join(tmpdir(), 'gatehouse-client-package-'));
afterAll(() => { if (!process.env.KEEP_PACK_APP) rmSync(work, { recursive: true, force: true }); });

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(cmd, args, { cwd, env: { ...process.env, CI: 'true', ...env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}) in ${cwd}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}
const npmInstall = (cwd: string, ...pkgs: string[]) => run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...pkgs], cwd);

// A script a user would write: sign up, then read the signed-in user. Plain JavaScript, so Node runs it as is.
const SCRIPT = `import { GatehouseClientApp } from '@gatehouse/shared/client';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { isValidEmail } from '@gatehouse/shared/rules';

const [baseUrl, projectId, publishableClientKey, email] = process.argv.slice(2);
const app = new GatehouseClientApp({ baseUrl, projectId, publishableClientKey, tokenStore: 'memory' });
// Outside a browser there is no page to send the verification link back to: name it.
const options = { email, password: 'a long passphrase 1', noRedirect: true, verificationCallbackUrl: 'https://app.example.com/handler/email-verification' };
const signUp = await app.signUpWithCredential(options);
if (signUp.status === 'error') throw signUp.error;
const again = await app.signUpWithCredential(options);
const user = await app.getUser({ or: 'throw' });
console.log(JSON.stringify({
  email: user.primaryEmail,
  duplicate: again.status === 'error' && again.error instanceof KnownErrors.UserEmailAlreadyExists,
  rule: isValidEmail(email),
}));
`;

let tarball = '';
let project: TestProject;
let baseUrl = '';

describe('the packed client library', () => {
  test('builds and packs: entry points for users, declarations, README and licence; no sources or tests', async () => {
    run('node', [join(SHARED, 'scripts/build.mjs')], ROOT);
    const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], join(SHARED, 'dist')))[0];
    tarball = join(work, packed.filename);
    const shipped = (packed.files as { path: string }[]).map((f) => f.path);
    for (const f of ['package.json', 'README.md', 'LICENSE', 'client.js', 'known-errors.js', 'rules.js', 'index.js', 'types/client/index.d.ts']) {
      expect(shipped).toContain(f);
    }
    expect(shipped.filter((p) => /^(src|test|examples|scripts)\//.test(p) || p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(SHARED, 'dist/package.json'), 'utf8'));
    expect(Object.keys(manifest.exports).sort()).toEqual(['.', './client', './known-errors', './rules']);
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe('MIT');
    // The README is written for users: nothing points into this repository.
    expect(readFileSync(join(SHARED, 'dist/README.md'), 'utf8')).not.toMatch(/\.\.\/|docs\/spec|CONTRIBUTING/);

    const svc = await sharedService();
    baseUrl = svc.url;
    project = await newProject(svc, { config: { credential_enabled: true } });
  });

  test('(a) a plain Node 20 script, type-checked under NodeNext resolution', () => {
    const dir = join(work, 'node-app');
    run('mkdir', ['-p', dir], work);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'node-app', private: true, type: 'module' }));
    npmInstall(dir, tarball);
    expect(existsSync(join(dir, 'node_modules/@gatehouse/shared/client.js'))).toBe(true);
    writeFileSync(join(dir, 'check.mjs'), SCRIPT);
    const email = uniqueEmail('node');
    const out = JSON.parse(run('node', ['check.mjs', baseUrl, project.id, project.keys.publishableClientKey, email], dir).trim());
    expect(out).toEqual({ email, duplicate: true, rule: true });

    // The same code as TypeScript, checked against the shipped declarations with no skipLibCheck, the strictest
    // resolution a Node user may choose.
    writeFileSync(join(dir, 'check.ts'), SCRIPT.replace('process.argv', '(process as any).argv').replace(/^/, 'declare const process: unknown;\n'));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, lib: ['ES2022', 'DOM'], types: [] },
      files: ['check.ts'],
    }));
    run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], dir);
  });

  test('(c) Bun runs the same script from the installed package', () => {
    const dir = join(work, 'node-app');
    const email = uniqueEmail('bun');
    const out = JSON.parse(run(process.execPath, ['check.mjs', baseUrl, project.id, project.keys.publishableClientKey, email], dir).trim());
    expect(out).toEqual({ email, duplicate: true, rule: true });
  });

  test('(b) a fresh create-vite react-ts app with its default tsconfig: tsc -b, vite build, then it signs up in Chromium', async () => {
    run('npm', ['exec', '--yes', CREATE_VITE, '--', 'vite-app', '--template', 'react-ts', '--no-interactive'], work);
    const dir = join(work, 'vite-app');
    const tsconfig = readFileSync(join(dir, 'tsconfig.app.json'), 'utf8');
    expect(tsconfig).toContain('"erasableSyntaxOnly": true'); // the setting the TypeScript sources failed under
    // One install: the template's own dependencies and the packed library together (two took a second resolve).
    npmInstall(dir, tarball);
    writeFileSync(join(dir, 'src/App.tsx'), `import { useEffect, useState } from 'react';
import { GatehouseClientApp, type CurrentUser } from '@gatehouse/shared/client';

const app = new GatehouseClientApp({
  baseUrl: import.meta.env.VITE_GATEHOUSE_URL,
  projectId: import.meta.env.VITE_GATEHOUSE_PROJECT_ID,
  publishableClientKey: import.meta.env.VITE_GATEHOUSE_PUBLISHABLE_CLIENT_KEY,
  tokenStore: 'memory',
});

export default function App() {
  const [user, setUser] = useState<CurrentUser | null>(null);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    const email = new URLSearchParams(location.search).get('email') ?? '';
    void app.signUpWithCredential({ email, password: 'a long passphrase 1', noRedirect: true }).then(async (result) => {
      if (result.status === 'error') return setProblem(result.error.message);
      setUser(await app.getUser({ or: 'throw' }));
    });
  }, []);
  return <main>{user ? <p data-testid="user">{user.primaryEmail}</p> : <p>{problem || 'Signing up…'}</p>}</main>;
}
`);
    run('npm', ['run', 'build', '--silent'], dir, {
      VITE_GATEHOUSE_URL: baseUrl, VITE_GATEHOUSE_PROJECT_ID: project.id, VITE_GATEHOUSE_PUBLISHABLE_CLIENT_KEY: project.keys.publishableClientKey,
    });

    const dist = join(dir, 'dist');
    const server = Bun.serve({
      port: 0, hostname: 'localhost',
      fetch(req) {
        const path = new URL(req.url).pathname;
        return path !== '/' && !path.includes('..') && existsSync(join(dist, path)) ? new Response(Bun.file(join(dist, path))) : new Response(Bun.file(join(dist, 'index.html')));
      },
    });
    const context = await (await sharedBrowser()).newContext();
    try {
      const page = await context.newPage();
      const email = uniqueEmail('vite');
      await page.goto(`http://localhost:${server.port}/?email=${encodeURIComponent(email)}`);
      await expect(page.getByTestId('user').textContent()).resolves.toBe(email);
    } finally {
      await context.close();
      server.stop(true);
    }
  });
});
