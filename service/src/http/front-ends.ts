// Serves the built front ends beside the API: the account kit's demo app at / (its auth pages under
// /handler) and the owner console at /console. Both are single-page apps: a path that is not a file gets the
// app's index.html. Nothing here is built at run time; `npm start` builds the front ends before the service.
import { existsSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import type { Services } from '../services';
import * as apiKeys from '../repo/project-keys';
import { DEMO_DEV_KEYS, DEMO_PROJECT_ID, DEV_KEYS } from '../dev-keys';
import { demoKeyValid } from '../demo-project';
import { consolePolicy, demoPolicy } from './content-security';
import { runningDevIssuer } from '../oauth/dev-issuer';
import { REPO_ROOT } from '../install-root';

export const FRONT_END_DIRS = {
  demo: join(REPO_ROOT, 'account-kit/demo/dist'),
  console: join(REPO_ROOT, 'desktop/out/web'),
};

const CONFIG_MARKER = '<!--gatehouse-demo-config-->';
const CONSOLE_CONFIG_MARKER = '<!--gatehouse-console-config-->';
const HASHED_ASSET = /\/assets\/[^/]+-[A-Za-z0-9_-]{6,}\.\w+$/;
const SECURITY_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'strict-origin-when-cross-origin', 'x-frame-options': 'DENY' };

interface Site {
  mount: string;
  dir: string;
  /** Its Content-Security-Policy header (http/content-security.ts), at the time of the request. */
  policy: () => string;
  /** Rewrites index.html before it is served (the demo gets its project written into the page). */
  transformIndex?: (html: string) => Promise<string>;
}

/** The file under `dir` that `relative` names, or null for anything outside it (no `..` escapes). */
function fileWithin(dir: string, relative: string): string | null {
  const path = normalize(join(dir, relative));
  return path === dir || path.startsWith(dir + sep) ? path : null;
}

async function serveSite(site: Site, pathname: string): Promise<Response> {
  if (!existsSync(join(site.dir, 'index.html'))) {
    return new Response(`This front end is not built (${site.dir}). Run "npm start", which builds it, or "npm run build".`, { status: 404 });
  }
  const relative = decodeURIComponent(pathname.slice(site.mount.length)) || '/';
  const path = fileWithin(site.dir, relative);
  if (path && relative !== '/' && !relative.endsWith('/')) {
    const file = Bun.file(path);
    if (await file.exists()) {
      const cache = HASHED_ASSET.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache';
      return new Response(file, { headers: { ...SECURITY_HEADERS, 'content-security-policy': site.policy(), 'cache-control': cache } });
    }
    // A missing asset is a 404, not the app's page (a stale tab asking for an old chunk).
    if (relative.startsWith('/assets/')) return new Response('Not found', { status: 404 });
  }
  let html = await Bun.file(join(site.dir, 'index.html')).text();
  if (site.transformIndex) html = await site.transformIndex(html);
  return new Response(html, {
    headers: { ...SECURITY_HEADERS, 'content-security-policy': site.policy(), 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' },
  });
}

/**
 * The JSON data element that tells the demo which project it is an app of (account-kit/demo/src/config.ts reads it):
 * data, not a script, so the page's policy needs no inline script; `<` escaped so no value can close the element.
 */
export function demoConfigElement(config: { projectId: string; publishableClientKey: string | null }): string {
  return `<script type="application/json" id="gatehouse-demo-config">${JSON.stringify(config).replace(/</g, '\\u003c')}</script>`;
}

/** `<meta>` telling the console the internal project's key (a meta, not a script: the console's CSP forbids inline scripts). */
export function consoleConfigMeta(config: { publishableClientKey: string | null }): string {
  const content = JSON.stringify(config).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<meta name="gatehouse-console-config" content="${content}">`;
}

/** The development OpenID provider's origin while it runs: its accounts' pictures are served there, over http. */
function devImageOrigins(): string[] {
  const issuer = runningDevIssuer();
  if (!issuer) return [];
  try { return [new URL(issuer).origin]; } catch { return []; }
}

export function createFrontEnds(services: Services, dirs = FRONT_END_DIRS) {
  // The demo is an app of the internal project; its key is given only while the development key is valid
  // (never in production, where the internal project's keys are shown once and kept hashed).
  let devKeyCheck: { at: number; valid: Promise<boolean> } | null = null;
  const devKeyValid = () => {
    if (services.config.isProduction) return Promise.resolve(false);
    if (!devKeyCheck || Date.now() - devKeyCheck.at > 10_000) {
      devKeyCheck = { at: Date.now(), valid: apiKeys.findValidKey(services.db, 'internal', 'publishable_client_key', DEV_KEYS.publishable_client_key).then((k) => !!k, () => false) };
    }
    return devKeyCheck.valid;
  };
  let demoCheck: { at: number; valid: Promise<boolean> } | null = null;
  const demoValid = () => {
    if (!demoCheck || Date.now() - demoCheck.at > 10_000) demoCheck = { at: Date.now(), valid: demoKeyValid(services).catch(() => false) };
    return demoCheck.valid;
  };
  const sites: Site[] = [
    {
      mount: '/console',
      dir: dirs.console,
      policy: () => consolePolicy(devImageOrigins()),
      transformIndex: async (html) =>
        html.replace(CONSOLE_CONFIG_MARKER, consoleConfigMeta({ publishableClientKey: (await devKeyValid()) ? DEV_KEYS.publishable_client_key : null })),
    },
    {
      mount: '',
      dir: dirs.demo,
      policy: () => demoPolicy(devImageOrigins()),
      // In development the demo is an app of the demo project (demo-project.ts); without it (production, or a
      // database whose demo key was revoked) of the internal project, as before.
      transformIndex: async (html) =>
        html.replace(CONFIG_MARKER, demoConfigElement((await demoValid())
          ? { projectId: DEMO_PROJECT_ID, publishableClientKey: DEMO_DEV_KEYS.publishable_client_key }
          : { projectId: 'internal', publishableClientKey: (await devKeyValid()) ? DEV_KEYS.publishable_client_key : null })),
    },
  ];
  return {
    /** The response for a GET/HEAD outside /api; null when no front end covers the path. */
    serve(request: Request): Promise<Response> | null {
      if (request.method !== 'GET' && request.method !== 'HEAD') return null;
      const { pathname } = new URL(request.url);
      const site = sites.find((s) => s.mount === '' || pathname === s.mount || pathname.startsWith(s.mount + '/'));
      return site ? serveSite(site, pathname) : null;
    },
  };
}
