// Browser bundles get environment values only where the code reads `process.env.NAME` literally: a bundler's
// define (Next.js, webpack, esbuild, Bun) replaces those expressions at build time, and no `process` exists at
// run time. The public entry is bundled for the browser with defines, then run in a context without `process`.
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

// A page script that imports the library and hands the app class to the test.
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const entry = join(dir, 'page.ts');
writeFileSync(entry, `import { GatehouseClientApp } from ${JSON.stringify(join(import.meta.dir, '../../src/client/index.ts'))};
globalThis.Gatehouse = { GatehouseClientApp };
`);

async function bundleForBrowser(define: Record<string, string>): Promise<string> {
  const build = await Bun.build({ entrypoints: [entry], target: 'browser', format: 'iife', define });
  expect(build.success).toBe(true);
  return await build.outputs[0]!.text();
}

/** Runs the bundle with no `process` global and builds a client app from no options; its project id or error. */
function projectIdIn(code: string): { projectId?: string; baseUrl?: string; error?: string } {
  const sandbox: Record<string, unknown> = { URL, TextEncoder, TextDecoder, crypto, setTimeout, clearTimeout, console, AbortController, Headers, Response, Request, fetch };
  expect('process' in sandbox).toBe(false);
  return runInNewContext(`${code}
    (() => {
      try {
        const app = new Gatehouse.GatehouseClientApp({ tokenStore: 'memory' });
        return { projectId: app.projectId };
      } catch (e) { return { error: String(e.message) }; }
    })()`, sandbox);
}

test('defined NEXT_PUBLIC_* values reach a browser bundle that has no process at run time', async () => {
  const code = await bundleForBrowser({
    'process.env.NEXT_PUBLIC_STACK_PROJECT_ID': JSON.stringify('project-from-the-build'),
    'process.env.NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY': JSON.stringify('pck_from_the_build'),
  });
  expect(code).toContain('project-from-the-build');
  expect(projectIdIn(code)).toEqual({ projectId: 'project-from-the-build' });
});

test('without defines the bundle runs too (no process): the missing project id is the documented error', async () => {
  const result = projectIdIn(await bundleForBrowser({}));
  expect(result.error).toContain('NEXT_PUBLIC_STACK_PROJECT_ID');
  expect(result.error).not.toContain('process is not defined');
});
