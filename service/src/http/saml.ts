// A SAML connection's service-provider endpoints outside the API (issue 28): its metadata at
// {public URL}/sso/saml/{connection}/metadata and its assertion consumer service (HTTP-POST binding) at
// {public URL}/sso/saml/{connection}/acs. A refused response is answered with a short error page (and logged as a
// security event by sso/sign-in.ts), or sent to the app's error URL when the flow gave one.
import type { Elysia } from 'elysia';
import type { Services } from '../services';
import { finishSamlSignIn } from '../sso/sign-in';
import { samlMetadataOf } from '../sso/metadata';
import { readBodyBytes } from './limits';
import { connectionTestPage, ssoErrorPage } from './sso-pages';

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
    if (outcome.type === 'report') return connectionTestPage(outcome.report);
    return ssoErrorPage(outcome.error);
  }, { parse: 'none' });
}
