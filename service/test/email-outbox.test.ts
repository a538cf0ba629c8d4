// Email delivery: templates, transports, the durable outbox and the test-email helper, against a real PGlite
// database (migrations applied) and a real SMTP server.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { Value } from '@sinclair/typebox/value';
import { EmailTemplateContent, EMAIL_TEMPLATE_TYPES } from '@gatehouse/shared/schemas/email-templates';
import { type Database, type DB } from '../src/db/index';
import { openTestDatabase } from './support/pglite-template';
import { emailAttempts, emails, projects } from '../src/db/schema';
import {
  DEFAULT_EMAIL_TEMPLATES, MAGIC_LINK_TEMPLATE_V1, getDefaultEmailTemplate, magicLinkTemplateVersion, renderTemplate,
} from '@gatehouse/shared/email-templates';
import {
  NO_SHARED_SMTP_MESSAGE, createMailTransport, describeSendError, senderConfigFor, sharedSmtpSettings, type StandardEmailConfig,
} from '../src/email/transport';
import {
  backoffDelayMs, enqueueEmail, enqueueTemplatedEmail, findSentEmail, listSentEmails, startEmailWorker,
  type EmailWorker, type EmailWorkerOptions,
} from '../src/email/outbox';
import { sendTestEmail } from '../src/email/test-email';
import { useSecretsAtRestKeys } from '../src/db/secrets-at-rest';
import { Wakers } from '../src/worker-loop';
import { extractCode, extractCodeLink, extractOtp, startSmtpFixture, type SmtpFixture } from './support/smtp';

const silent = { warn() {}, error() {} };
// The SMTP servers of these tests listen on 127.0.0.1, which a project's own config may only reach when allowed.
const LOCAL_TARGETS = { allowPrivateNetworks: true };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A port nothing listens on (bound once, then released). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

// ---------------------------------------------------------------------------------------------------------------

