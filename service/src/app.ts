// The HTTP application: routes under /api/v1 (and the /api/latest alias), CORS, health, 404/405, OpenAPI.
import { Elysia } from 'elysia';
import type { Services } from './services';
import { allRoutes } from './routes';
import { runRoute, type RouteDef } from './http/route';
import { CORS_HEADERS, CORS_PREFLIGHT_HEADERS, HttpResult, errorResult, newRequestId, toResponse } from './http/respond';
import { buildOpenApiDocument, docsAsset, docsPage } from './http/openapi';
import { clientIp } from './http/client-ip';
import { lifecycle } from './lifecycle';
import { createFrontEnds } from './http/front-ends';
import { docsPolicy } from './http/content-security';
import { finishRequest, incomingIds } from './http/request-log';
import { STACK_HEADERS } from '@gatehouse/shared/constants';
import { createOidcMount } from './http/oidc-mount';
import { mountScim } from './http/scim';
import { mountSaml } from './http/saml';

const API_PREFIXES = ['/api/v1', '/api/latest'];
const ALLOWED_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']);

export function createApp(services: Services, routes: RouteDef[] = allRoutes) {
  const { isProduction } = services.config;
  const app = new Elysia({ normalize: false });

  const handle = async (def: RouteDef, request: Request, params: Record<string, string>, socketIp: string | undefined) => {
    const startedAt = performance.now();
    const ids = incomingIds(request.headers);
    const requestId = ids.requestId ?? ids.traceId ?? newRequestId();
    const url = new URL(request.url);
    let result: HttpResult;
    try {
      const ip = clientIp(socketIp, request.headers, services.config.trustProxy);
      result = await runRoute(def, services, { request, url, rawParams: params, requestId, ip });
    } catch (err) {
      result = errorResult(err, requestId, { isProduction, method: request.method, url: url.pathname });
    }
    const response = toResponse(result, requestId, request.headers.has(STACK_HEADERS.overrideErrorStatus));
    return finishRequest(def, request, response, result.status, requestId, ids, startedAt);
  };

  for (const def of routes) {
    for (const prefix of API_PREFIXES) {
      app.route(def.method, prefix + def.path, ({ request, params, server }) =>
        handle(def, request, params as Record<string, string>, server?.requestIP(request)?.address), { parse: 'none' });
    }
  }

  // Path patterns of every route, to tell "no such path" (404) from "no such method here" (405).
  const patterns = routes.map((def) => ({
    method: def.method,
    regex: new RegExp(`^(?:${API_PREFIXES.join('|')})${def.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`),
  }));
  const allowedMethods = (pathname: string) => [...new Set(patterns.filter((p) => p.regex.test(pathname)).map((p) => p.method))];

  const openApi = buildOpenApiDocument(routes, services.config.publicUrl);
  app.get('/api/v1/openapi.json', () => Response.json(openApi, { headers: CORS_HEADERS }));
  const docsHeaders = { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': docsPolicy(services.config.publicUrl) };
  app.get('/api/v1/docs', () => new Response(docsPage('/api/v1/openapi.json'), { headers: docsHeaders }));
  app.get('/api/v1/docs/assets/:file', ({ params }) => docsAsset(params.file));

  app.get('/health', async ({ request }) => {
    const headers = { 'access-control-allow-origin': '*', 'access-control-allow-methods': '*', 'access-control-allow-headers': '*', 'access-control-expose-headers': '*' };
    // Liveness: /health. Readiness: /health?db (503 while the database is unreachable or the service shuts down).
    if (new URL(request.url).searchParams.has('db')) {
      if (lifecycle.isDraining) return Response.json({ status: 'error', shutting_down: true }, { status: 503, headers });
      try { await services.db.execute('select 1' as never); } catch {
        return Response.json({ status: 'error', db: 'unreachable' }, { status: 503, headers });
      }
    }
    return Response.json({ status: 'ok' }, { headers });
  });

  // Each project's own OpenID provider (issue 27), at its issuer `{public URL}/oidc/{project id}`.
  const oidc = createOidcMount(services);
  app.all('/oidc/*', ({ request }) => oidc.forward(request), { parse: 'none' });
  app.get('/.well-known/oauth-authorization-server/oidc/*', ({ request }) => oidc.forwardMetadata(request));
  app.get('/.well-known/openid-configuration/oidc/*', ({ request }) => oidc.forwardMetadata(request));
  // SCIM 2.0 provisioning of teams (http/scim.ts): /scim/v2/{team id}/...
  mountScim(app, services);
  // SAML service-provider endpoints of teams' SSO connections (http/saml.ts): /sso/saml/{connection}/metadata and /acs
  mountSaml(app, services);

  app.options('/api/*', () => new Response(null, { status: 200, headers: CORS_PREFLIGHT_HEADERS }));

  // Everything outside /api: the account kit's demo app (/, /handler/...) and the console (/console).
  const frontEnds = createFrontEnds(services);

  // Unknown paths and methods. Known errors from here also honour x-stack-override-error-status.
  app.onError(({ code, request }) => {
    if (code !== 'NOT_FOUND') return;
    const url = new URL(request.url);
    if (!url.pathname.startsWith('/api/')) return frontEnds.serve(request) ?? new Response('Not found', { status: 404 });
    if (!ALLOWED_METHODS.has(request.method)) return new Response('Method not allowed', { status: 405, headers: CORS_HEADERS });
    // A known path asked with a method it does not implement.
    const allowed = allowedMethods(url.pathname);
    if (allowed.length > 0) return new Response(null, { status: 405, headers: { ...CORS_HEADERS, allow: allowed.join(', ') } });
    const requestId = newRequestId();
    const text = `404 — this page does not exist in Gatehouse's API.\n\nPlease see the API documentation at ${services.config.publicUrl}/api/v1/docs.\n\nURL: ${request.url}`;
    return toResponse(HttpResult.text(text, 404), requestId, request.headers.has(STACK_HEADERS.overrideErrorStatus));
  });

  return app;
}
