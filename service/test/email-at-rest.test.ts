// No live code at rest in the sent-mail log (issue 14 §3): a queued mail's body is sealed (AES-256-GCM, key from the
// server secret) and deleted once the mail is delivered or has finally failed. Read straight from the database
// after a sign-in-code mail was delivered, and after one was queued while SMTP was down: no code in clear anywhere.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { rowsOf, type DB } from '../src/db/index';
import { uniqueEmail } from './support/service';
import { newProject, type TestProject } from './support/projects';
import { startServiceWithDatabase, type ServiceWithDatabase } from './support/service-database';
import { extractCode, startSmtpFixture, type SmtpFixture } from './support/smtp';

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
