// No live code at rest in the sent-mail log (issue 14 §3): a queued mail's body is sealed (AES-256-GCM, key from the
// server secret) and deleted once the mail is delivered or has finally failed. Read straight from the database
// after a sign-in-code mail was delivered, and after one was queued while SMTP was down: no code in clear anywhere.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { rowsOf, type DB } from '../src/db/index';
import { uniqueEmail } from './support/service';
import { newProject, type TestProject } from './support/projects';
import { startServiceWithDatabase, type ServiceWithDatabase } from './support/service-database';
import { extractCode, extractOtp, startSmtpFixture, type SmtpFixture } from './support/smtp';

setDefaultTimeout(120_000);
const CALLBACK = 'http://localhost:12345/at-rest-callback';
let smtp: SmtpFixture;
let svc: ServiceWithDatabase;
let p: TestProject;

beforeAll(async () => {
  smtp = await startSmtpFixture();
  svc = await startServiceWithDatabase({ SMTP_URL: smtp.url });
  p = await newProject(svc, { config: { magic_link_enabled: true } });
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await smtp?.stop();
});

/** Every row of every table of the database, as text, that contains `needle`. */
async function rowsContaining(db: DB, needle: string): Promise<string[]> {
  const tables = rowsOf<{ table_name: string }>(await db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`));
  const hits: string[] = [];
  for (const { table_name } of tables) {
    const rows = rowsOf<{ row: string }>(await db.execute(sql.raw(`select t::text as row from "${table_name}" t where strpos(t::text, '${needle.replace(/'/g, "''")}') > 0`)));
    hits.push(...rows.map((r) => `${table_name}: ${r.row.slice(0, 200)}`));
  }
  return hits;
}

test('a delivered sign-in mail leaves no body (and no code) in the database', async () => {
  const email = uniqueEmail('atrest');
  expect((await p.client.post('/auth/otp/send-sign-in-code', { email, callback_url: CALLBACK })).status).toBe(200);
  const mail = await smtp.waitForMail((m) => m.to.includes(email));
  const code = extractCode(mail)!;
  expect(code).toHaveLength(45);
  // The outcome is recorded right after the server accepted the mail.
  const deadline = Date.now() + 20_000;
  let row: { status: string; html: string | null; text: string | null } | undefined;
  while (Date.now() < deadline) {
    row = await svc.withDatabase(async (db) => rowsOf<{ status: string; html: string | null; text: string | null }>(
      await db.execute(sql`select status, html, text from emails where ${email} = any("to")`))[0]);
    if (row?.status === 'sent') break;
    await Bun.sleep(200);
  }
  expect(row).toEqual({ status: 'sent', html: null, text: null });
  expect(await svc.withDatabase((db) => rowsContaining(db, code))).toEqual([]);
  expect(await svc.withDatabase((db) => rowsContaining(db, `${CALLBACK}?code=`))).toEqual([]);
  // The sent-email list still shows the mail.
  const list = await p.admin.get('/internal/emails');
  expect(list.body.items.some((i: { to: string[] }) => i.to.includes(email))).toBe(true);
});

/** The project's mail to `email` once its delivery is recorded: the stored subject and the kept (redacted) bodies. */
async function storedMail(email: string) {
  const deadline = Date.now() + 20_000;
  type Row = { status: string; subject: string; redacted_html: string | null; redacted_text: string | null };
  let row: Row | undefined;
  while (Date.now() < deadline) {
    row = await svc.withDatabase(async (db) => rowsOf<Row>(
      await db.execute(sql`select status, subject, redacted_html, redacted_text from emails where ${email} = any("to")`))[0]);
    if (row?.status === 'sent') break;
    await Bun.sleep(200);
  }
  return row;
}

// Issue 30 §1: the sign-in mail's subject carried its code ("Your code is WZ88NC"), kept for 90 days and shown by
// GET /internal/emails: anyone reading the table (or a backup) within the code's lifetime could sign in with it.
test('a sent sign-in mail leaves no code in any column nor in the sent-email list, and its stored subject signs no one in', async () => {
  const email = uniqueEmail('redacted');
  const sent = await p.client.post('/auth/otp/send-sign-in-code', { email, callback_url: CALLBACK });
  expect(sent.status).toBe(200);
  const nonce = sent.body.nonce as string;
  const mail = await smtp.waitForMail((m) => m.to.includes(email));
  const code = extractCode(mail)!;
  const otp = extractOtp(mail)!;
  expect(mail.subject).toContain(otp);
  const row = await storedMail(email);
  expect(row?.status).toBe('sent');
  // What the user received, kept for the owner to see, with every code and link token replaced by a placeholder.
  expect(row!.subject).toBe(mail.subject.replace(otp, '[code]'));
  expect(row!.redacted_text).toContain('[code]');
  expect(row!.redacted_text).toContain('[link]');
  expect(row!.redacted_html).toContain('[link]');
  for (const secret of [code, otp, `${CALLBACK}?code=`]) expect(await svc.withDatabase((db) => rowsContaining(db, secret))).toEqual([]);

  const list = await p.admin.get('/internal/emails');
  const listed = list.body.items.filter((i: { to: string[] }) => i.to.includes(email));
  expect(listed.map((i: { subject: string }) => i.subject)).toEqual([row!.subject]);
  expect(list.text).not.toContain(otp);
  expect(list.text).not.toContain(code);

  // A sign-in with what the stored subject shows where the code was fails; the mail's own code works.
  const shown = row!.subject.slice(row!.subject.lastIndexOf(' ') + 1);
  const fromStore = await p.client.post('/auth/otp/sign-in', { code: shown.toLowerCase() + nonce });
  expect(fromStore.status).toBeGreaterThanOrEqual(400);
  expect(fromStore.body?.access_token).toBeUndefined();
  const fromMail = await p.client.post('/auth/otp/sign-in', { code: otp + nonce });
  expect(fromMail.status).toBe(200);
});

test('a mail queued while SMTP is down is sealed at rest', async () => {
  await smtp.stop();
  try {
    const email = uniqueEmail('queued');
    expect((await p.client.post('/auth/otp/send-sign-in-code', { email, callback_url: CALLBACK })).status).toBe(200);
    // Give the worker time to try (and fail) at least once.
    await Bun.sleep(1500);
    const rows = await svc.withDatabase(async (db) => rowsOf<{ status: string; html: string | null; text: string | null }>(
      await db.execute(sql`select status, html, text from emails where ${email} = any("to")`)));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).not.toBe('sent');
    expect(rows[0]!.html).toStartWith('sealed:v1.');
    expect(rows[0]!.text).toStartWith('sealed:v1.');
    expect(await svc.withDatabase((db) => rowsContaining(db, `${CALLBACK}?code=`))).toEqual([]);
  } finally {
    await smtp.start();
  }
});
