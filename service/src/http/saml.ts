// A SAML connection's service-provider endpoints outside the API (issue 28): its metadata at
// {public URL}/sso/saml/{connection}/metadata and its assertion consumer service (HTTP-POST binding) at
// {public URL}/sso/saml/{connection}/acs. A refused response is answered with a short error page (and logged as a
// security event by sso/sign-in.ts), or sent to the app's error URL when the flow gave one.
import type { Elysia } from 'elysia';
import { KnownError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import { finishSamlSignIn } from '../sso/sign-in';
import { samlMetadataOf } from '../sso/metadata';
import { readBodyBytes } from './limits';
import { SECURITY_HEADERS } from './respond';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page a person sees when their organization's sign-in was refused: what happened, in plain words. */
function errorPage(error: KnownError): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<title>Sign-in failed</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#1f2328}`
    + `h1{font-size:1.5rem}code{background:#f1f3f5;padding:.1rem .3rem;border-radius:4px}@media (prefers-color-scheme:dark){body{background:#1a1b1e;color:#e9ecef}code{background:#2c2e33}}</style></head>`
    + `<body><main><h1>Sign-in failed</h1><p>${escapeHtml(error.message)}</p><p>Error code: <code>${escapeHtml(error.errorCode)}</code></p></main></body></html>`;
  return new Response(html, {
    status: error.statusCode,
    headers: { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" },
  });
}

export function mountSaml(app: Elysia, services: Services): void {
  app.get('/sso/saml/:connection_id/metadata', async ({ params }) => {
    const xml = await samlMetadataOf(services, params.connection_id);
    if (xml === null) return new Response('No such SAML connection.', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    return new Response(xml, { headers: { 'content-type': 'application/samlmetadata+xml; charset=utf-8', 'content-disposition': `inline; filename="gatehouse-sp-${params.connection_id}.xml"` } });
  });

  app.post('/sso/saml/:connection_id/acs', async ({ request, params }) => {
    let form: URLSearchParams;
    try {
      form = new URLSearchParams(new TextDecoder().decode(await readBodyBytes(request, services.config.maxBodyBytes)));
    } catch {
      form = new URLSearchParams();
    }
    const outcome = await finishSamlSignIn(services, { connectionId: params.connection_id, samlResponse: form.get('SAMLResponse'), relayState: form.get('RelayState') });
    if (outcome.type === 'redirect') return new Response(null, { status: 303, headers: { location: outcome.location, 'cache-control': 'no-store' } });
    return errorPage(outcome.error);
  }, { parse: 'none' });
}
