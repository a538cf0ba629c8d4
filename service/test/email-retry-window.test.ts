// The outbox's retry window (issue 14 §4), against a real PGlite database and a real SMTP server: a mail without a
// code is retried with capped back-off until its max age, then given up ("Not delivered within ..."); a mail with
// a code is retried until the code expires ("Expired before delivery") and is never sent after; both bodies are
// deleted when given up; a mail whose server comes back within its window is delivered once.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { type Database } from '../src/db/index';
import { openTestDatabase } from './support/pglite-template';
import { emailAttempts, emails, projects } from '../src/db/schema';
import { enqueueEmail, startEmailWorker } from '../src/email/outbox';
import { useSecretsAtRestKeys } from '../src/db/secrets-at-rest';
import { startSmtpFixture, type SmtpFixture } from './support/smtp';

setDefaultTimeout(60_000);
const silent = { warn() {}, error() {} };
let dir: string;
let database: Database;
let smtp: SmtpFixture;

beforeAll(async () => {
  // A standard config's password is sealed in the queued row, as the service does after start-up.
  useSecretsAtRestKeys('outbox-test-server-secret-0123456789abcdef');
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-retry-'));
  database = await openTestDatabase({ dataDir: dir });
  await database.db.insert(projects).values({ id: 'retry-project', displayName: 'Retry', config: {} });
  smtp = await startSmtpFixture();
});
afterAll(async () => {
  await smtp?.stop();
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('no code: retried until the max age, then given up; a code: until it expires; in time: delivered once', async () => {
  const db = database.db;
  const config = { type: 'standard' as const, host: '127.0.0.1', port: smtp.port, username: 'u', password: 'p', sender_name: 'Retry', sender_email: 'retry@example.com' };
  const enqueue = (to: string, codeExpiresAt?: Date) =>
    enqueueEmail(db, { projectId: 'retry-project', projectDisplayName: 'Retry', emailConfig: config, to, subject: to, html: `<p>${to}</p>`, text: to, codeExpiresAt });
  await smtp.stop();
  const worker = startEmailWorker(db, { pollMs: 50, backoffBaseMs: 50, backoffCapMs: 200, maxAgeMs: 2_000, logger: silent, outbound: { allowPrivateNetworks: true } });
  try {
    const old = await enqueue('old@example.com');
    const coded = await enqueue('coded@example.com', new Date(Date.now() + 1_500));
    await Bun.sleep(1_000);
    const late = await enqueue('late@example.com', new Date(Date.now() + 30_000));
    await Bun.sleep(2_000);
    await smtp.start();
    await smtp.waitForMail((m) => m.to.includes('late@example.com'), 20_000);
    await Bun.sleep(500);

    const row = async (id: string) => (await db.select().from(emails).where(eq(emails.id, id)))[0]!;
    const attempts = async (id: string) => db.select().from(emailAttempts).where(eq(emailAttempts.emailId, id));
    expect(await row(old.id)).toMatchObject({ status: 'failed', html: null, text: null, lastError: { errorType: 'EXPIRED', message: 'Not delivered within 2 s of being queued: no more attempts' } });
    expect(await row(coded.id)).toMatchObject({ status: 'failed', html: null, text: null, lastError: { errorType: 'EXPIRED' } });
    expect(((await row(coded.id)).lastError as { message: string }).message).toStartWith('Expired before delivery');
    expect(await row(late.id)).toMatchObject({ status: 'sent', html: null, text: null });
    // Retried (connection refused) until the window closed; the last entry says why it stopped.
    const logged = await attempts(old.id);
    expect(logged.filter((a) => (a.error as { errorType?: string } | null)?.errorType === 'CONNECTION_FAILED').length).toBeGreaterThanOrEqual(2);
    expect(logged.filter((a) => (a.error as { errorType?: string } | null)?.errorType === 'EXPIRED')).toHaveLength(1);
    expect(smtp.messages.map((m) => m.to).flat().sort()).toEqual(['late@example.com']);
  } finally {
    await worker.stop();
  }
});
