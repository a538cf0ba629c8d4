// A local HTTP endpoint for webhook tests (Bun.serve on 127.0.0.1) that checks every request the way a receiver
// following Standard Webhooks does, written independently of the service's signing code: HMAC-SHA256 keyed with
// the base64 bytes after `whsec_`, over "<webhook-id>.<webhook-timestamp>.<raw body>", compared with each
// space-separated `v1,<base64>` of `webhook-signature`, and the timestamp within 5 minutes of now.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface ReceivedWebhook {
  id: string;
  timestamp: number;
  signature: string;
  body: string;
  json: any;
  /** The signature and timestamp check out (and the body is JSON). */
  verified: boolean;
  at: number;
}

export function verifyStandardWebhook(secret: string, headers: Headers, body: string, nowSeconds = Date.now() / 1000): boolean {
  const id = headers.get('webhook-id');
  const timestamp = Number(headers.get('webhook-timestamp'));
  const signatures = (headers.get('webhook-signature') ?? '').split(' ');
  if (!id || !Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = Buffer.from(createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64'));
  return signatures.some((s) => {
    const [version, mac] = s.split(',', 2);
    if (version !== 'v1' || !mac) return false;
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export class WebhookReceiver {
  server!: ReturnType<typeof Bun.serve>;
  port = 0;
  /** The endpoint's signing secret, as the create call returned it (or the console showed it). */
  secret = '';
  received: ReceivedWebhook[] = [];
  /** Status to answer per request (default 204); may wait, to hold an attempt open. */
  respond: (r: ReceivedWebhook) => number | Promise<number> = () => 204;

  start(port = 0): this {
    this.server = Bun.serve({
      port, hostname: '127.0.0.1',
      fetch: async (req) => {
        const body = await req.text();
        let json: any = null;
        try { json = JSON.parse(body); } catch { /* an unparsable body is recorded unverified */ }
        const r: ReceivedWebhook = {
          id: req.headers.get('webhook-id') ?? '', timestamp: Number(req.headers.get('webhook-timestamp')),
          signature: req.headers.get('webhook-signature') ?? '', body, json, at: Date.now(),
          verified: json !== null && req.headers.get('content-type') === 'application/json' && verifyStandardWebhook(this.secret, req.headers, body),
        };
        this.received.push(r);
        return new Response(null, { status: await this.respond(r) });
      },
    });
    this.port = this.server.port!;
    return this;
  }

  get url() { return `http://127.0.0.1:${this.port}/hook`; }
  stop() { this.server?.stop(true); }
  events(type?: string) { return this.received.filter((r) => !type || r.json?.type === type); }

  async waitFor(pred: (r: ReceivedWebhook) => boolean, timeoutMs = 20_000): Promise<ReceivedWebhook> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(pred);
      if (found) return found;
      if (Date.now() > until) throw new Error(`no matching webhook within ${timeoutMs} ms; got ${JSON.stringify(this.received.map((r) => r.json?.type))}`);
      await Bun.sleep(25);
    }
  }
}
