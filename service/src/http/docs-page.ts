// The API reference at /api/v1/docs: Swagger UI (swagger-ui-dist from npm), served by the service itself: no CDN,
// since many deployments (and this machine) are offline. Try-it-out sends requests to this service. The page has no
// inline script or style (its Content-Security-Policy allows none, http/content-security.ts): Swagger UI is started
// by docs-init.js, which reads the document's URL from the page, and the page's own styles are docs.css.
import { dirname, join } from 'node:path';
import { REPO_ROOT } from '../install-root';

// The binary holds the few files served here under the repository's node_modules path (scripts/build-binary.mjs).
const SWAGGER_UI_DIR = Bun.isStandaloneExecutable
  ? join(REPO_ROOT, 'node_modules/swagger-ui-dist')
  : dirname(Bun.resolveSync('swagger-ui-dist/package.json', import.meta.dir));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** The page's own files, served beside Swagger UI's. */
const OWN_ASSETS: Record<string, { type: string; body: string }> = {
  'docs-init.js': {
    type: 'text/javascript; charset=utf-8',
    body: `window.ui = SwaggerUIBundle({
  url: document.getElementById('swagger-ui').dataset.specUrl,
  dom_id: '#swagger-ui',
  deepLinking: true,
  filter: true,
  persistAuthorization: true,
  displayRequestDuration: true,
  docExpansion: 'none',
  defaultModelsExpandDepth: 0,
  validatorUrl: null,
});
`,
  },
  'docs.css': {
    type: 'text/css; charset=utf-8',
    body: 'body{margin:0}.gatehouse-intro{font-family:system-ui,sans-serif;max-width:1460px;margin:1rem auto 0;padding:0 20px;color:#3b4151}\n',
  },
};

/** `/api/v1/docs/assets/<file>`: one of the few Swagger UI files the page loads (or the page's own), cached for a day. */
export function docsAsset(file: string): Response {
  const own = Object.hasOwn(OWN_ASSETS, file) ? OWN_ASSETS[file] : undefined;
  if (own) return new Response(own.body, { headers: { 'content-type': own.type, 'cache-control': 'public, max-age=86400' } });
  const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
  if (!type) return new Response('Not found', { status: 404 });
  return new Response(Bun.file(join(SWAGGER_UI_DIR, file)), { headers: { 'content-type': type, 'cache-control': 'public, max-age=86400' } });
}

export function docsPage(specUrl: string, assetsUrl = '/api/v1/docs/assets'): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Gatehouse API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/png" href="${assetsUrl}/favicon-32x32.png">
<link rel="stylesheet" href="${assetsUrl}/swagger-ui.css">
<link rel="stylesheet" href="${assetsUrl}/docs.css">
</head><body>
<div class="gatehouse-intro"><p>Try a request: press <b>Authorize</b> and fill in the key of the access type you use (the development
publishable client key, outside production, is <code>this-publishable-client-key-is-for-local-development-only</code>), open an operation, press
<b>Try it out</b>, set <code>x-stack-project-id</code> (<code>internal</code> for Gatehouse's own accounts) and
<code>x-stack-access-type</code>, then <b>Execute</b>. Machine-readable: <a href="${specUrl}">${specUrl}</a>.</p></div>
<div id="swagger-ui" data-spec-url="${escapeAttribute(specUrl)}"></div>
<script src="${assetsUrl}/swagger-ui-bundle.js"></script>
<script src="${assetsUrl}/docs-init.js"></script>
</body></html>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
