// Serves each project's OpenID provider (oauth-provider/providers.ts) at `{public URL}/oidc/{project id}/...`.
//
// oidc-provider is a Koa application: it wants Node's IncomingMessage and ServerResponse (streams, cookies,
// setHeader), which a Fetch Request/Response does not give. Rather than imitate those objects, the service keeps one
// node:http server on the loopback interface, made on the first /oidc request, and the Elysia route forwards each
// /oidc request to it as it came: the provider then runs exactly as under Node, at the cost of one local hop. The
// forward names the public origin (X-Forwarded-Host/Proto, the provider trusts them: `proxy = true`), so every URL
// it writes is under the issuer whatever address the loopback server has. The loopback server answers only
// 127.0.0.1 and serves nothing that the public route does not.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import { PROTECTED_RESOURCE_PATH, projectProvider, type Provider } from '../oauth-provider/providers';
import { finishInteraction } from '../oauth-provider/interactions';
import { getSettings } from '../oauth-provider/settings';
import { readBodyBytes } from './limits';

const PREFIX = '/oidc/';
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host', 'content-length'];

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

interface KoaContext {
  method: string; path: string; query: Record<string, unknown>; status: number; body: unknown; type: string;
  cookies: { get(name: string, o: { signed: boolean }): string | undefined };
  redirect(url: string): void;
}

/**
 * `{issuer}/auth/{id}/finish?ticket=…` (`/device/{id}/finish` for a device's request), where the consent page sends
 * the browser (oauth-provider/interactions.ts):
 * under the resume path, so the browser brings the provider's signed resume cookie, which must name this request.
 * Only then is the recorded answer applied and the browser sent on to the provider's resume endpoint.
 */
function consentFinish(services: Services, provider: Provider, projectId: string) {
  return async (ctx: KoaContext, next: () => Promise<void>) => {
    const match = /^\/(?:auth|device)\/([^/]+)\/finish$/.exec(ctx.path);
    if (!match || ctx.method !== 'GET') return next();
    let interactionId: string;
    try { interactionId = decodeURIComponent(match[1]!); } catch { interactionId = ''; }
    const ticket = typeof ctx.query.ticket === 'string' ? ctx.query.ticket : '';
    const refuse = (text: string) => {
      ctx.status = 400;
      ctx.type = 'html';
      ctx.body = `<!doctype html><title>Error</title><h1>invalid_request</h1><p>${text}</p>`;
    };
    if (!interactionId || ctx.cookies.get(provider.cookieName('resume'), { signed: true }) !== interactionId) {
      return refuse('This authorization request was started in another browser. Start again from the application.');
    }
    try {
      ctx.redirect(await finishInteraction(services, { projectId, interactionId, ticket }));
      ctx.status = 303;
    } catch (err) {
      if (!(err instanceof KnownErrors.OAuthProviderInteractionNotFound)) throw err;
      refuse('This authorization request has expired or was already answered. Start again from the application.');
    }
  };
}

/**
 * `{issuer}/protected-resource?resource={uri}`: the protected-resource metadata (RFC 9728) of a resource the project
 * declared (oauth-provider/settings.ts), naming the project's issuer as its authorization server. RFC 9728's default
 * place is on the resource's own origin, which Gatehouse does not serve; a resource server names this URL in its 401
 * (`WWW-Authenticate: Bearer resource_metadata="..."`), which is where MCP clients look first.
 */
function protectedResourceMetadata(services: Services, projectId: string, issuer: string) {
  return async (ctx: KoaContext, next: () => Promise<void>) => {
    if (ctx.path !== `/${PROTECTED_RESOURCE_PATH}` || ctx.method !== 'GET') return next();
    const resource = typeof ctx.query.resource === 'string' ? ctx.query.resource : '';
    const { resources } = await getSettings(services, { projectId });
    ctx.type = 'application/json';
    if (!resources.includes(resource)) {
      ctx.status = 404;
      ctx.body = { error: 'not_found', error_description: 'not a protected resource of this project' };
      return;
    }
    ctx.body = { resource, authorization_servers: [issuer], bearer_methods_supported: ['header'] };
  };
}

