// Issue 29: OpenTelemetry traces over OTLP/HTTP. A loopback receiver (the OTLP/HTTP JSON encoding the official
// exporter sends) decodes what a running service posts: a server span per request named by the route's pattern,
// continuing the caller's traceparent, with the status and project; children for statements and password hashing;
// spans for mail sends and webhook deliveries; and nowhere an email address, password, token or code.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startService, uniqueEmail, type StartedService } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { startSmtpFixture, type SmtpFixture } from './support/smtp';
import { WebhookReceiver } from './support/webhook-receiver';
import { tracingSettings } from '../src/observability/tracing';
import { statementSpan } from '../src/observability/tracing-statements';

setDefaultTimeout(120_000);

interface ReceivedSpan {
  traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
  status?: { code?: number };
}

/** The OTLP/HTTP receiver: every posted batch, decoded; the raw bodies kept for the leak check. */
class OtlpReceiver {
  spans: (ReceivedSpan & { service: string })[] = [];
  bodies: string[] = [];
  contentTypes = new Set<string>();
  server = Bun.serve({
    port: 0, hostname: '127.0.0.1',
    fetch: async (req) => {
      if (req.method !== 'POST' || new URL(req.url).pathname !== '/v1/traces') return new Response('no', { status: 404 });
      this.contentTypes.add(req.headers.get('content-type') ?? '');
      const body = await req.text();
      this.bodies.push(body);
      for (const rs of JSON.parse(body).resourceSpans ?? []) {
        const service = rs.resource?.attributes?.find((a: { key: string }) => a.key === 'service.name')?.value?.stringValue;
        for (const ss of rs.scopeSpans ?? []) for (const span of ss.spans ?? []) this.spans.push({ ...span, service });
      }
      return Response.json({});
    },
  });
  get url() { return `http://127.0.0.1:${this.server.port}`; }
  async waitFor(what: string, pred: (s: ReceivedSpan) => boolean, timeoutMs = 15_000): Promise<ReceivedSpan> {
    for (const until = Date.now() + timeoutMs; ; await Bun.sleep(25)) {
      const found = this.spans.find(pred);
      if (found) return found;
      if (Date.now() > until) throw new Error(`no span ${what} within ${timeoutMs} ms; got ${JSON.stringify(this.spans.map((s) => s.name))}`);
    }
  }
}

const attr = (s: ReceivedSpan, key: string) => {
  const v = s.attributes.find((a) => a.key === key)?.value;
  return v ? (v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : v.boolValue)) : undefined;
};