describe('templates', () => {
  test('default subjects are the protocol ones', () => {
    expect(DEFAULT_EMAIL_TEMPLATES.email_verification.subject).toBe('Verify your email at {{ projectDisplayName }}');
    expect(DEFAULT_EMAIL_TEMPLATES.password_reset.subject).toBe('Reset your password at {{ projectDisplayName }}');
    expect(DEFAULT_EMAIL_TEMPLATES.magic_link.subject).toBe('Sign in to {{ projectDisplayName }}: Your code is {{ otp }}');
    expect(DEFAULT_EMAIL_TEMPLATES.team_invitation.subject).toBe('You have been invited to join {{ teamDisplayName }}');
    expect(Object.keys(DEFAULT_EMAIL_TEMPLATES)).toEqual([...EMAIL_TEMPLATE_TYPES]);
  });

  test('every default (and the v1 magic link) is valid EmailTemplateContent and mentions its link in both parts', () => {
    const links = { email_verification: 'emailVerificationLink', password_reset: 'passwordResetLink', magic_link: 'magicLink', team_invitation: 'teamInvitationLink' } as const;
    for (const type of Object.keys(links) as (keyof typeof links)[]) {
      const t = DEFAULT_EMAIL_TEMPLATES[type];
      expect(Value.Check(EmailTemplateContent, t.content)).toBe(true);
      const out = renderTemplate(t, { projectDisplayName: 'Acme', teamDisplayName: 'Team', otp: 'ABC123', [links[type]]: 'https://app.example.com/cb?code=xyz' });
      expect(out.text).toContain('https://app.example.com/cb?code=xyz');
      expect(out.html).toContain('href="https://app.example.com/cb?code=xyz"');
      expect(out.html).not.toContain('{{');
      expect(out.text).not.toContain('{{');
    }
    // Security notifications carry no link (a notice must not look like a sign-in mail) and fill every variable.
    for (const type of EMAIL_TEMPLATE_TYPES.filter((t) => !(t in links))) {
      const t = DEFAULT_EMAIL_TEMPLATES[type];
      expect(Value.Check(EmailTemplateContent, t.content)).toBe(true);
      const out = renderTemplate(t, { projectDisplayName: 'Acme', userDisplayName: 'Ann', email: 'new@example.com' });
      expect(`${out.subject}${out.html}${out.text}`).not.toContain('{{');
      expect(out.html).not.toContain('href=');
      expect(out.text).toContain('Hi Ann,');
      if (type.startsWith('sign_in_email')) expect(out.text).toContain('new@example.com');
    }
    expect(Value.Check(EmailTemplateContent, MAGIC_LINK_TEMPLATE_V1.content)).toBe(true);
    expect(Value.Check(EmailTemplateContent, { html: '', text: '', extra: 1 })).toBe(false);
    expect(Value.Check(EmailTemplateContent, { html: '<p>x</p>' })).toBe(false);
    expect(Value.Check(EmailTemplateContent, { html: 1, text: '' })).toBe(false);
  });

  test('values are HTML-escaped in html, verbatim in text, single-line in the subject; unknown variables are empty', () => {
    const t = { subject: 'Hi {{ name }} from {{project}}{{ missing }}', content: { html: '<p>{{ name }}</p><a href="{{ link }}">x</a>{{{ name }}}', text: '{{ name }} {{ link }}|{{ missing }}|' } };
    const out = renderTemplate(t, { name: `<script>"O'Neil" & co</script>`, project: 'Evil\r\nBcc: victim@example.com', link: 'https://x.test/?a=1&b=2' });
    expect(out.html).toBe(
      '<p>&lt;script&gt;&quot;O&#39;Neil&quot; &amp; co&lt;/script&gt;</p><a href="https://x.test/?a=1&amp;b=2">x</a>&lt;script&gt;&quot;O&#39;Neil&quot; &amp; co&lt;/script&gt;',
    );
    expect(out.text).toBe(`<script>"O'Neil" & co</script> https://x.test/?a=1&b=2||`);
    expect(out.subject).toBe(`Hi <script>"O'Neil" & co</script> from Evil Bcc: victim@example.com`);
    expect(out.subject).not.toMatch(/[\r\n]/);
  });

  test('{{#if}} sections, with {{else}} and nesting', () => {
    const t = { subject: '', content: { html: '', text: '{{#if a}}A{{#if b}}B{{else}}notB{{/if}}{{else}}notA{{/if}}' } };
    expect(renderTemplate(t, { a: 'x', b: 'y' }).text).toBe('AB');
    expect(renderTemplate(t, { a: 'x' }).text).toBe('AnotB');
    expect(renderTemplate(t, { a: '' }).text).toBe('notA');
    const greeting = (vars: Record<string, string>) => renderTemplate(DEFAULT_EMAIL_TEMPLATES.password_reset, { projectDisplayName: 'P', passwordResetLink: 'l', ...vars }).text.split('\n')[0];
    expect(greeting({ userDisplayName: 'Ada' })).toBe('Hi Ada,');
    expect(greeting({})).toBe('Hi,');
  });

  test('magic link: v2 has the OTP on a line of its own, v1 only the link', () => {
    const vars = { projectDisplayName: 'Acme', otp: 'K7M2QX', magicLink: 'http://localhost:3000/handler/magic-link-callback?code=k7m2qxabc' };
    const v2 = renderTemplate(getDefaultEmailTemplate('magic_link'), vars);
    expect(v2.subject).toBe('Sign in to Acme: Your code is K7M2QX');
    expect(v2.text.split('\n')).toContain('K7M2QX');
    expect(extractOtp(v2)).toBe('K7M2QX');
    expect(extractCodeLink(v2)).toBe(vars.magicLink);
    expect(extractCode(v2)).toBe('k7m2qxabc');
    const v1 = renderTemplate(getDefaultEmailTemplate('magic_link', { magicLinkVersion: 1 }), vars);
    expect(v1.text).not.toContain('K7M2QX');
    expect(v1.html).not.toContain('K7M2QX');
    expect(v1.text).toContain(vars.magicLink);
  });

  test('magic-link version from x-stack-client-version', () => {
    expect(magicLinkTemplateVersion('js @stackframe/stack@2.5.37')).toBe(1);
    expect(magicLinkTemplateVersion('js @stackframe/stack@2.4.0')).toBe(1);
    expect(magicLinkTemplateVersion('js @stackframe/stack@1.9.99')).toBe(1);
    expect(magicLinkTemplateVersion('js @stackframe/stack@2.5.38')).toBe(2);
    expect(magicLinkTemplateVersion('js @stackframe/stack@2.8.3')).toBe(2);
    expect(magicLinkTemplateVersion('js @stackframe/js@2.5.0')).toBe(2);
    expect(magicLinkTemplateVersion('garbage')).toBe(2);
    expect(magicLinkTemplateVersion(undefined)).toBe(2);
  });

  test('back-off doubles from 2 s, is capped at 10 min, and jitters within [d/2, d]', () => {
    expect(backoffDelayMs(1, 2_000, 600_000, () => 1)).toBe(2_000);
    expect(backoffDelayMs(1, 2_000, 600_000, () => 0)).toBe(1_000);
    expect(backoffDelayMs(3, 2_000, 600_000, () => 1)).toBe(8_000);
    expect(backoffDelayMs(20, 2_000, 600_000, () => 1)).toBe(600_000);
    for (let i = 0; i < 50; i++) {
      const d = backoffDelayMs(4);
      expect(d).toBeGreaterThanOrEqual(8_000);
      expect(d).toBeLessThanOrEqual(16_000);
    }
  });
});

