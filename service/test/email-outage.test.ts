// A long SMTP outage loses no mail that is still useful (issue 14 §4). Time is compressed with the settings: codes
// live 12 s, retries back off from 100 ms to at most 400 ms (the old policy gave up after 8 attempts, ~2 s here).
// SMTP is down for 13 s: the mail whose code expired meanwhile is marked "expired before delivery" and never sent;
// every mail whose code is still valid arrives exactly once when SMTP is back.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { startService, uniqueEmail, type RunningService } from './support/service';
import { newProject, type TestProject } from './support/projects';
import { isolatedDatabase } from './support/isolated-database';
import { startSmtpFixture, type SmtpFixture } from './support/smtp';

setDefaultTimeout(120_000);
const CALLBACK = 'http://localhost:12345/outage-callback';
let smtp: SmtpFixture;
let svc: RunningService;
let p: TestProject;
let db: Awaited<ReturnType<typeof isolatedDatabase>>;

beforeAll(async () => {
  smtp = await startSmtpFixture();
  db = await isolatedDatabase();
  svc = await startService({
    env: {
      SMTP_URL: smtp.url, GATEHOUSE_RATE_LIMITS: 'off', GATEHOUSE_EMAIL_CODE_LIFETIME_SECONDS: '12',
      GATEHOUSE_EMAIL_RETRY_BASE_MS: '100', GATEHOUSE_EMAIL_RETRY_CAP_MS: '400', GATEHOUSE_EMAIL_POLL_MS: '100',
      ...(db.url ? { DATABASE_URL: db.url } : {}),
    },
  });
  p = await newProject(svc, { config: { magic_link_enabled: true } });
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await smtp?.stop();
  await db?.drop();
});

const send = async (email: string) => expect((await p.client.post('/auth/otp/send-sign-in-code', { email, callback_url: CALLBACK })).status).toBe(200);

test('SMTP down past the old give-up point: valid codes arrive exactly once, an expired one never', async () => {
  await smtp.stop();
  const downAt = Date.now();
  const expired = uniqueEmail('expired');
  await send(expired); // its code expires 12 s from now, while SMTP is still down
  await Bun.sleep(5_000);
  const valid = [uniqueEmail('valid'), uniqueEmail('valid'), uniqueEmail('valid')];
  for (const e of valid) await send(e); // codes valid until ~17 s
  await Bun.sleep(Math.max(0, 13_000 - (Date.now() - downAt)));
  await smtp.start();

  for (const e of valid) await smtp.waitForMail((m) => m.to.includes(e), 20_000);
  await Bun.sleep(2_000); // time for a duplicate to show up, if any
  for (const e of valid) expect(smtp.messages.filter((m) => m.to.includes(e)).length).toBe(1);
  expect(smtp.messages.filter((m) => m.to.includes(expired))).toEqual([]);

  // The sent-email list says why the expired one was not sent.
  const list = await p.admin.get('/internal/emails');
  const last = list.body.items.find((i: { to: string[] }) => i.to.includes(expired));
  expect(last.error).toMatchObject({ errorType: 'EXPIRED', canRetry: false, message: expect.stringContaining('Expired before delivery') });
  // The valid ones went out after failed attempts (more than the old policy's 8 in total: it would have given up).
  const attempts = list.body.items.filter((i: { to: string[] }) => i.to.includes(valid[0]!));
  expect(attempts.filter((i: { error: unknown }) => i.error === null)).toHaveLength(1);
  expect(attempts.length).toBeGreaterThan(8);
});
