// Logs and metrics for operators (issue 15 §4), on a real service with JSON logs and the Prometheus listener on:
// an access-log line per request with the route pattern, status, duration, request id and project id; an incoming
// x-request-id or traceparent carried into the response and the log; no token, password, code or key anywhere in
// the output of a full flow (sign-up, sign-in, refresh, reset); and the metrics scraped after the flow count it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startService, uniqueEmail, type RunningService } from './support/service';
import { extractCode, startSmtpFixture, type SmtpFixture } from './support/smtp';
import { newProject, type TestProject } from './support/projects';

setDefaultTimeout(90_000);
let svc: RunningService;
let mailbox: SmtpFixture;
let p: TestProject;
let metricsUrl: string;
const secrets = new Map<string, string>();
const remember = (what: string, value: string | undefined) => { expect(value, what).toBeTruthy(); secrets.set(what, value!); return value!; };

beforeAll(async () => {
  mailbox = await startSmtpFixture();
  svc = await startService({
    env: { SMTP_URL: mailbox.url, GATEHOUSE_LOG_FORMAT: 'json', GATEHOUSE_METRICS_PORT: '0', GATEHOUSE_RATE_LIMITS: 'sign_in_account=3/3600', DATABASE_URL: '' },
    startTimeoutMs: 150_000,
  });
  const deadline = Date.now() + 20_000;
  while (!/Metrics \(Prometheus\): (\S+)/.test(svc.output()) && Date.now() < deadline) await Bun.sleep(50);
  metricsUrl = /Metrics \(Prometheus\): (\S+)/.exec(svc.output())![1];
  p = await newProject(svc);
  remember('publishable client key', p.keys.publishableClientKey);
  remember('secret server key', p.keys.secretServerKey);
  remember('super secret admin key', p.keys.superSecretAdminKey);
  remember('owner access token', p.ownerAccessToken);
}, 180_000);
afterAll(async () => {
  await svc?.stop();
  await mailbox?.stop();
});

/** The service's JSON log entries (the human start-up lines are not JSON). */
function logEntries(): Record<string, any>[] {
  return svc.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
}

async function fullFlow() {
  const email = uniqueEmail('obs');
  const password = remember('password', `pw-${crypto.randomUUID()}`);
  const signUp = await p.client.post('/auth/password/sign-up', { email, password, verification_callback_url: 'http://localhost:3000/handler/email-verification' });
  expect(signUp.status).toBe(200);
  remember('sign-up access token', signUp.body.access_token);
  remember('sign-up refresh token', signUp.body.refresh_token);
  const verification = await mailbox.waitForMail((m) => m.to.includes(email));
  remember('verification code', extractCode(verification));

  const signIn = await p.client.post('/auth/password/sign-in', { email, password });
  expect(signIn.status).toBe(200);
  remember('sign-in access token', signIn.body.access_token);
  const refreshToken = remember('sign-in refresh token', signIn.body.refresh_token);
  const refreshed = await p.client.post('/auth/sessions/current/refresh', {}, { refreshToken });
  expect(refreshed.status).toBe(200);
  remember('refreshed access token', refreshed.body.access_token);
  expect((await p.client.get('/users/me', { accessToken: refreshed.body.access_token })).status).toBe(200);

  const t0 = Date.now();
  expect((await p.client.post('/auth/password/send-reset-code', { email, callback_url: 'http://localhost:3000/reset' })).status).toBe(200);
  const mail = await mailbox.waitForMail((m) => m.to.includes(email) && m.receivedAt >= t0 && m.subject.startsWith('Reset your password'));
  const code = remember('reset code', extractCode(mail));
  const newPassword = remember('new password', `pw-${crypto.randomUUID()}`);
  expect((await p.client.post('/auth/password/reset', { code, password: newPassword })).status).toBe(200);
  const again = await p.client.post('/auth/password/sign-in', { email, password: newPassword });
  expect(again.status).toBe(200);
  remember('last access token', again.body.access_token);
  remember('last refresh token', again.body.refresh_token);

  // Owner-plane and MFA changes are security events (issue 17 §8): their secrets stay out of the log too.
  const totpSecret = remember('TOTP secret', Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString('base64'));
  expect((await p.client.patch('/users/me', { totp_secret_base64: totpSecret }, { accessToken: again.body.access_token })).status).toBe(200);
  const keySet = await p.admin.post('/internal/api-keys', { description: 'obs', expires_at_millis: Date.now() + 3600_000, has_publishable_client_key: false, has_secret_server_key: true, has_super_secret_admin_key: true });
  expect(keySet.status).toBe(200);
  remember('new secret server key', keySet.body.secret_server_key);
  remember('new super secret admin key', keySet.body.super_secret_admin_key);
  const impersonation = await p.server.post('/auth/sessions', { user_id: signUp.body.user_id, is_impersonation: true });
  expect(impersonation.status).toBe(200);
  remember('impersonation access token', impersonation.body.access_token);
  remember('impersonation refresh token', impersonation.body.refresh_token);
}