describe('transport', () => {
  test('shared config without SMTP_URL prints the mail and counts it as sent', async () => {
    const t = createMailTransport({ type: 'shared' }, { projectDisplayName: 'Acme', shared: { smtpSender: 'noreply@gatehouse.local' } });
    expect(t.mode).toBe('console');
    expect(t.sender).toEqual({ type: 'shared', host: 'console', port: 0, username: '', sender_name: 'Acme', sender_email: 'noreply@gatehouse.local' });
    const logged: string[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => void logged.push(args.join(' '));
    try {
      await t.send({ to: ['a@example.com'], subject: 'Hello', text: 'Body line' });
    } finally {
      console.log = original;
    }
    expect(logged.join('\n')).toContain('To: a@example.com');
    expect(logged.join('\n')).toContain('Subject: Hello');
    expect(logged.join('\n')).toContain('Body line');
  });

  test('shared config without SMTP_URL in production: nothing printed, every send fails permanently with NOT_CONFIGURED', async () => {
    const logged: string[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => void logged.push(args.join(' '));
    const env = process.env.NODE_ENV;
    try {
      const t = createMailTransport({ type: 'shared' }, { projectDisplayName: 'Acme', shared: { smtpSender: 'noreply@gatehouse.local', consoleFallback: false } });
      expect(t.mode).toBe('unconfigured');
      expect(t.sender).toEqual({ type: 'shared', host: '', port: 0, username: '', sender_name: 'Acme', sender_email: 'noreply@gatehouse.local' });
      const err = await t.send({ to: ['a@example.com'], subject: 'Hello', text: 'Your code is SECRET1' }).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect(describeSendError(err)).toMatchObject({ errorType: 'NOT_CONFIGURED', canRetry: false, message: NO_SHARED_SMTP_MESSAGE });
      expect(NO_SHARED_SMTP_MESSAGE).toBe('no SMTP server configured for the shared email config; set SMTP_URL');
      // Unsaid, the choice follows NODE_ENV: a caller that forgets the flag never prints codes in production.
      process.env.NODE_ENV = 'production';
      expect(createMailTransport({ type: 'shared' }, { projectDisplayName: 'Acme', shared: { smtpSender: 'x@example.com' } }).mode).toBe('unconfigured');
      process.env.NODE_ENV = 'development';
      expect(createMailTransport({ type: 'shared' }, { projectDisplayName: 'Acme', shared: { smtpSender: 'x@example.com' } }).mode).toBe('console');
      expect(sharedSmtpSettings({ NODE_ENV: 'production' }).consoleFallback).toBe(false);
      expect(sharedSmtpSettings({}).consoleFallback).toBe(true);
      // SMTP_URL set: SMTP whatever the environment.
      expect(createMailTransport({ type: 'shared' }, { projectDisplayName: 'Acme', shared: { smtpUrl: 'smtp://127.0.0.1:1', smtpSender: 'x@example.com', consoleFallback: false } }).mode).toBe('smtp');
    } finally {
      console.log = original;
      if (env === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = env;
    }
    expect(logged.join('\n')).not.toContain('SECRET1');
  });

  test('sender config: shared from SMTP_URL, standard from the project; never the password', () => {
    const shared = senderConfigFor({ type: 'shared' }, { projectDisplayName: 'Acme', shared: { smtpUrl: 'smtp://mailer:s3cret@mail.internal:2525', smtpSender: 'noreply@example.com' } });
    expect(shared).toEqual({ type: 'shared', host: 'mail.internal', port: 2525, username: 'mailer', sender_name: 'Acme', sender_email: 'noreply@example.com' });
    const std = senderConfigFor({ type: 'standard', host: 'smtp.example.com', port: 465, username: 'u', password: 'pw', sender_name: 'S', sender_email: 's@example.com' }, { projectDisplayName: 'Acme' });
    expect(std).toEqual({ type: 'standard', host: 'smtp.example.com', port: 465, username: 'u', sender_name: 'S', sender_email: 's@example.com' });
    expect(JSON.stringify([shared, std])).not.toMatch(/s3cret|pw/);
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('outbox', () => {
  let dir: string;
  let database: Database;
  let db: DB;
  let smtp: SmtpFixture;
  let authSmtp: SmtpFixture;
  let rejectingSmtp: SmtpFixture;
  const running: EmailWorker[] = [];
  /** This process's email workers, as Services.emailWorkers holds them: queueing a mail wakes them. */
  const wakers = new Wakers();
  const P1 = 'project-one';
  const P2 = 'project-two';

  const std = (port = smtp.port): StandardEmailConfig => ({
    type: 'standard', host: '127.0.0.1', port, username: 'user', password: 'hunter2', sender_name: 'Acme Mail', sender_email: 'mail@acme.test',
  });
  const worker = (opts: EmailWorkerOptions = {}) => {
    const w = startEmailWorker(db, { pollMs: 25, logger: silent, outbound: LOCAL_TARGETS, wakers, ...opts });
    running.push(w);
    return w;
  };
  const rowsOfProject = (projectId: string) => db.select().from(emails).where(eq(emails.projectId, projectId));
  const rowById = async (id: string) => (await db.select().from(emails).where(eq(emails.id, id)))[0]!;
  /** The logged attempts of one mail, oldest first. */
  const attemptsOf = (id: string) => db.select().from(emailAttempts).where(eq(emailAttempts.emailId, id)).orderBy(emailAttempts.createdAt);
  const enqueue = (subject: string, extra: Partial<Parameters<typeof enqueueEmail>[1]> = {}) =>
    enqueueEmail(db, { projectId: P1, projectDisplayName: 'Acme', emailConfig: std(), to: 'user@example.com', subject, html: `<p>${subject}</p>`, text: subject, ...extra }, { workers: wakers });

  beforeAll(async () => {
    // A standard config's password is sealed in the queued row, as the service does after start-up.
    useSecretsAtRestKeys('outbox-test-server-secret-0123456789abcdef');
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-email-'));
    database = await openTestDatabase({ dataDir: dir });
    db = database.db;
    await db.insert(projects).values([
      { id: P1, displayName: 'Acme', config: {} },
      { id: P2, displayName: 'Other', config: {} },
    ]);
    smtp = await startSmtpFixture();
    authSmtp = await startSmtpFixture({ auth: { username: 'user', password: 'right' } });
    rejectingSmtp = await startSmtpFixture({ rejectRecipients: /^nobody@/ });
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((w) => w.stop()));
    await smtp.start();
    smtp.clear();
    // Nothing a test left undelivered may leak into the next one.
    await db.delete(emails).where(inArray(emails.status, ['pending', 'sending']));
  });

  afterAll(async () => {
    await Promise.all([smtp?.stop(), authSmtp?.stop(), rejectingSmtp?.stop()]);
    await database?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('a templated mail is delivered within moments, with escaped variables in the HTML part', async () => {
    worker({ pollMs: 60_000 }); // only the kick can make this fast
    const started = Date.now();
    const { id } = await enqueueTemplatedEmail(db, {
      projectId: P1,
      projectDisplayName: 'Acme <Labs>',
      emailConfig: std(),
      to: ['ada@example.com', 'bob@example.com'],
      type: 'email_verification',
      variables: { userDisplayName: '<b>Ada</b> & "friends"', emailVerificationLink: 'http://localhost:3000/verify?code=abc&x=1' },
    }, { workers: wakers });
    const mail = await smtp.waitForMail((m) => m.subject.startsWith('Verify your email'), 20_000);
    // Well below the 60 s poll: only the kick can deliver it this soon (generous for a busy machine).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(mail.subject).toBe('Verify your email at Acme <Labs>');
    expect(mail.to).toEqual(['ada@example.com', 'bob@example.com']);
    expect(mail.envelopeTo).toEqual(['ada@example.com', 'bob@example.com']);
    expect(mail.from).toBe('"Acme Mail" <mail@acme.test>');
    expect(mail.html).toContain('Hi &lt;b&gt;Ada&lt;/b&gt; &amp; &quot;friends&quot;,');
    expect(mail.html).not.toContain('<b>Ada</b>');
    expect(mail.html).toContain('href="http://localhost:3000/verify?code=abc&amp;x=1"');
    expect(mail.text).toContain('Hi <b>Ada</b> & "friends",');
    expect(extractCode(mail)).toBe('abc');

    const row = await waitFor(async () => { const r = await rowById(id); return r.status === 'sent' && r; });
    expect(row.attempts).toBe(1);
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(row.lastError).toBeNull();
    expect(row.transportConfig).toBeNull(); // the password is not kept once delivered
  });

  // Issue 30 §1: the record keeps what the recipient read, with each code and link token in its place as a
  // placeholder, whatever the (customised) template does with them; the live copy is gone once the mail is sent.
  test('a customised template\'s codes and links are recorded as placeholders wherever it puts them', async () => {
    worker();
    const otp = 'K7QW2Z';
    const magicLink = 'http://localhost:3000/magic?code=k7qw2zabcdefghjkmnpqrstvwxyz0123456789abcdefg';
    const { id } = await enqueueTemplatedEmail(db, {
      projectId: P1, projectDisplayName: 'Acme', emailConfig: std(), to: 'otp@example.com', type: 'magic_link',
      template: {
        subject: '{{ otp }} is your code ({{ magicLink }})',
        content: { html: '<a href="{{ magicLink }}" title="{{ otp }}">{{{ otp }}}</a>{{#if otp}} yes{{/if}} {{ userDisplayName }}', text: 'Code {{otp}}, link {{magicLink}}, hi {{ userDisplayName }}' },
      },
      variables: { otp, magicLink, userDisplayName: 'Ada' },
    }, { workers: wakers });
    const mail = await smtp.waitForMail((m) => m.to.includes('otp@example.com'), 20_000);
    expect(mail.subject).toBe(`${otp} is your code (${magicLink})`);
    const row = await waitFor(async () => { const r = await rowById(id); return r.status === 'sent' && r; });
    expect(row.subject).toBe('[code] is your code ([link])');
    expect(row.redactedHtml).toBe('<a href="[link]" title="[code]">[code]</a> yes Ada');
    expect(row.redactedText).toBe('Code [code], link [link], hi Ada');
    expect({ liveSubject: row.liveSubject, html: row.html, text: row.text }).toEqual({ liveSubject: null, html: null, text: null });
    expect(JSON.stringify(row)).not.toContain(otp);
    expect(JSON.stringify(row)).not.toContain('k7qw2zabcdef');
  });

  test('shared config goes through SMTP_URL with the project name as sender', async () => {
    const shared = { smtpUrl: smtp.url, smtpSender: 'noreply@example.com' };
    worker({ shared });
    const { id } = await enqueueEmail(db, { projectId: P1, projectDisplayName: 'Shared Co', emailConfig: { type: 'shared' }, to: 'x@example.com', subject: 'shared one', text: 'hi' }, { shared });
    const mail = await smtp.waitForMail((m) => m.subject === 'shared one');
    expect(mail.from).toBe('"Shared Co" <noreply@example.com>');
    const row = await rowById(id);
    expect(row.transportConfig).toBeNull();
    expect(row.senderConfig).toEqual({ type: 'shared', host: '127.0.0.1', port: smtp.port, username: '', sender_name: 'Shared Co', sender_email: 'noreply@example.com' });
  });

  test('enqueueing inside a transaction: rolled back ⇒ never sent; committed ⇒ sent', async () => {
    worker({ pollMs: 60_000 });
    await db.transaction(async (tx) => {
      await enqueueEmail(tx, { projectId: P1, projectDisplayName: 'Acme', emailConfig: std(), to: 'u@example.com', subject: 'in rolled-back tx', text: 't' });
      tx.rollback();
    }).catch(() => {});
    await db.transaction(async (tx) => {
      await enqueueEmail(tx, { projectId: P1, projectDisplayName: 'Acme', emailConfig: std(), to: 'u@example.com', subject: 'in committed tx', text: 't' });
    });
    wakers.wake();
    await smtp.waitForMail((m) => m.subject === 'in committed tx', 20_000); // the poll is 60 s: only the kick sends it
    await sleep(200);
    expect(smtp.messages.some((m) => m.subject === 'in rolled-back tx')).toBe(false);
    expect((await rowsOfProject(P1)).some((r) => r.subject === 'in rolled-back tx')).toBe(false);
  });

  test('SMTP down: enqueue does not wait, attempts are recorded and retried with back-off; SMTP up: each mail delivered exactly once', async () => {
    await smtp.stop();
    worker({ backoffBaseMs: 100, backoffCapMs: 400 });
    const t0 = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await enqueue(`down-${i}`)).id);
    expect(Date.now() - t0).toBeLessThan(1_000);

    const failing = await waitFor(async () => {
      const rows = await db.select().from(emails).where(inArray(emails.id, ids));
      return rows.every((r) => r.status === 'pending' && r.attempts >= 2) && rows;
    }, 20_000, 'two failed attempts each');
    for (const r of failing) {
      const err = r.lastError as { errorType: string; canRetry: boolean; message: string; rawError: { code?: string } };
      expect(err.errorType).toBe('CONNECTION_FAILED');
      expect(err.canRetry).toBe(true);
      expect(err.rawError.code).toBeDefined();
      // The next attempt is scheduled after the last one, by the back-off.
      expect(r.nextAttemptAt.getTime()).toBeGreaterThan(r.lastAttemptAt!.getTime());
    }
    // Every failed attempt so far is an entry of its own in the list.
    const listedDown = (await listSentEmails(db, P1)).filter((e) => e.subject.startsWith('down-'));
    for (let i = 0; i < 3; i++) {
      const mine = listedDown.filter((e) => e.subject === `down-${i}`);
      expect(mine.length).toBeGreaterThanOrEqual(2);
      for (const e of mine) expect(e.error).toMatchObject({ errorType: 'CONNECTION_FAILED', canRetry: true });
    }

    await smtp.start();
    await waitFor(async () => {
      const rows = await db.select().from(emails).where(inArray(emails.id, ids));
      return rows.every((r) => r.status === 'sent') && rows;
    }, 20_000, 'delivery after SMTP came back');
    await sleep(300);
    for (let i = 0; i < 3; i++) expect(smtp.messages.filter((m) => m.subject === `down-${i}`).length).toBe(1);
    // Each mail: its failed attempts, then the success, newest first; one entry per logged attempt.
    const listed = await listSentEmails(db, P1);
    expect(new Set(listed.map((e) => e.id)).size).toBe(listed.length);
    for (let i = 0; i < 3; i++) {
      const row = await rowById(ids[i]!);
      const mine = listed.filter((e) => e.subject === `down-${i}`);
      expect(mine.length).toBe(row.attempts);
      expect(mine[0]!.error).toBeNull();
      expect(mine.slice(1).length).toBeGreaterThanOrEqual(2);
      for (const e of mine.slice(1)) expect(e.error).toMatchObject({ errorType: 'CONNECTION_FAILED' });
      expect(mine.every((e, j) => j === 0 || e.sent_at_millis <= mine[j - 1]!.sent_at_millis)).toBe(true);
      expect((await attemptsOf(ids[i]!)).map((a) => a.id).reverse()).toEqual(mine.map((e) => e.id));
    }
  });

  test('a restart picks up pending rows, and rows left "sending" by a crashed worker once their lease expires', async () => {
    // No worker running: these stay pending, as they would across a restart.
    const a = await enqueue('restart-a');
    const b = await enqueue('restart-b');
    const crashed = await enqueue('crashed');
    const leased = await enqueue('still leased');
    await db.update(emails).set({ status: 'sending', attempts: 1, lastAttemptAt: sql`now() - interval '3 minutes'`, nextAttemptAt: sql`now() - interval '1 minute'` }).where(eq(emails.id, crashed.id));
    await db.update(emails).set({ status: 'sending', attempts: 1, nextAttemptAt: sql`now() + interval '1 hour'` }).where(eq(emails.id, leased.id));
    await sleep(100);
    expect(smtp.messages.length).toBe(0);
    expect((await rowById(a.id)).status).toBe('pending');

    worker();
    await smtp.waitForMail((m) => m.subject === 'restart-a');
    await smtp.waitForMail((m) => m.subject === 'restart-b');
    const resent = await smtp.waitForMail((m) => m.subject === 'crashed');
    // Named by its row, as every attempt at it is: a receiver tells a mail sent again after a crash by its Message-ID.
    expect(resent.messageId).toBe(`<${crashed.id}@acme.test>`);
    await waitFor(async () => (await rowById(crashed.id)).status === 'sent');
    expect((await rowById(crashed.id)).attempts).toBe(2);
    // The crashed attempt is logged too, with an unknown outcome, before the one that went through.
    expect((await attemptsOf(crashed.id)).map((a) => a.error)).toEqual([
      { errorType: 'UNKNOWN', canRetry: false, message: 'The worker sending this email stopped before recording the outcome', rawError: expect.any(Object) },
      null,
    ]);
    await sleep(200);
    expect(smtp.messages.some((m) => m.subject === 'still leased')).toBe(false);
    expect((await rowById(leased.id)).status).toBe('sending');
    expect(await attemptsOf(leased.id)).toEqual([]);
    // The outcome is written once the SMTP server has accepted the mail: wait for it rather than assume it.
    await waitFor(async () => (await rowById(b.id)).status === 'sent');
    expect((await attemptsOf(b.id)).map((x) => x.error)).toEqual([null]);
  });

  test('two workers at once never send a row twice', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await enqueue(`pair-${i}`)).id);
    worker({ batchSize: 4, pollMs: 5 });
    worker({ batchSize: 4, pollMs: 5 });
    await waitFor(async () => {
      const rows = await db.select().from(emails).where(inArray(emails.id, ids));
      return rows.every((r) => r.status === 'sent') && rows;
    }, 20_000, 'all 30 sent');
    await sleep(300);
    for (let i = 0; i < 30; i++) expect(smtp.messages.filter((m) => m.subject === `pair-${i}`).length).toBe(1);
    const rows = await db.select().from(emails).where(inArray(emails.id, ids));
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
    expect((await db.select().from(emailAttempts).where(inArray(emailAttempts.emailId, ids))).length).toBe(30);
  });

  test('gives up after maxAttempts on transient failures, at once on permanent ones', async () => {
    worker({ maxAttempts: 3, backoffBaseMs: 20, backoffCapMs: 50 });
    const dead = await enqueue('nowhere', { emailConfig: std(await closedPort()) });
    const badAuth = await enqueue('bad auth', { emailConfig: { ...std(authSmtp.port), username: 'user', password: 'wrong' } });
    const rejected = await enqueue('rejected', { emailConfig: std(rejectingSmtp.port), to: 'nobody@example.com' });
    const goodAuth = await enqueue('good auth', { emailConfig: { ...std(authSmtp.port), username: 'user', password: 'right' } });

    const final = (id: string) => waitFor(async () => { const r = await rowById(id); return (r.status === 'failed' || r.status === 'sent') && r; });
    const d = await final(dead.id);
    expect(d.status).toBe('failed');
    expect(d.attempts).toBe(3);
    expect((d.lastError as { errorType: string }).errorType).toBe('CONNECTION_FAILED');
    expect(d.transportConfig).toBeNull();
    expect((await attemptsOf(dead.id)).map((x) => (x.error as { errorType: string }).errorType)).toEqual(['CONNECTION_FAILED', 'CONNECTION_FAILED', 'CONNECTION_FAILED']);

    const a = await final(badAuth.id);
    expect(a.status).toBe('failed');
    expect(a.attempts).toBe(1);
    expect(a.lastError).toMatchObject({ errorType: 'AUTH_FAILED', canRetry: false });
    expect((await attemptsOf(badAuth.id)).map((x) => x.error)).toEqual([a.lastError]);

    const r = await final(rejected.id);
    expect(r.status).toBe('failed');
    expect(r.attempts).toBe(1);
    expect(r.lastError).toMatchObject({ errorType: 'REJECTED', canRetry: false, rawError: { responseCode: 550 } });

    expect((await final(goodAuth.id)).status).toBe('sent');
    const got = await authSmtp.waitForMail((m) => m.subject === 'good auth');
    expect(got.user).toBe('user');
  });

  test('listSentEmails: one entry per attempt, newest first, at most 100, only the project, wire shape without the password', async () => {
    await db.delete(emails);
    worker();
    const first = await enqueue('list-first');
    await smtp.waitForMail((m) => m.subject === 'list-first');
    await waitFor(async () => (await rowById(first.id)).status === 'sent');
    const other = await enqueueEmail(db, { projectId: P2, projectDisplayName: 'Other', emailConfig: std(), to: 'o@example.com', subject: 'other project', text: 'x' });
    await waitFor(async () => (await rowById(other.id)).status === 'sent');
    await Promise.all(running.splice(0).map((w) => w.stop()));
    // One mail with 104 logged attempts (the last one delivered), stamped later than the first mail's.
    const [bulk] = await db.insert(emails).values({
      projectId: P1, to: ['bulk@example.com'], subject: 'bulk', html: null, text: 'x', status: 'sent', attempts: 104,
      senderConfig: senderConfigFor(std(), { projectDisplayName: 'Acme' }), transportConfig: std(),
    }).returning({ id: emails.id });
    await db.insert(emailAttempts).values(Array.from({ length: 104 }, (_, i) => ({
      projectId: P1, emailId: bulk!.id, error: i === 103 ? null : { errorType: 'TEMPORARY', attempt: i }, createdAt: new Date(Date.now() + 60_000 + i * 1_000),
    })));

    const list = await listSentEmails(db, P1);
    expect(list.length).toBe(100);
    expect(list[0]).toMatchObject({ subject: 'bulk', error: null });
    expect(list[1]!.error).toMatchObject({ errorType: 'TEMPORARY', attempt: 102 });
    expect(list[99]!.error).toMatchObject({ errorType: 'TEMPORARY', attempt: 4 });
    expect(new Set(list.map((e) => e.id)).size).toBe(100);
    expect(list.every((e, i) => i === 0 || e.sent_at_millis <= list[i - 1]!.sent_at_millis)).toBe(true);
    expect(list.some((e) => e.subject === 'other project' || e.subject === 'list-first')).toBe(false);
    expect(JSON.stringify(list)).not.toContain('hunter2');
    expect(Object.keys(list[0]!).sort()).toEqual(['error', 'id', 'sender_config', 'sent_at_millis', 'subject', 'to']);
    expect(list[0]!.sender_config).toEqual({ host: '127.0.0.1', port: smtp.port, sender_email: 'mail@acme.test', sender_name: 'Acme Mail', type: 'standard', username: 'user' });
    expect((await listSentEmails(db, P2)).map((e) => e.subject)).toEqual(['other project']);

    // A queued mail is not listed until it has been attempted (listed with error null it would look delivered).
    await db.delete(emails).where(eq(emails.projectId, P1)); // its attempts go with it
    expect(await db.select().from(emailAttempts).where(eq(emailAttempts.projectId, P1))).toEqual([]);
    await smtp.stop();
    const queued = await enqueue('only one');
    expect(await listSentEmails(db, P1)).toEqual([]);
    worker({ backoffBaseMs: 50, backoffCapMs: 100 });
    await waitFor(async () => (await attemptsOf(queued.id)).length >= 1, 20_000, 'a failed attempt');
    const failed = await listSentEmails(db, P1);
    expect(failed[0]!.error).toMatchObject({ errorType: 'CONNECTION_FAILED' });
    await smtp.start();
    await waitFor(async () => (await rowById(queued.id)).status === 'sent', 20_000, 'delivery');
    const attempts = await attemptsOf(queued.id);
    const success = attempts[attempts.length - 1]!;
    const [item] = await listSentEmails(db, P1);
    expect(item).toEqual({
      id: success.id, to: ['user@example.com'], subject: 'only one', sent_at_millis: success.createdAt.getTime(), error: null,
      sender_config: { host: '127.0.0.1', port: smtp.port, sender_email: 'mail@acme.test', sender_name: 'Acme Mail', type: 'standard', username: 'user' },
    });
    // A success is SQL NULL, not the JSON value null.
    expect((await db.select().from(emailAttempts).where(and(eq(emailAttempts.emailId, queued.id), isNull(emailAttempts.error)))).map((a) => a.id)).toEqual([success.id]);
  });

  test('shared config without SMTP_URL in production: each mail fails once with NOT_CONFIGURED, is listed, and is never printed', async () => {
    const shared = { smtpSender: 'noreply@example.com', consoleFallback: false };
    const warnings: string[] = [];
    const printed: string[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => void printed.push(args.join(' '));
    try {
      worker({ shared, logger: { warn: (...args: unknown[]) => void warnings.push(args.join(' ')), error() {} } });
      const { id } = await enqueueTemplatedEmail(db, {
        projectId: P2, projectDisplayName: 'Prod Co', emailConfig: { type: 'shared' }, to: 'prod@example.com',
        type: 'magic_link', variables: { otp: 'PRD7QX', magicLink: 'http://localhost:3000/magic?code=prodsecretcode' },
      }, { shared });
      const row = await waitFor(async () => { const r = await rowById(id); return r.status === 'failed' && r; }, 20_000, 'the failed attempt');
      expect(row.attempts).toBe(1);
      expect(row.lastError).toMatchObject({ errorType: 'NOT_CONFIGURED', canRetry: false, message: NO_SHARED_SMTP_MESSAGE });
      const entry = (await listSentEmails(db, P2)).find((e) => e.to.includes('prod@example.com'))!;
      expect(entry.error).toEqual(row.lastError);
      expect(entry.sender_config).toEqual({ type: 'shared', host: '', port: 0, username: '', sender_name: 'Prod Co', sender_email: 'noreply@example.com' });
      await sleep(200);
      expect(await attemptsOf(id)).toHaveLength(1);
    } finally {
      console.log = original;
    }
    for (const line of [...printed, ...warnings]) expect(line).not.toMatch(/PRD7QX|prodsecretcode/);
    expect(warnings.join('\n')).toContain(NO_SHARED_SMTP_MESSAGE);
  });

  // -------------------------------------------------------------------------------------------------------------

  test('findSentEmail: one entry of the list with the recorded html and text; none for another project or a non-uuid id', async () => {
    worker();
    const { id } = await enqueue('detail-one');
    await waitFor(async () => (await rowById(id)).status === 'sent');
    const [attempt] = await attemptsOf(id);
    const found = await findSentEmail(db, P1, attempt!.id);
    expect(found).toMatchObject({ id: attempt!.id, subject: 'detail-one', html: '<p>detail-one</p>', text: 'detail-one', error: null });
    expect(typeof found!.html).toBe('string');
    expect(await findSentEmail(db, P2, attempt!.id)).toBeUndefined();
    expect(await findSentEmail(db, P1, 'nope')).toBeUndefined();
  });

  test('sendTestEmail succeeds against a running server and logs the attempt', async () => {
    const { type: _type, ...config } = std();
    const result = await sendTestEmail(config, 'admin@example.com', { outbound: LOCAL_TARGETS, log: { db, projectId: P2 } });
    expect(result).toEqual({ success: true });
    const mail = await smtp.waitForMail((m) => m.subject === 'Test email from Gatehouse for Acme Mail');
    expect(mail.to).toEqual(['admin@example.com']);
    expect(mail.from).toBe('"Acme Mail" <mail@acme.test>');
    expect(mail.text.length).toBeGreaterThan(0);
    const logged = (await listSentEmails(db, P2)).find((e) => e.subject === 'Test email from Gatehouse for Acme Mail');
    expect(logged).toMatchObject({ to: ['admin@example.com'], error: null });
    expect(await db.select().from(emailAttempts).where(and(eq(emailAttempts.id, logged!.id), isNull(emailAttempts.error)))).toHaveLength(1);
  });

  test('sendTestEmail failures: closed port, wrong credentials, silent server', async () => {
    const { type: _type, ...config } = std();
    const refused = await sendTestEmail({ ...config, port: await closedPort() }, 'admin@example.com', { outbound: LOCAL_TARGETS, log: { db, projectId: P2 } });
    expect(refused).toEqual({ success: false, error_message: 'Failed to connect to the email host. Please make sure the email host configuration is correct.' });
    const logged = (await listSentEmails(db, P2))[0]!;
    expect(logged.error).toMatchObject({ errorType: 'CONNECTION_FAILED' });

    const auth = await sendTestEmail({ ...config, port: authSmtp.port, password: 'wrong' }, 'admin@example.com', { outbound: LOCAL_TARGETS });
    expect(auth).toEqual({ success: false, error_message: 'Failed to authenticate with the email server. Please check your email credentials configuration.' });

    // Accepts the connection but never greets.
    const sockets: import('node:net').Socket[] = [];
    const silentServer: Server = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => silentServer.listen(0, '127.0.0.1', r));
    try {
      const started = Date.now();
      const timedOut = await sendTestEmail({ ...config, port: (silentServer.address() as { port: number }).port }, 'admin@example.com', { outbound: LOCAL_TARGETS, timeoutMs: 500 });
      expect(timedOut).toEqual({ success: false, error_message: 'Timed out while sending test email. Make sure the email server is running and accepting connections.' });
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silentServer.close(() => r()));
    }
  });
});
