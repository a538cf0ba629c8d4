// `electron-vite build` (the root electron.vite.config.ts) produces the main process (ESM), the sandbox-ready
// preload (one CommonJS file, no imports) and the renderer; the built renderer runs in Chromium with the preload
// bridge stubbed, under its Content-Security-Policy, and talks only to the bridge.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { spawnSync } from 'node:child_process';
import { sharedBrowser } from '../../account-kit/test/support/browser';
import { screenshot, expectAccessible } from './support/console';

setDefaultTimeout(300_000);
const ROOT = join(import.meta.dir, '../..');
const OUT = join(ROOT, 'desktop/out');
let server: ReturnType<typeof Bun.serve> | undefined;
afterAll(() => server?.stop(true));

describe('electron-vite build', () => {
  test('builds main, preload and renderer into desktop/out', () => {
    const r = spawnSync(join(ROOT, 'node_modules/.bin/electron-vite'), ['build', '--config', 'electron.vite.config.ts'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr + r.stdout).toBe(0);
    const main = readFileSync(join(OUT, 'main/index.js'), 'utf8');
    expect(main).toMatch(/^import .* from "electron";/m);
    expect(main).toContain('sandbox: true');
    expect(main).toContain('contextIsolation: true');
    expect(main).toContain('requestSingleInstanceLock');
    const preload = readFileSync(join(OUT, 'preload/index.cjs'), 'utf8');
    expect(preload).toContain('require("electron")');
    expect(preload).not.toMatch(/^\s*import\s/m);
    expect(preload).toContain('exposeInMainWorld("gatehouseConsole"');
    expect(preload).not.toContain('exposeInMainWorld("ipcRenderer"');
    const html = readFileSync(join(OUT, 'renderer/index.html'), 'utf8');
    expect(html).toContain('http-equiv="Content-Security-Policy"');
    expect(html).toContain("script-src 'self'");
    expect(existsSync(join(OUT, 'renderer/assets'))).toBe(true);
  });

  test('the built renderer loads in Chromium with the bridge stubbed, and uses it', async () => {
    const dir = join(OUT, 'renderer');
    server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch(req) {
        // Chromium asks a web server for a favicon; the app loaded from file:// never does.
        if (new URL(req.url).pathname === '/favicon.ico') return new Response(null, { status: 204 });
        const path = normalize(join(dir, new URL(req.url).pathname));
        if (!path.startsWith(dir)) return new Response('no', { status: 403 });
        const file = Bun.file(path.endsWith('/') ? join(path, 'index.html') : path);
        return file.size ? new Response(file) : new Response('not found', { status: 404 });
      },
    });
    const browser = await sharedBrowser();
    const context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    // What the preload exposes, recorded: the page may use only these calls.
    await page.addInitScript(() => {
      const calls: string[] = [];
      (window as any).__bridgeCalls = calls;
      (window as any).gatehouseConsole = Object.freeze({
        platform: 'desktop',
        listConnections: async () => { calls.push('listConnections'); return [{ id: 'c1', kind: 'project', serviceUrl: 'https://auth.example.com', projectId: 'proj-1', label: 'proj-1 @ auth.example.com' }]; },
        saveConnection: async (c: any) => { calls.push('saveConnection'); return { ...c, id: 'c2' }; },
        removeConnection: async () => { calls.push('removeConnection'); },
        storeSecret: async () => { calls.push('storeSecret'); },
        loadSessionToken: async () => { calls.push('loadSessionToken'); return null; },
        request: async () => { calls.push('request'); return { status: 200, headers: {}, body: '{}' }; },
        openExternal: async () => { calls.push('openExternal'); },
        signInReturnBase: async () => { calls.push('signInReturnBase'); return 'http://127.0.0.1:1/gatehouse-console/'; },
        onSignInReturn: () => { calls.push('onSignInReturn'); return () => {}; },
      });
    });
    await page.goto(`http://127.0.0.1:${server.port}/index.html`);
    await page.getByRole('heading', { name: 'Connect to Gatehouse' }).waitFor();
    await page.getByText('proj-1 @ auth.example.com').waitFor();
    // The desktop app proposes the local service and lets the owner type another one.
    expect(await page.getByLabel('Service URL').first().inputValue()).toBe('http://localhost:8102');
    expect(await page.getByLabel('Service URL').first().getAttribute('readonly')).toBeNull();
    expect(await page.evaluate(() => (window as any).__bridgeCalls)).toContain('listConnections');
    // The window listens for the owners' sign-in returns the main process hands over (sign-in-returns.ts).
    expect(await page.evaluate(() => (window as any).__bridgeCalls)).toContain('onSignInReturn');
    await screenshot(page, 'desktop-renderer-connect');
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  });
});
