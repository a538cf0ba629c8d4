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
import type { Services } from '../services';
import { projectProvider, type Provider } from '../oauth-provider/providers';

const PREFIX = '/oidc/';
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host', 'content-length'];

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

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
    if (!handler) handlers.set(provider, (handler = provider.callback() as NodeHandler));
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
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
      const answer = await fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, { method: request.method, headers, body, redirect: 'manual' });
      const out = new Headers();
      answer.headers.forEach((value, name) => { if (name !== 'set-cookie' && !HOP_BY_HOP.includes(name) && name !== 'content-encoding') out.set(name, value); });
      for (const cookie of answer.headers.getSetCookie()) out.append('set-cookie', cookie);
      return new Response(request.method === 'HEAD' ? null : await answer.arrayBuffer(), { status: answer.status, headers: out });
    },
    async close(): Promise<void> {
      if (!loopback) return;
      const { server } = await loopback;
      await new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections?.(); });
    },
  };
}
