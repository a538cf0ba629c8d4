// Issue 17 §4 (ASVS 11.1.2, 11.1.5, 2.2.1): limits run before lookups, sign-up and anonymous sign-up are limited per
// IP, and GET /users has a default and a maximum page size. (The per-account sign-in limit keyed on account and IP
// is in rate-limits.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { DEV_KEYS, clientApi, expectKnownError, startService, uniqueEmail, type ApiResponse, type RunningService } from './support/service';
import { newProject, type TestProject } from './support/projects';
import { setupSuite } from './support/suite';
import { isolatedDatabase } from './support/isolated-database';

const CALLBACK = 'http://localhost:12345/cb';
const { p } = await setupSuite();

let svc: RunningService;
let project: TestProject;
let ipCounter = 0;
const freshIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
const expectLimited = (res: ApiResponse) => expectKnownError(res, 'RATE_LIMITED', 429);

let db: Awaited<ReturnType<typeof isolatedDatabase>> | undefined;
beforeAll(async () => {
  // A database of its own under DATABASE_URL: this service's mail worker must not drain the shared service's outbox.
  db = await isolatedDatabase();
  svc = await startService({ env: { GATEHOUSE_TRUST_PROXY: 'true', GATEHOUSE_RATE_LIMITS: 'sign_up_ip=3/60,code_send_email=2/60', ...(db.url ? { DATABASE_URL: db.url } : {}) } });
  project = await newProject(svc, { config: { magic_link_enabled: true } });
}, 180_000);
afterAll(async () => { await svc?.stop(); await db?.drop(); }, 30_000);

describe('per-IP sign-up limits', () => {
  test('password sign-up: the limit counts every request of an IP, before the "already exists" lookup', async () => {
    const ip = freshIp();
    const first = uniqueEmail('signup');
    expect((await project.client.post('/auth/password/sign-up', { email: first, password: 'a-good-password-1' }, from(ip))).status).toBe(200);
    expectKnownError(await project.client.post('/auth/password/sign-up', { email: first, password: 'a-good-password-1' }, from(ip)), 'USER_EMAIL_ALREADY_EXISTS', 409);
    expect((await project.client.post('/auth/password/sign-up', { email: uniqueEmail('signup'), password: 'a-good-password-1' }, from(ip))).status).toBe(200);
    expectLimited(await project.client.post('/auth/password/sign-up', { email: uniqueEmail('signup'), password: 'a-good-password-1' }, from(ip)));
    // The existing address is no longer an oracle from this IP either.
    expectLimited(await project.client.post('/auth/password/sign-up', { email: first, password: 'a-good-password-1' }, from(ip)));
    // Another IP is unaffected.
    expect((await project.client.post('/auth/password/sign-up', { email: uniqueEmail('signup'), password: 'a-good-password-1' }, from(freshIp()))).status).toBe(200);
  });

  test('anonymous sign-up', async () => {
    const internal = clientApi(svc.url, DEV_KEYS.projectId, DEV_KEYS.publishableClientKey);
    const ip = freshIp();
    for (let i = 0; i < 3; i++) expect((await internal.post('/auth/anonymous/sign-up', {}, from(ip))).status).toBe(200);
    expectLimited(await internal.post('/auth/anonymous/sign-up', {}, from(ip)));
    expect((await internal.post('/auth/anonymous/sign-up', {}, from(freshIp()))).status).toBe(200);
  });
});

test('send-sign-in-code: the code-sending limit runs before the lookup, and an unverified address is answered as any', async () => {
  const email = uniqueEmail('unverified');
  expect((await project.client.post('/auth/password/sign-up', { email, password: 'a-good-password-1' }, from(freshIp()))).status).toBe(200);
  const answers: number[] = [];
  for (let i = 0; i < 4; i++) answers.push((await project.client.post('/auth/otp/send-sign-in-code', { email, callback_url: CALLBACK }, from(freshIp()))).status);
  // Before issue 17: 409 USER_EMAIL_ALREADY_EXISTS every time (35 of 35 in the probe); before issue 30 §4,
  // 409 until the limit. Now as for an address without an account.
  expect(answers).toEqual([200, 200, 429, 429]);
  const unknown: number[] = [];
  const other = uniqueEmail('unknown');
  for (let i = 0; i < 4; i++) unknown.push((await project.client.post('/auth/otp/send-sign-in-code', { email: other, callback_url: CALLBACK }, from(freshIp()))).status);
  expect(unknown).toEqual(answers);
});

describe('GET /users page size', () => {
  test('omitted: 100 with a cursor to the rest (before: everything); a limit above the maximum (1,000) is clamped, not refused', async () => {
    const project = p;
    await Promise.all(Array.from({ length: 105 }, (_, i) => project.server.post('/users', { display_name: `bulk ${i}` })).map(async (r) => expect((await r).status).toBe(201)));
    const page = await project.server.get('/users');
    expect(page.body.items.length).toBe(100);
    expect(typeof page.body.pagination.next_cursor).toBe('string');
    const rest = await project.server.get(`/users?cursor=${page.body.pagination.next_cursor}`);
    expect(rest.body.items.length).toBeGreaterThanOrEqual(5);
    expect(rest.body.items.length).toBeLessThan(100);
    const huge = await project.server.get(`/users?limit=${Number.MAX_SAFE_INTEGER}`);
    expect(huge.status).toBe(200);
    expect(huge.body.items.length).toBe(page.body.items.length + rest.body.items.length);
    expect(huge.body.pagination.next_cursor).toBeNull();
  });
});
