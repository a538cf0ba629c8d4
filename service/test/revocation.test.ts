// Issue 17 §2: a revoked session's access tokens are refused at once (ASVS 3.3.1, 3.3.3), on the instance that
// revoked it and, through LISTEN/NOTIFY, on every other one within a second; an instance started later loads the
// recent revocations. Before, authentication checked only the JWT and such a token worked for up to 600 s.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import postgres from 'postgres';
import { Api, expectKnownError, startService, type ApiResponse, type RunningService } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { setupSuite } from './support/suite';
import { extractCode } from './support/smtp';

const { svc, p } = await setupSuite();
const CALLBACK = 'http://localhost:12345/cb';

const me = (project: TestProject, accessToken: string) => project.client.get('/users/me', { accessToken });
const expectRevoked = (res: ApiResponse) => expectKnownError(res, 'ACCESS_TOKEN_EXPIRED', 401);

async function secondSession(project: TestProject, u: { email: string; password: string }) {
  const res = await project.client.post('/auth/password/sign-in', { email: u.email, password: u.password });
  expect(res.status).toBe(200);
  return { accessToken: res.body.access_token as string, refreshToken: res.body.refresh_token as string };
}

describe('on one instance', () => {
  test('sign-out: the access token stops working at once', async () => {
    const u = await signUp(p);
    expect((await me(p, u.accessToken)).status).toBe(200);
    expect((await p.client.delete('/auth/sessions/current', { accessToken: u.accessToken })).status).toBe(200);
    const after = await me(p, u.accessToken);
    expectRevoked(after);
    // Also for writes, not only reads.
    expectRevoked(await p.client.patch('/users/me', { display_name: 'ghost' }, { accessToken: u.accessToken }));
  });

  test('DELETE /auth/sessions/{id}: that session\'s tokens are refused, the caller\'s are not', async () => {
    const u = await signUp(p);
    const other = await secondSession(p, u);
    const list = await p.client.get(`/auth/sessions?user_id=me`, { accessToken: u.accessToken });
    const otherId = list.body.items.find((s: any) => !s.is_current_session).id;
    expect((await p.client.delete(`/auth/sessions/${otherId}?user_id=me`, { accessToken: u.accessToken })).status).toBe(200);
    expectRevoked(await me(p, other.accessToken));
    expect((await me(p, u.accessToken)).status).toBe(200);
  });

  test('password change ends the other sessions; a reset ends them all', async () => {
    const u = await signUp(p);
    const other = await secondSession(p, u);
    const changed = await p.client.post('/auth/password/update', { old_password: u.password, new_password: 'changed-password-1' },
      { accessToken: u.accessToken, refreshToken: u.refreshToken });
    expect(changed.status).toBe(200);
    expectRevoked(await me(p, other.accessToken));
    expect((await me(p, u.accessToken)).status).toBe(200);

    const t0 = Date.now();
    await p.client.post('/auth/password/send-reset-code', { email: u.email, callback_url: CALLBACK });
    const mail = await svc.mailbox.waitForMail((m) => m.to.includes(u.email) && m.receivedAt >= t0 && m.subject.startsWith('Reset'));
    expect((await p.client.post('/auth/password/reset', { code: extractCode(mail), password: 'reset-password-1' })).status).toBe(200);
    expectRevoked(await me(p, u.accessToken));
  });

  test('a password set by the server and the user\'s deletion end the sessions too; other users are untouched', async () => {
    const u = await signUp(p);
    const bystander = await signUp(p);
    expect((await p.server.patch(`/users/${u.userId}`, { password: 'server-set-password-1' })).status).toBe(200);
    expectRevoked(await me(p, u.accessToken));

    const v = await signUp(p);
    expect((await p.server.delete(`/users/${v.userId}`)).status).toBe(200);
    expectRevoked(await p.client.patch('/users/me', { display_name: 'gone' }, { accessToken: v.accessToken }));
    expect((await me(p, bystander.accessToken)).status).toBe(200);
  });

  // Issue 30 §5a, Stack's projects.test.ts ("should increment and decrement userCount"): a user deletes themselves
  // with admin access, and the next admin request still carries their access token. The keys decide: the stale
  // token is ignored (Stack finds no user for it), where with client access it is refused so that clients refresh.
  test('with server or admin keys, a revoked session\'s access token is ignored: the request runs without a user', async () => {
    const project = await newProject(svc);
    const u = await signUp(project);
    expect((await project.admin.get('/internal/metrics')).body.total_users).toBe(1);
    expect((await project.admin.delete('/users/me', { accessToken: u.accessToken })).status).toBe(200);
    const metrics = await project.admin.get('/internal/metrics', { accessToken: u.accessToken });
    expect(metrics.status).toBe(200);
    expect(metrics.body.total_users).toBe(0);
    expect((await project.server.get('/projects/current', { accessToken: u.accessToken })).status).toBe(200);
    expectKnownError(await project.server.get('/users/me', { accessToken: u.accessToken }), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    expectRevoked(await me(project, u.accessToken));
    // A signed-out session too (its user still exists): the server gets no user from it.
    const v = await signUp(project);
    expect((await project.client.delete('/auth/sessions/current', { accessToken: v.accessToken })).status).toBe(200);
    expectKnownError(await project.server.get('/users/me', { accessToken: v.accessToken }), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    expectRevoked(await me(project, v.accessToken));
  });

  test('an owner\'s admin access token stops working when the owner signs out', async () => {
    const project = await newProject(svc);
    expect((await project.ownerAdmin.get('/projects/current')).status).toBe(200);
    expect((await new Api(svc.url, { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': 'this-publishable-client-key-is-for-local-development-only' })
      .delete('/auth/sessions/current', { accessToken: project.ownerAccessToken })).status).toBe(200);
    expectKnownError(await project.ownerAdmin.get('/projects/current'), 'ADMIN_ACCESS_TOKEN_EXPIRED', 401);
  });
});

// Two (then three) instances on one PostgreSQL database.
describe('across instances', () => {
  const ADMIN_URL = process.env.DATABASE_URL ?? process.env.GATEHOUSE_TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  let scratchDb: string | undefined;
  let databaseUrl: string;
  let a: RunningService;
  let b: RunningService;
  let c: RunningService | undefined;

  beforeAll(async () => {
    scratchDb = `gh_revocation_${process.pid}_${Date.now()}`;
    const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${scratchDb}`);
    await admin.end();
    const url = new URL(ADMIN_URL);
    url.pathname = `/${scratchDb}`;
    databaseUrl = url.toString();
    a = await startService({ env: { DATABASE_URL: databaseUrl } });
    b = await startService({ env: { DATABASE_URL: databaseUrl } });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), c?.stop()]);
    if (scratchDb) {
      const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${scratchDb} with (force)`);
      await admin.end();
    }
  }, 30_000);

  test('a session revoked on one instance is refused on the other within a second, and by an instance started later', async () => {
    const project = await newProject(a);
    const onB = new Api(b.url, project.client.headers);
    const u = await signUp(project);
    const other = await secondSession(project, u);
    expect((await onB.get('/users/me', { accessToken: u.accessToken })).status).toBe(200); // verified and cached on B
    expect((await onB.get('/users/me', { accessToken: other.accessToken })).status).toBe(200);

    expect((await project.client.delete('/auth/sessions/current', { accessToken: u.accessToken })).status).toBe(200);
    const revokedAt = Date.now();
    let res: ApiResponse;
    for (;;) {
      res = await onB.get('/users/me', { accessToken: u.accessToken });
      if (res.status !== 200 || Date.now() - revokedAt > 1_000) break;
      await Bun.sleep(20);
    }
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(1_000);
    expectRevoked(res);
    // The user's other session is not affected.
    expect((await onB.get('/users/me', { accessToken: other.accessToken })).status).toBe(200);

    c = await startService({ env: { DATABASE_URL: databaseUrl } });
    expectRevoked(await new Api(c.url, project.client.headers).get('/users/me', { accessToken: u.accessToken }));
    expect((await new Api(c.url, project.client.headers).get('/users/me', { accessToken: other.accessToken })).status).toBe(200);
  });
});

