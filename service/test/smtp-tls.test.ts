// SMTP that requires TLS (issue 30, ASVS 2.7.4), against real SMTP servers (smtp-server on 127.0.0.1): a project's
// own server with `require_tls`, the shared config's `SMTP_URL` with `?requireTLS=true`, and the production start
// check that refuses a shared server reached in clear.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uniqueEmail } from './support/service';
import { newProject } from './support/projects';
import { setupSuite } from './support/suite';
import { startSmtpFixture, type SmtpFixture } from './support/smtp';
import { PRODUCTION_ENV } from './support/production';
import { createMailTransport } from '../src/email/transport';
import { loadConfig, sharedSmtpTlsProblem } from '../src/config';

const { svc } = await setupSuite();
let plain: SmtpFixture;
let tls: SmtpFixture;
beforeAll(async () => {
  plain = await startSmtpFixture();
  tls = await startSmtpFixture({ starttls: true });
});
afterAll(async () => { await plain?.stop(); await tls?.stop(); });

const configFor = (port: number, o: Record<string, unknown> = {}) => ({
  host: '127.0.0.1', port, username: 'someone', password: 'secret-password', sender_name: 'Tester', sender_email: 'tester@example.com', ...o,
});

describe("a project's own server with require_tls", () => {
  test('a server without STARTTLS gets nothing: the send fails; without require_tls the same server gets the mail', async () => {
    const p = await newProject(svc);
    const refused = uniqueEmail('tls-refused');
    const res = await p.admin.post('/internal/send-test-email', { recipient_email: refused, email_config: configFor(plain.port, { require_tls: true }) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: false, error_message: 'Failed to connect to the email host. Please make sure the email host configuration is correct.' });
    const sent = uniqueEmail('tls-optional');
    expect((await p.admin.post('/internal/send-test-email', { recipient_email: sent, email_config: configFor(plain.port, { require_tls: false }) })).body).toEqual({ success: true });
    await plain.waitForMail((m) => m.to.includes(sent));
    expect(plain.messages.some((m) => m.to.includes(refused))).toBe(false);
  });

  test('is stored with the config, and the project mail then fails instead of going out in clear', async () => {
    const p = await newProject(svc);
    const email_config = { type: 'standard', ...configFor(plain.port, { require_tls: true }) };
    const patched = await p.admin.patch('/projects/current', { config: { email_config } });
    expect(patched.status).toBe(200);
    expect(patched.body.config.email_config).toEqual(email_config);
    // Sign-up with a callback sends the verification mail through the project's server.
    const to = uniqueEmail('verify-tls');
    const signedUp = await p.client.post('/auth/password/sign-up', { email: to, password: 'correct-horse-1', verification_callback_url: 'http://localhost:3000/handler/email-verification' });
    expect(signedUp.status).toBe(200);
    const end = Date.now() + 30_000;
    let items: any[] = [];
    while (Date.now() < end) {
      items = (await p.admin.get('/internal/emails')).body.items;
      if (items.some((e) => e.to.includes(to) && e.error)) break;
      await Bun.sleep(200);
    }
    expect(items.find((e) => e.to.includes(to))?.error).toBeTruthy();
    expect(plain.messages.some((m) => m.to.includes(to))).toBe(false);
    // A config written without the field (as Stack's SDK writes it) reads back without it.
    const sdkConfig = { type: 'standard', ...configFor(plain.port) };
    expect((await p.admin.patch('/projects/current', { config: { email_config: sdkConfig } })).body.config.email_config).toEqual(sdkConfig);
  });
});

describe('the shared config (SMTP_URL)', () => {
  const send = async (smtpUrl: string, to: string) => {
    const transport = createMailTransport({ type: 'shared' }, { projectDisplayName: 'Acme', shared: { smtpUrl, smtpSender: 'noreply@example.com' }, timeoutMs: 10_000 });
    try { await transport.send({ to: [to], subject: 'Hello', text: 'Hi' }); } finally { transport.close(); }
  };

  test('?requireTLS=true sends over STARTTLS, and refuses a server that does not offer it', async () => {
    const to = uniqueEmail('shared-tls');
    await send(`smtp://127.0.0.1:${tls.port}?requireTLS=true&rejectUnauthorized=false`, to);
    expect((await tls.waitForMail((m) => m.to.includes(to))).secure).toBe(true);
    const refused = uniqueEmail('shared-clear');
    await expect(send(`smtp://127.0.0.1:${plain.port}?requireTLS=true`, refused)).rejects.toMatchObject({ code: 'ETLS' });
    expect(plain.messages.some((m) => m.to.includes(refused))).toBe(false);
  });

  test('production requires it: smtps:// or ?requireTLS=true, never ignoreTLS', () => {
    const problem = (env: Record<string, string>) => sharedSmtpTlsProblem(loadConfig(env));
    expect(problem({ NODE_ENV: 'production', SMTP_URL: 'smtp://u:p@mail.example.com:587' })).toMatch(/^SMTP_URL must require TLS in production/);
    expect(problem({ NODE_ENV: 'production', SMTP_URL: 'smtp://u:p@mail.example.com:587?requireTLS=true&ignoreTLS=true' })).toMatch(/^SMTP_URL must not set ignoreTLS=true/);
    expect(problem({ NODE_ENV: 'production', SMTP_URL: 'smtp://u:p@mail.example.com:587?requireTLS=true' })).toBeNull();
    expect(problem({ NODE_ENV: 'production', SMTP_URL: 'smtps://u:p@mail.example.com' })).toBeNull();
    expect(problem({ NODE_ENV: 'production' })).toBeNull();
    expect(problem({ NODE_ENV: 'development', SMTP_URL: 'smtp://u:p@127.0.0.1:25' })).toBeNull();
  });

  test('a production start with a shared server reached in clear stops, naming SMTP_URL and not its password', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-smtp-tls-'));
    try {
      const proc = Bun.spawn([process.execPath, join(import.meta.dir, '../src/main.ts')], {
        env: { ...process.env, ...PRODUCTION_ENV, DATABASE_URL: '', PORT: '0', GATEHOUSE_DATA_DIR: dataDir, SMTP_URL: `smtp://mailer:hunter2-secret@127.0.0.1:${plain.port}` },
        stdout: 'pipe', stderr: 'pipe',
      });
      const timer = setTimeout(() => proc.kill('SIGKILL'), 30_000);
      const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
      clearTimeout(timer);
      expect(await proc.exited).not.toBe(0);
      expect(out + err).toContain('Gatehouse cannot start: SMTP_URL must require TLS in production');
      expect(out + err).not.toContain('hunter2-secret');
      expect(out + err).not.toContain('listening on');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