export function createOidcMount(services: Services) {
  const handlers = new WeakMap<Provider, NodeHandler>();
  let loopback: Promise<{ server: Server; port: number }> | undefined;

  const dispatch = async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const rest = url.slice(PREFIX.length);
    const slash = rest.search(/[/?]|$/);
    let projectId: string;
    try { projectId = decodeURIComponent(rest.slice(0, slash)); } catch { projectId = ''; }
    const provider = projectId ? await projectProvider(services, projectId).catch(() => null) : null;
    if (!url.startsWith(PREFIX) || !provider) {
      res.statusCode = 404;
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      return res.end('Not found');
    }
    let handler = handlers.get(provider);
    if (!handler) {
      provider.use(consentFinish(services, provider, projectId));
      provider.use(protectedResourceMetadata(services, projectId, provider.issuer));
      handlers.set(provider, (handler = provider.callback() as NodeHandler));
    }
    // As a mounted Koa app sees it: the path under the issuer, and the whole path as `originalUrl` (the provider
    // reads its mount path from the two).
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = url;
    const inner = rest.slice(slash);
    req.url = inner.startsWith('/') ? inner : `/${inner}`;
    handler(req, res);
  };

  const start = () => {
    loopback ??= new Promise((resolve, reject) => {
      const server = createServer((req, res) => {
        dispatch(req, res).catch(() => {
          if (!res.headersSent) res.statusCode = 500;
          res.end();
        });
      });
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.unref();
        resolve({ server, port: (server.address() as AddressInfo).port });
      });
    });
    return loopback;
  };

  return {
    /** The answer to a request under /oidc/. */
    async forward(request: Request): Promise<Response> {
      const { port } = await start();
      const url = new URL(request.url);
      const publicUrl = new URL(services.config.publicUrl);
      const headers = new Headers();
      request.headers.forEach((value, name) => { if (!HOP_BY_HOP.includes(name)) headers.set(name, value); });
      headers.set('x-forwarded-host', publicUrl.host);
      headers.set('x-forwarded-proto', publicUrl.protocol.slice(0, -1));
      // Bounded like every API body (GATEHOUSE_MAX_BODY_BYTES): 413 before anything reaches the provider.
      let body: BodyInit | undefined;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        try {
          body = (await readBodyBytes(request, services.config.maxBodyBytes)) as Uint8Array<ArrayBuffer>;
        } catch (err) {
          if (!(err instanceof KnownErrors.RequestBodyTooLarge)) throw err;
          return new Response(JSON.stringify({ error: 'invalid_request', error_description: 'request body too large' }), { status: 413, headers: { 'content-type': 'application/json' } });
        }
      }
      const answer = await fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, { method: request.method, headers, body, redirect: 'manual' });
      const out = new Headers();
      answer.headers.forEach((value, name) => { if (name !== 'set-cookie' && !HOP_BY_HOP.includes(name) && name !== 'content-encoding') out.set(name, value); });
      for (const cookie of answer.headers.getSetCookie()) out.append('set-cookie', cookie);
      return new Response(request.method === 'HEAD' ? null : await answer.arrayBuffer(), { status: answer.status, headers: out });
    },
    /**
     * RFC 8414 §3.1 places an issuer's metadata with a path at `/.well-known/oauth-authorization-server{path}` (and
     * OpenID clients may try `/.well-known/openid-configuration{path}`): MCP clients look there first. Both answer the
     * provider's own discovery document, `{issuer}/.well-known/openid-configuration`.
     */
    forwardMetadata(request: Request): Response | Promise<Response> {
      const url = new URL(request.url);
      const match = /^\/\.well-known\/(?:oauth-authorization-server|openid-configuration)(\/oidc\/[^/]+)$/.exec(url.pathname);
      if (!match) return new Response('Not found', { status: 404 });
      return this.forward(new Request(new URL(`${match[1]}/.well-known/openid-configuration`, url), { method: request.method, headers: request.headers }));
    },
    async close(): Promise<void> {
      if (!loopback) return;
      const { server } = await loopback;
      await new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections?.(); });
    },
  };
}
