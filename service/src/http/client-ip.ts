// The client's IP address for rate limiting. Proxy headers are trivially spoofed: `x-forwarded-for` counts only
// as far as the operator's own proxies wrote it (GATEHOUSE_TRUST_PROXY: a number of hops, or the proxies'
// addresses). Walking from the socket's peer towards the client, each trusted proxy vouches for the entry it
// appended; the first address no trusted proxy vouches for is the client (proxy-addr). Entries further left
// were written by the client and never count, so rotating them buys no new rate-limit budget.
import proxyaddr from 'proxy-addr';
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config';

type Trust = (addr: string, i: number) => boolean;
const compiled = new WeakMap<string[], Trust>();

function trustFunction(trust: number | string[]): Trust {
  if (typeof trust === 'number') return (_addr, i) => i < trust;
  let fn = compiled.get(trust);
  if (!fn) compiled.set(trust, (fn = proxyaddr.compile(trust)));
  return fn;
}

/**
 * The request's client IP, computed once per request by the server (app.ts) from the peer address of its
 * connection (`socketIp`, undefined for a request not from a socket) and the headers; routes get it as `ctx.ip`.
 */
export function clientIp(socketIp: string | undefined, headers: Headers, trustProxy: Config['trustProxy']): string {
  if (trustProxy === false || !socketIp) return socketIp ?? 'unknown';
  const forwardedFor = headers.get('x-forwarded-for') ?? undefined;
  // proxy-addr reads only these two fields of a Node request.
  const req = { headers: { 'x-forwarded-for': forwardedFor }, socket: { remoteAddress: socketIp } } as unknown as IncomingMessage;
  return proxyaddr(req, trustFunction(trustProxy));
}
