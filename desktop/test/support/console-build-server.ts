// The console's web build (desktop/out/web, built by `node scripts/build-ui.mjs`) served alone, at an origin of its
// own: a stand-in for the desktop app's window, whose page is not the service's (links to the service open outside).
import { afterAll } from 'bun:test';
import { existsSync } from 'node:fs';
import { join, normalize } from 'node:path';

const WEB = join(import.meta.dir, '../../out/web');
let server: ReturnType<typeof Bun.serve> | undefined;
// At the top of the importing file's run (an afterAll registered inside a test runs when that test ends). A worker
// of `npm test` (--no-isolate) evaluates this module once for all its files: this runs when the first of them ends,
// and a later file then gets a server of its own (a stopped one's port reads 0: Chromium refused 127.0.0.1:0).
afterAll(() => {
  server?.stop(true);
  server = undefined;
});

/** `http://127.0.0.1:{port}/console/`; the server stops after the file's tests. */
export function serveConsoleBuild(): string {
  if (!existsSync(join(WEB, 'index.html'))) throw new Error('The console is not built: run `node scripts/build-ui.mjs` (npm test does).');
  if (!server) {
    server = Bun.serve({
      port: 0, hostname: '127.0.0.1',
      fetch(req) {
        // Chromium asks a web server for a favicon; the app loaded from file:// never does.
        if (new URL(req.url).pathname === '/favicon.ico') return new Response(null, { status: 204 });
        const path = new URL(req.url).pathname.replace(/^\/console/, '');
        const file = normalize(join(WEB, path));
        if (!file.startsWith(WEB)) return new Response('no', { status: 403 });
        const f = Bun.file(path === '/' || path === '' || !path.includes('.') ? join(WEB, 'index.html') : file);
        return f.size ? new Response(f) : new Response('not found', { status: 404 });
      },
    });
  }
  return `http://127.0.0.1:${server.port}/console/`;
}
