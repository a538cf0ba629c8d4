// The account kit is a real library: built (scripts/build.mjs), packed with `npm pack`, installed from the tarball
// into a fresh Vite + React app outside this repository, built with Vite, type-checked against the shipped .d.ts,
// and used in Chromium against the running service. The app's two source files are the README's snippets.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newProject, openDemo, screenshot, setupBrowserSuite, signUp } from './support/browser';

const KIT = join(import.meta.dir, '..');
const ROOT = join(KIT, '..');
const { svc } = await setupBrowserSuite();
setDefaultTimeout(300_000);

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(cmd, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}) in ${cwd}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** The README's code blocks that start with `// src/<file>` in the account kit section: file name → source. */
export function readmeSnippets(readme: string): Record<string, string> {
  const start = readme.indexOf('## Use the account kit in your React app');
  if (start < 0) throw new Error('README has no "Use the account kit in your React app" section');
  const end = readme.indexOf('\n## ', start + 5);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const files: Record<string, string> = {};
  for (const m of section.matchAll(/```tsx\n(\/\/ (src\/[\w.-]+)\n[\s\S]*?)```/g)) files[m[2]] = m[1];
  return files;
}

const VERSIONS = JSON.parse(readFileSync(join(KIT, 'package.json'), 'utf8'));
const dev = VERSIONS.devDependencies as Record<string, string>;
let appDir: string | undefined;
afterAll(() => { if (appDir && !process.env.KEEP_PACK_APP) rmSync(appDir, { recursive: true, force: true }); });

describe('the packed account kit in a host app', () => {
  test('build, pack, install into a Vite app outside the workspace, vite build, tsc, then sign in with it in Chromium', async () => {
    run('node', [join(KIT, 'scripts/build.mjs')], ROOT);
    expect(existsSync(join(KIT, 'dist/index.js'))).toBe(true);

    appDir = mkdtempSync(join(tmpdir(), 'gatehouse-kit-host-'));
    expect(appDir.startsWith(ROOT)).toBe(false);
    const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', appDir], KIT))[0];
    const shipped = (packed.files as { path: string }[]).map((f) => f.path);
    expect(shipped).toContain('dist/index.js');
    expect(shipped).toContain('dist/account-kit.css');
    expect(shipped).toContain('dist/types/account-kit/src/index.d.ts');
    expect(shipped.filter((p) => p.startsWith('src/') || p.startsWith('test/') || p.startsWith('demo/'))).toEqual([]);

    const snippets = readmeSnippets(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(Object.keys(snippets).sort()).toEqual(['src/App.tsx', 'src/main.tsx']);
    mkdirSync(join(appDir, 'src'));
    for (const [file, source] of Object.entries(snippets)) writeFileSync(join(appDir, file), source);
    writeFileSync(join(appDir, 'package.json'), JSON.stringify({
      name: 'host-app', private: true, type: 'module',
      dependencies: {
        '@gatehouse/account-kit': `file:./${packed.filename}`,
        react: dev.react, 'react-dom': dev['react-dom'],
        ...Object.fromEntries(['core', 'hooks', 'form', 'notifications', 'dropzone'].map((p) => [`@mantine/${p}`, dev[`@mantine/${p}`]])),
      },
      devDependencies: { vite: dev.vite, '@vitejs/plugin-react': dev['@vitejs/plugin-react'], '@types/react': dev['@types/react'], '@types/react-dom': dev['@types/react-dom'] },
    }, null, 2));
    writeFileSync(join(appDir, 'index.html'), '<!doctype html><html lang="en"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Host app</title></head><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>\n');
    writeFileSync(join(appDir, 'vite.config.ts'), "import { defineConfig } from 'vite';\nimport react from '@vitejs/plugin-react';\nexport default defineConfig({ plugins: [react()] });\n");
    writeFileSync(join(appDir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler', jsx: 'react-jsx', strict: true, noEmit: true, lib: ['ESNext', 'DOM', 'DOM.Iterable'], types: ['vite/client'], skipLibCheck: false },
      include: ['src'],
    }, null, 2));

    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], appDir);
    // The host resolves the kit from its own node_modules: the installed copy, not this workspace.
    expect(existsSync(join(appDir, 'node_modules/@gatehouse/account-kit/dist/index.js'))).toBe(true);
    expect(existsSync(join(appDir, 'node_modules/@gatehouse/shared'))).toBe(false);
    // Type-checked with the library's .d.ts, which are checked too (no skipLibCheck; Mantine's need ESNext's lib).
    run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(appDir, 'tsconfig.json')], appDir);

    const project = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false } });
    run(join(appDir, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], appDir, {
      VITE_GATEHOUSE_URL: svc.url, VITE_GATEHOUSE_PROJECT_ID: project.id, VITE_GATEHOUSE_PUBLISHABLE_CLIENT_KEY: project.keys.publishableClientKey,
    });

    // The host's own static server (another origin than the service), falling back to index.html like any SPA host.
    const dist = join(appDir, 'dist');
    const server = Bun.serve({
      port: 0, hostname: 'localhost',
      fetch(req) {
        const path = new URL(req.url).pathname;
        const file = Bun.file(join(dist, path));
        return path !== '/' && !path.includes('..') && existsSync(join(dist, path)) ? new Response(file) : new Response(Bun.file(join(dist, 'index.html')));
      },
    });
    try {
      const user = await signUp(project);
      const { context, page } = await openDemo(svc);
      await page.goto(`http://localhost:${server.port}/`);
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
      await screenshot(page, 'host-app-sign-in');
      await page.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.waitForURL((u) => u.port === String(server.port) && u.pathname === '/');
      await expect(page.getByTestId('greeting').textContent()).resolves.toBe(`Hello, ${user.email}`);
      await page.getByRole('button', { name: 'Open account menu' }).click();
      await page.getByRole('menu').getByText(user.email).waitFor();
      await screenshot(page, 'host-app-signed-in');
      await context.close();
    } finally {
      server.stop(true);
    }
  });
});
