// Targets chosen by project owners (webhook URLs, their own SMTP host) never reach private or internal networks
// unless the operator allows it (net/outbound-targets.ts). A real service with GATEHOUSE_ALLOW_PRIVATE_NETWORK_TARGETS
// =false (as in production) against a real webhook receiver and real SMTP servers on 127.0.0.1, which must get nothing.
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../src/config';
import { isPublicAddress, pinnedFetchTarget, PrivateTargetRefused, resolveTarget } from '../src/net/outbound-targets';
import { webhookDeliveries } from '../src/db/schema';
import { uniqueEmail, type RunningService } from './support/service';
import { newProject, signUp } from './support/projects';
import { startServiceWithDatabase, type ServiceWithDatabase } from './support/service-database';
import { startSmtpFixture, type SmtpFixture } from './support/smtp';

setDefaultTimeout(60_000);

describe('isPublicAddress', () => {
  test('private, loopback, link-local (cloud metadata), CGNAT, multicast, reserved and mapped forms are not public', () => {
    for (const a of [
      '127.0.0.1', '127.255.0.9', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
      '0.0.0.0', '224.0.0.1', '255.255.255.255', '192.0.2.10',
      '::1', '::', 'fd00::1', 'fc00::5', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.1.2.3', '::ffff:7f00:1', '64:ff9b::a00:1', '::7f00:1', '2002:a00:1::1',
      '[::1]', 'localhost', 'not an address', '',
    ]) expect({ a, public: isPublicAddress(a) }).toEqual({ a, public: false });
  });

  test('public addresses are public', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '172.15.255.255', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8', '[2001:4860::8888]']) {
      expect({ a, public: isPublicAddress(a) }).toEqual({ a, public: true });
    }
  });
});

describe('resolveTarget and pinnedFetchTarget', () => {
  const refuse = { allowPrivateNetworks: false };
  const allow = { allowPrivateNetworks: true };

  test('a name resolving to loopback is refused, with the name and the address in the message', async () => {
    const err = await resolveTarget('localhost', refuse).catch((e) => e);
    expect(err).toBeInstanceOf(PrivateTargetRefused);
    expect(err.message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a private or internal network address/);
    await expect(resolveTarget('169.254.169.254', refuse)).rejects.toBeInstanceOf(PrivateTargetRefused);
    await expect(resolveTarget('[::1]', refuse)).rejects.toBeInstanceOf(PrivateTargetRefused);
  });

  test('allowed: the address to connect to, IPv4 first', async () => {
    expect(await resolveTarget('localhost', allow)).toBe('127.0.0.1');
    expect(await resolveTarget('10.1.2.3', allow)).toBe('10.1.2.3');
  });

  test('the fetch goes to the checked address; Host and TLS server name keep the name', async () => {
    expect(await pinnedFetchTarget('https://localhost:8443/hooks/in?x=1', allow)).toEqual({
      url: 'https://127.0.0.1:8443/hooks/in?x=1', host: 'localhost:8443', serverName: 'localhost',
    });
    expect(await pinnedFetchTarget('http://[::1]:9000/h', allow)).toEqual({ url: 'http://[::1]:9000/h', host: '[::1]:9000' });
    await expect(pinnedFetchTarget('http://127.0.0.1:9000/h', refuse)).rejects.toBeInstanceOf(PrivateTargetRefused);
  });

  test('a name that does not resolve is the resolver error, not a refusal', async () => {
    const err = await resolveTarget('no-such-host.invalid', refuse).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(PrivateTargetRefused);
  });
});

describe('GATEHOUSE_ALLOW_PRIVATE_NETWORK_TARGETS', () => {
  test('refused in production, allowed in development, unless set; bad values stop the start', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).outbound).toEqual({ allowPrivateNetworks: false });
    expect(loadConfig({}).outbound).toEqual({ allowPrivateNetworks: true });
    expect(loadConfig({ NODE_ENV: 'production', GATEHOUSE_ALLOW_PRIVATE_NETWORK_TARGETS: 'true' }).outbound).toEqual({ allowPrivateNetworks: true });
    expect(loadConfig({ GATEHOUSE_ALLOW_PRIVATE_NETWORK_TARGETS: 'false' }).outbound).toEqual({ allowPrivateNetworks: false });
    expect(() => loadConfig({ GATEHOUSE_ALLOW_PRIVATE_NETWORK_TARGETS: 'yes' })).toThrow('GATEHOUSE_ALLOW_PRIVATE_NETWORK_TARGETS: expected true or false, got "yes"');
  });
});

