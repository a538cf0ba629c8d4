// Third-party sign-in and account linking, browser side (protocol-auth §3.6.1, §3.6.2): the app sends the browser
// to /authorize, the provider sends it back to /callback. The code exchange is in oauth-token.ts.
import { OAuthAuthorizeQuery, ProviderParams } from '@gatehouse/shared/schemas/oauth';
import { route, type RouteContext } from '../http/route';
import { parseBody } from '../http/body';
import { startAuthorization } from '../oauth/outer-flow';
import { handleCallback } from '../oauth/callback';
import { HttpResult, errorResult } from '../http/respond';

async function callback({ services, params, url, request, headers, requestId }: RouteContext<{ provider_id: string }, unknown, unknown, 'optional'>) {
  const fields = new URLSearchParams(url.searchParams);
  if (request.method === 'POST') {
    // Apple answers with response_mode=form_post: the parameters are in the body.
    let body: unknown;
    try { body = await parseBody(request); } catch { body = undefined; }
    if (body && typeof body === 'object' && !(body instanceof Uint8Array)) {
      for (const [k, v] of Object.entries(body)) if (typeof v === 'string') fields.set(k, v);
    }
  }
  const outcome = await handleCallback(services, params.provider_id, fields, headers.get('cookie'));
  const clear: Record<string, string> = outcome.clearCookie ? { 'set-cookie': outcome.clearCookie } : {};
  if (outcome.type === 'completed') return new HttpResult(307, '{}', { location: outcome.location, 'content-type': 'application/json; charset=utf-8', ...clear });
  if (outcome.type === 'redirect') return HttpResult.redirect(outcome.location, clear);
  const result = errorResult(outcome.error, requestId, { isProduction: services.config.isProduction, method: 'GET', url: `/api/v1/auth/oauth/callback/${params.provider_id}` });
  return new HttpResult(result.status, result.body, { ...result.headers, ...clear });
}

export const oauthRoutes = [
  route({
    method: 'GET', path: '/auth/oauth/authorize/:provider_id', summary: 'Start OAuth sign-in or account linking (browser navigation)', tags: ['OAuth'],
    access: 'optional',
    params: ProviderParams,
    query: OAuthAuthorizeQuery,
    async handler({ services, params, query }) {
      const { location, setCookie } = await startAuthorization(services, params.provider_id, query);
      return HttpResult.redirect(location, { 'set-cookie': setCookie });
    },
  }),
  route({
    method: 'GET', path: '/auth/oauth/callback/:provider_id', summary: "The OAuth provider's redirect back (query parameters)", tags: ['OAuth'],
    access: 'optional',
    params: ProviderParams,
    handler: callback,
  }),
  route({
    method: 'POST', path: '/auth/oauth/callback/:provider_id', summary: "The OAuth provider's redirect back (form_post)", tags: ['OAuth'],
    access: 'optional',
    params: ProviderParams,
    handler: callback,
  }),
];
