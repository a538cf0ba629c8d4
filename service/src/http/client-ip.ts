// The client's IP address for rate limiting. Proxy headers are trivially spoofed, so they count only when the
// operator says a proxy sets them (GATEHOUSE_TRUST_PROXY=true); otherwise the socket's peer address is used.
const socketIps = new WeakMap<Request, string>();

/** Called by the server for every request with the peer address of its connection. */
export function rememberSocketIp(request: Request, ip: string | undefined): Request {
  if (ip) socketIps.set(request, ip);
  return request;
}

export function clientIp(request: Request, trustProxy: boolean): string {
  if (trustProxy) {
    const h = request.headers;
    const forwarded = h.get('x-forwarded-for')?.split(',')[0]?.trim() || h.get('x-real-ip')?.trim();
    if (forwarded) return forwarded;
  }
  return socketIps.get(request) ?? 'unknown';
}
