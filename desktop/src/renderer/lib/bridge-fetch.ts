// fetch for the client library in the desktop app: requests go through the main process, which adds the
// stored admin key (the renderer never holds it) and only talks to the connection's service.
import type { FetchLike } from '@gatehouse/shared/client';
import type { ConsoleBridge } from '../../shared/bridge';

/** Placeholder the admin app sends; the main process replaces it with the key it keeps. */
export const ADMIN_KEY_IN_MAIN_PROCESS = 'kept-by-the-main-process';

function headersObject(h: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(h).forEach((v, k) => (out[k] = v));
  return out;
}

export function bridgeFetch(bridge: Pick<ConsoleBridge, 'request'>, connectionId: string): FetchLike {
  return async (input, init = {}) => {
    const res = await bridge.request({
      connectionId,
      url: String(input),
      method: init.method ?? 'GET',
      headers: headersObject(init.headers),
      body: typeof init.body === 'string' ? init.body : undefined,
    });
    return new Response(res.status === 204 || res.status === 304 ? null : res.body, { status: res.status, headers: res.headers });
  };
}