describe('a service that refuses private targets', () => {
  let svc: ServiceWithDatabase;
  let operatorSmtp: SmtpFixture;
  let projectSmtp: SmtpFixture;
  const received: string[] = [];
  let receiver: ReturnType<typeof Bun.serve>;
  beforeAll(async () => {
    operatorSmtp = await startSmtpFixture();
    projectSmtp = await startSmtpFixture();
    receiver = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: async (req) => { received.push(await req.text()); return new Response(null, { status: 204 }); } });
    svc = await startServiceWithDatabase({
      GATEHOUSE_ALLOW_PRIVATE_NETWORK_TARGETS: 'false',
      // The operator's own server (SMTP_URL) is the operator's choice: it stays usable on 127.0.0.1.
      SMTP_URL: operatorSmtp.url,
      GATEHOUSE_WEBHOOK_POLL_MS: '100', GATEHOUSE_WEBHOOK_RETRY_BASE_MS: '200', GATEHOUSE_WEBHOOK_RETRY_CAP_MS: '500',
    });
  }, 120_000);
  afterAll(async () => {
    await svc?.stop();
    receiver?.stop(true);
    await operatorSmtp?.stop();
    await projectSmtp?.stop();
  }, 30_000);
  const running = (): RunningService => ({ url: svc.url, output: () => svc.output(), stop: async () => {} });

  test('a webhook endpoint on localhost gets nothing; the delivery fails at once, without retries, saying why', async () => {
    const p = await newProject(running());
    const endpoint = await p.admin.post('/webhooks/endpoints', { url: `http://localhost:${receiver.port}/hook` });
    expect(endpoint.status).toBe(201);
    await signUp(p);
    // The worker says when it gives up; the database then holds the outcome (on PGlite the service owns its files,
    // so the database is read once, after the fact).
    const end = Date.now() + 20_000;
    while (!/\[webhooks\] attempt 1 of user\.created .* giving up/.test(svc.output()) && Date.now() < end) await Bun.sleep(100);
    await Bun.sleep(500);
    const rows = await svc.withDatabase((db) => db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.body.id)));
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect({ status: r.status, attempts: r.attempts }).toEqual({ status: 'failed', attempts: 1 });
      expect(r.lastError).toMatch(/^PrivateTargetRefused: localhost resolves to (127\.0\.0\.1|::1), a private or internal network address/);
    }
    expect(received).toEqual([]);
  });

  test('send-test-email to a private SMTP host answers success:false and connects to nothing', async () => {
    const p = await newProject(running());
    const to = uniqueEmail('ssrf');
    const res = await p.admin.post('/internal/send-test-email', {
      recipient_email: to,
      email_config: { host: '127.0.0.1', port: projectSmtp.port, username: 'u', password: 'p', sender_name: 'S', sender_email: 's@example.com' },
    });
    expect(res.body).toEqual({ success: false, error_message: 'Failed to connect to the email host. Please make sure the email host configuration is correct.' });
    const list = await p.admin.get('/internal/emails');
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0].error).toMatchObject({
      errorType: 'CONNECTION_FAILED', canRetry: false,
      message: expect.stringMatching(/^127\.0\.0\.1 resolves to 127\.0\.0\.1, a private or internal network address/),
    });
    expect(projectSmtp.connections).toBe(0);
  });

  test("a project's own SMTP host on a private network: flow mail fails once, permanently; shared-config mail still goes out", async () => {
    const own = await newProject(running(), {
      config: {
        magic_link_enabled: true,
        email_config: { type: 'standard', host: '127.0.0.1', port: projectSmtp.port, username: 'u', password: 'p', sender_name: 'Own', sender_email: 'own@example.com' },
      },
    });
    const email = uniqueEmail('own-smtp');
    expect((await own.client.post('/auth/otp/send-sign-in-code', { email, callback_url: 'http://localhost:3000/magic' })).status).toBe(200);
    const list = async () => (await own.admin.get('/internal/emails')).body.items as any[];
    const end = Date.now() + 20_000;
    while ((await list()).length === 0 && Date.now() < end) await Bun.sleep(200);
    // Permanent: no second attempt follows.
    await Bun.sleep(1_500);
    const items = await list();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ to: [email], error: { errorType: 'CONNECTION_FAILED', canRetry: false, message: expect.stringContaining('private or internal network address') } });
    expect(projectSmtp.connections).toBe(0);

    const shared = await newProject(running(), { config: { magic_link_enabled: true } });
    const other = uniqueEmail('shared-smtp');
    expect((await shared.client.post('/auth/otp/send-sign-in-code', { email: other, callback_url: 'http://localhost:3000/magic' })).status).toBe(200);
    await operatorSmtp.waitForMail((m) => m.to.includes(other), 20_000);
  });
});

describe('delivery to the checked address keeps the name for TLS', () => {
  // A receiver with a certificate for "localhost" only (no IP in it), trusted by the service through
  // NODE_EXTRA_CA_CERTS. The service connects to 127.0.0.1, the address it checked: the certificate verifies only
  // because the TLS server name (and the Host header) are still "localhost".
  let svc: ServiceWithDatabase;
  let receiver: ReturnType<typeof Bun.serve>;
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-tls-'));
  const received: { host: string | null; body: any }[] = [];
  beforeAll(async () => {
    const openssl = Bun.spawnSync(['openssl', 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost']);
    expect(openssl.exitCode).toBe(0);
    receiver = Bun.serve({
      port: 0, hostname: '127.0.0.1', tls: { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8') },
      fetch: async (req) => { received.push({ host: req.headers.get('host'), body: await req.json() }); return new Response(null, { status: 204 }); },
    });
    svc = await startServiceWithDatabase({ NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem'), GATEHOUSE_WEBHOOK_POLL_MS: '100' });
  }, 120_000);
  afterAll(async () => {
    await svc?.stop();
    receiver?.stop(true);
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  test('https://localhost:<port> is delivered, verified against "localhost", with Host localhost:<port>', async () => {
    const p = await newProject({ url: svc.url, output: () => svc.output(), stop: async () => {} });
    expect((await p.admin.post('/webhooks/endpoints', { url: `https://localhost:${receiver.port}/hook` })).status).toBe(201);
    const u = await signUp(p);
    const end = Date.now() + 20_000;
    while (!received.some((r) => r.body.type === 'user.created') && Date.now() < end) await Bun.sleep(50);
    const created = received.find((r) => r.body.type === 'user.created');
    expect(created).toMatchObject({ host: `localhost:${receiver.port}`, body: { type: 'user.created', data: { id: u.userId } } });
  });
});