describe('logs', () => {
  beforeAll(fullFlow, 90_000);

  test('one access-log line per request: method, route pattern, status, duration, request id, project id', () => {
    const lines = logEntries().filter((e) => e.msg === 'request');
    const signIns = lines.filter((e) => e.route === '/api/v1/auth/password/sign-in' && e.project_id === p.id);
    expect(signIns.length).toBe(2);
    for (const e of signIns) {
      expect(e).toMatchObject({ level: 'info', method: 'POST', status: 200 });
      expect(typeof e.duration_ms).toBe('number');
      expect(e.req_id).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(typeof e.time).toBe('string');
    }
    // Route patterns, never path values: the reset code and ids stay out.
    expect(lines.some((e) => e.route === '/api/v1/auth/password/reset')).toBe(true);
  });

  test('an incoming x-request-id, or else the trace id of a traceparent, is carried into the response and the log', async () => {
    const byRequestId = await p.client.get('/users/me', { headers: { 'x-request-id': 'lb-7f3a-42' } });
    expect(byRequestId.headers.get('x-request-id')).toBe('lb-7f3a-42');
    expect(byRequestId.headers.get('x-stack-request-id')).toBe('lb-7f3a-42');
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const byTrace = await p.client.get('/users/me', { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    expect(byTrace.headers.get('x-request-id')).toBe(traceId);
    // A value that is not an id is not echoed.
    const junk = await p.client.get('/users/me', { headers: { 'x-request-id': 'x'.repeat(300) } });
    expect(junk.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9_-]{16}$/);
    await Bun.sleep(100);
    const entries = logEntries();
    expect(entries.find((e) => e.req_id === 'lb-7f3a-42')).toMatchObject({ route: '/api/v1/users/me', status: 400, project_id: p.id });
    expect(entries.find((e) => e.trace_id === traceId)).toMatchObject({ req_id: traceId, route: '/api/v1/users/me' });
  });

  test('the flow is in the security-event log: sign-ins, the reset, MFA on, an API key set, an impersonation', () => {
    const events = logEntries().filter((e) => e.msg === 'security event' && e.project_id === p.id).map((e) => e.event);
    for (const name of ['sign_in.succeeded', 'password.reset', 'mfa.totp_enabled', 'api_key.created', 'impersonation.created']) expect(events).toContain(name);
  });

  test('no token, password, code or key appears anywhere in the output', () => {
    const output = svc.output();
    expect(secrets.size).toBe(20);
    const leaked = [...secrets].filter(([, value]) => output.includes(value)).map(([what]) => what);
    expect(leaked).toEqual([]);
  });
});

describe('metrics', () => {
  const value = (text: string, series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : undefined;
  };
  const scrape = async () => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return res.text();
  };

  test('counts the flows: requests by route and status, latency, sign-ins by outcome, rate-limit refusals, outbox', async () => {
    const before = await scrape();
    const signInOk = value(before, 'gatehouse_sign_ins_total{method="password",outcome="success"}') ?? 0;
    const email = uniqueEmail('limits');
    expect((await p.client.post('/auth/password/sign-up', { email, password: 'correct-horse-1', verification_callback_url: 'http://localhost:3000/v' })).status).toBe(200);
    expect((await p.client.post('/auth/password/sign-in', { email, password: 'correct-horse-1' })).status).toBe(200);
    // sign_in_account=3/3600: three wrong passwords, then the fourth attempt is refused.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await p.client.post('/auth/password/sign-in', { email, password: 'wrong-password-1' })).status);
    expect(statuses).toEqual([400, 400, 400, 429]);

    // The database figures are read at most every few seconds (issue 30 §6): scrape until the flow's mails show.
    let after = await scrape();
    for (const until = Date.now() + 20_000; (value(after, 'gatehouse_email_outbox{status="sent"}') ?? 0) < 2 && Date.now() < until;) {
      await Bun.sleep(500);
      after = await scrape();
    }
    const route = (status: number) => `{method="POST",route="/auth/password/sign-in",status="${status}"}`;
    expect(value(after, `gatehouse_sign_ins_total{method="password",outcome="success"}`)).toBe(signInOk + 1);
    expect(value(after, `gatehouse_sign_ins_total{method="password",outcome="failure"}`)).toBe((value(before, 'gatehouse_sign_ins_total{method="password",outcome="failure"}') ?? 0) + 4);
    expect(value(after, `gatehouse_http_requests_total${route(200)}`)).toBe(signInOk + 1);
    expect(value(after, `gatehouse_http_requests_total${route(429)}`)).toBe(1);
    expect(value(after, `gatehouse_http_request_duration_seconds_count${route(400)}`)).toBe((value(before, `gatehouse_http_request_duration_seconds_count${route(400)}`) ?? 0) + 3);
    expect(value(after, 'gatehouse_rate_limit_refusals_total{route="/auth/password/sign-in"}')).toBe(1);
    expect(value(after, 'gatehouse_sign_ups_total{method="password",outcome="success"}')).toBeGreaterThanOrEqual(2);
    // The verification and reset mails of the flow went through the outbox.
    expect(value(after, 'gatehouse_email_outbox{status="sent"}')).toBeGreaterThanOrEqual(2);
    expect(value(after, 'gatehouse_email_failed_attempts')).toBe(0);
    expect(after).toContain('# TYPE gatehouse_webhook_deliveries gauge');
    expect(after).toContain('# TYPE gatehouse_http_requests_in_progress gauge');
  });

  test('the metrics are not served on the API port', async () => {
    // (Paths outside /api are the demo app's: whatever answers there, it is not the figures.)
    for (const path of ['/metrics', '/api/v1/metrics']) expect(await (await fetch(`${svc.url}${path}`)).text()).not.toContain('gatehouse_http_requests_total');
  });
});