describe('settings from the standard variables', () => {
  test('off without an endpoint; the traces endpoint wins; samplers and their argument checked', () => {
    expect(tracingSettings({}).tracesUrl).toBeUndefined();
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracesUrl).toBe('http://collector:4318/v1/traces');
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/custom' }).tracesUrl).toBe('http://b:4318/custom');
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_SDK_DISABLED: 'true' }).tracesUrl).toBeUndefined();
    expect(tracingSettings({}).sampler).toBe('parentbased_always_on');
    expect(tracingSettings({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' })).toMatchObject({ sampler: 'parentbased_traceidratio', samplerArg: 0.25 });
    expect(() => tracingSettings({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow('OTEL_TRACES_SAMPLER must be one of');
    expect(() => tracingSettings({ OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow('OTEL_TRACES_SAMPLER_ARG must be a ratio');
  });

  test('a statement\'s span: its operation and tables, never its text', () => {
    expect(statementSpan({ queryString: 'select "id" from "users" where "email" = $1', queryMetadata: { type: 'select', tables: ['users'] } }))
      .toEqual({ name: 'SELECT users', attributes: { 'db.system.name': 'postgresql', 'db.operation.name': 'SELECT', 'db.collection.name': 'users' } });
    expect(statementSpan({ queryString: '  with x as (select 1) insert into t select * from x' }).name).toBe('WITH');
    expect(statementSpan({}).name).toBe('STATEMENT');
  });
});

describe('a service with tracing on', () => {
  const receiver = new OtlpReceiver();
  const hooks = new WebhookReceiver().start();
  let mailbox: SmtpFixture;
  let svc: StartedService;
  let p: TestProject;

  beforeAll(async () => {
    mailbox = await startSmtpFixture();
    svc = await startService({
      env: { SMTP_URL: mailbox.url, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '50', OTEL_SERVICE_NAME: 'gatehouse-under-test', GATEHOUSE_WEBHOOK_POLL_MS: '50' },
    });
    p = await newProject(svc, { config: { magic_link_enabled: true } });
  });
  afterAll(async () => {
    await svc?.stop();
    receiver.server.stop(true);
    hooks.stop();
    await mailbox?.stop?.();
  });

  test('a sign-up continues the caller\'s trace: server span, statements and the hash beneath it', async () => {
    const traceId = crypto.randomUUID().replaceAll('-', '');
    const parentId = 'a1b2c3d4e5f60718';
    const email = uniqueEmail('traced');
    const res = await fetch(`${svc.url}/api/v1/auth/password/sign-up`, {
      method: 'POST',
      headers: { ...p.client.headers, 'content-type': 'application/json', traceparent: `00-${traceId}-${parentId}-01` },
      body: JSON.stringify({ email, password: 'traced-password-1' }),
    });
    expect(res.status).toBe(200);
    const tokens = await res.json() as { access_token: string; refresh_token: string };

    const server = await receiver.waitFor('POST /auth/password/sign-up', (s) => s.traceId === traceId && s.kind === 2);
    expect(server.name).toBe('POST /auth/password/sign-up');
    expect(server.parentSpanId).toBe(parentId);
    expect(attr(server, 'http.route')).toBe('/auth/password/sign-up');
    expect(attr(server, 'http.request.method')).toBe('POST');
    expect(attr(server, 'http.response.status_code')).toBe(200);
    expect(attr(server, 'gatehouse.project_id')).toBe(p.id);
    expect((server as { service?: string }).service).toBe('gatehouse-under-test');

    const hash = await receiver.waitFor('password.hash', (s) => s.traceId === traceId && s.name === 'password.hash');
    expect(hash.parentSpanId).toBe(server.spanId);
    // Its two statements (issue 31): the rate-limit hit carrying the email check, then the user with its channel,
    // event and session; both `WITH` statements. (The request's authentication may read its project and key too.)
    const inTrace = () => receiver.spans.filter((s) => s.traceId === traceId);
    const isWith = (s: ReceivedSpan) => attr(s, 'db.system.name') === 'postgresql' && attr(s, 'db.operation.name') === 'WITH';
    await receiver.waitFor('two WITH statements', (s) => s.traceId === traceId && isWith(s) && inTrace().filter(isWith).length >= 2);
    expect(inTrace().filter(isWith)).toHaveLength(2);
    // Every span of the request is in the caller's trace, under the server span.
    for (const s of inTrace()) if (s !== server) expect(s.parentSpanId).toBeTruthy();

    // Nothing of what was sent or answered is in any span.
    const all = receiver.bodies.join('\n');
    for (const secret of [email, 'traced-password-1', tokens.access_token, tokens.refresh_token, p.client.headers['x-stack-publishable-client-key']!]) {
      expect(all.includes(secret)).toBe(false);
    }
    expect([...receiver.contentTypes]).toEqual(['application/json']);
  });

  test('a refused request: its status and the route\'s pattern, not the path with its id', async () => {
    const id = crypto.randomUUID();
    const res = await fetch(`${svc.url}/api/v1/users/${id}`, { headers: p.client.headers as Record<string, string> });
    expect(res.status).toBeGreaterThanOrEqual(400);
    const span = await receiver.waitFor('GET /users/:user_id', (s) => s.name === 'GET /users/:user_id' && s.kind === 2);
    expect(attr(span, 'http.response.status_code')).toBe(res.status);
    expect(receiver.bodies.join('\n').includes(id)).toBe(false);
  });

  test('mail sends and webhook deliveries have spans of their own, by id', async () => {
    const endpoint = await p.admin.post('/webhooks/endpoints', { url: hooks.url, description: 'traced' });
    hooks.secret = endpoint.body.secret;
    const email = uniqueEmail('traced-otp');
    const sent = await p.client.post('/auth/otp/send-sign-in-code', { email, callback_url: 'http://localhost:12345/cb' });
    expect(sent.status).toBe(200);
    await mailbox.waitForMail((m) => m.to.includes(email));
    const send = await receiver.waitFor('email.send', (s) => s.name === 'email.send');
    expect(attr(send, 'gatehouse.project_id')).toBe(p.id);
    await signUp(p);
    const hook = await hooks.waitFor((r) => r.json?.type === 'user.created');
    const deliver = await receiver.waitFor('webhook.deliver', (s) => s.name === 'webhook.deliver');
    expect(attr(deliver, 'gatehouse.webhook.endpoint_id')).toBe(endpoint.body.id);
    expect(hook.verified).toBe(true);
    expect(receiver.bodies.join('\n').includes(email)).toBe(false);
  });
});
