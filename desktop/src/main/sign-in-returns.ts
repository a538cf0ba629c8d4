// The desktop console's owners sign in by OAuth or a mailed magic link in the system browser (the window itself only
// shows the app's pages). The browser comes back here: a listener on the loopback IP literal, on a port the system
// picks (RFC 8252 §7.3, §8.3), answers two paths under SIGN_IN_RETURN_PATH (the path the internal project trusts) with a page saying to go back to
// the app, and hands the address (code, state) to the window, which finishes the sign-in with its PKCE verifier.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { SIGN_IN_RETURN_PATH } from '../shared/bridge';

export const RETURN_KINDS = ['oauth', 'magic-link'] as const;

export interface SignInReturns {
  /** `http://127.0.0.1:{port}/gatehouse-console/`; the listener starts at the first call. */
  baseUrl(): Promise<string>;
  close(): Promise<void>;
}

/** The page the browser shows: no script, nothing loaded, the address (with its code) not passed on. */
const RETURN_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Back to the Gatehouse console</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1a1b1e}@media (prefers-color-scheme:dark){body{background:#1a1b1e;color:#e9ecef}}</style></head>
<body><main><h1>Back to the Gatehouse console</h1><p>The console app has your sign-in. You can close this tab.</p></main></body></html>`;

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/** `deliver`: the full address the browser came back to (the window parses and finishes it). */
export function createSignInReturns(deliver: (url: string) => void): SignInReturns {
  let listening: Promise<{ server: Server; port: number }> | null = null;

  const answer = (port: number) => (req: IncomingMessage, res: ServerResponse) => {
    const text = (status: number, body: string) => res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(body);
    // Only addresses naming this listener: a page elsewhere that rebinds a DNS name to 127.0.0.1 sends its own Host.
    if (req.headers.host !== `127.0.0.1:${port}`) return text(400, 'Unexpected host');
    if (req.method !== 'GET') return text(405, 'Method not allowed');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const kind = url.pathname.startsWith(SIGN_IN_RETURN_PATH) ? url.pathname.slice(SIGN_IN_RETURN_PATH.length) : null;
    if (!kind || !(RETURN_KINDS as readonly string[]).includes(kind)) return text(404, 'Not found');
    res.writeHead(200, HEADERS).end(RETURN_PAGE);
    deliver(url.toString());
  };

  return {
    baseUrl: async () => {
      listening ??= new Promise((resolve, reject) => {
        const server = createServer();
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => {
          const address = server.address();
          const port = typeof address === 'object' && address ? address.port : 0;
          server.on('request', answer(port));
          resolve({ server, port });
        });
      });
      const { port } = await listening;
      return `http://127.0.0.1:${port}${SIGN_IN_RETURN_PATH}`;
    },
    close: async () => {
      const current = listening;
      listening = null;
      if (current) {
        const { server } = await current;
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}

/** What the window does with a delivered address: shown and focused, then told (the renderer's listener). */
export interface ReturnWindow {
  isMinimized(): boolean;
  restore(): void;
  focus(): void;
  send(url: string): void;
}

export function deliverToWindow(win: ReturnWindow | null, url: string): void {
  if (!win) return;
  if (win.isMinimized()) win.restore();
  win.focus();
  win.send(url);
}
