// Issue 17 §8: the security-event log and the owner-plane audit log, on a real service with JSON logs and a real
// SMTP server. Each event type appears in the log with its project, user, IP, request id and UTC time; the owner-
// plane actions (impersonation, API keys, configuration changes, project creation, ownership and deletion) are
// audit rows listed by GET /internal/audit-log, admin only, one project's rows only, paged with a cursor.
// That no secret reaches the output is checked by observability.test.ts (whose flow now logs these events too).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Api, DEV_KEYS, expectKnownError, serverApi, startService, uniqueEmail, type ApiResponse, type RunningService } from './support/service';
import { extractCode, startSmtpFixture, type SmtpFixture } from './support/smtp';
import { newInternalUser, newProject, signUp, type TestProject } from './support/projects';

setDefaultTimeout(120_000);
let svc: RunningService;
let mailbox: SmtpFixture;
let p: TestProject;
let owner: Awaited<ReturnType<typeof newInternalUser>>;

beforeAll(async () => {
  mailbox = await startSmtpFixture();
  svc = await startService({
    env: { SMTP_URL: mailbox.url, GATEHOUSE_LOG_FORMAT: 'json', GATEHOUSE_RATE_LIMITS: 'sign_in_account=3/3600' },
    startTimeoutMs: 150_000,
  });
  owner = await newInternalUser(svc);
  p = await newProject(svc, { owner });
}, 180_000);
afterAll(async () => {
  await svc?.stop();
  await mailbox?.stop();
});

const internalAdmin = () => new Api(svc.url, { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'admin', 'x-stack-super-secret-admin-key': DEV_KEYS.superSecretAdminKey });

/** The security events logged so far (JSON lines with msg "security event"). */
function events(): Record<string, any>[] {
  return svc.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).filter((e) => e.msg === 'security event');
}

/** The one event of `name` logged for request `res`, checked for the fields every event carries. */
async function eventOf(res: ApiResponse, name: string) {
  const reqId = res.headers.get('x-stack-request-id');
  expect(reqId).toBeTruthy();
  await Bun.sleep(50);
  const found = events().filter((e) => e.req_id === reqId && e.event === name);
  expect(found.length, `${name} for request ${reqId}`).toBe(1);
  const e = found[0]!;
  expect(e.ip).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
  expect(e.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  expect(Math.abs(Date.parse(e.time) - Date.now())).toBeLessThan(60_000);
  return e;
}

async function auditPage(api: Api, query = ''): Promise<any> {
  const res = await api.get(`/internal/audit-log${query}`);
  expect(res.status).toBe(200);
  return res.body;
}

describe('security events', () => {
  test('sign-in failure and success, with the method; the account lockout and the rate-limit refusal', async () => {
    const u = await signUp(p);
    const wrong = await p.client.post('/auth/password/sign-in', { email: u.email, password: 'wrong-password-1' });
    expectKnownError(wrong, 'EMAIL_PASSWORD_MISMATCH', 400);
    // The account exists: the event names its user (issue 26; the answer is the same as for an unknown email).
    expect(await eventOf(wrong, 'sign_in.failed')).toMatchObject({ level: 'warn', project_id: p.id, user_id: u.userId, method: 'password', error: 'EMAIL_PASSWORD_MISMATCH' });
    const right = await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password });
    expect(right.status).toBe(200);
    expect(await eventOf(right, 'sign_in.succeeded')).toMatchObject({ level: 'info', project_id: p.id, user_id: u.userId, method: 'password' });

    for (let i = 0; i < 3; i++) await p.client.post('/auth/password/sign-in', { email: u.email, password: 'wrong-password-1' });
    const locked = await p.client.post('/auth/password/sign-in', { email: u.email, password: 'wrong-password-1' });
    expectKnownError(locked, 'RATE_LIMITED', 429);
    expect(await eventOf(locked, 'rate_limit.refused')).toMatchObject({ level: 'warn', project_id: p.id, rules: ['sign_in_account'] });
    expect(await eventOf(locked, 'sign_in.locked_out')).toMatchObject({ project_id: p.id, rules: ['sign_in_account'] });
    expect(await eventOf(locked, 'sign_in.failed')).toMatchObject({ method: 'password', error: 'RATE_LIMITED' });
  });

  test('MFA turned on and off, password changed and reset, sessions revoked', async () => {
    const u = await signUp(p);
    const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString('base64');
    const on = await p.client.patch('/users/me', { totp_secret_base64: secret }, { accessToken: u.accessToken });
    expect(on.status).toBe(200);
    expect(await eventOf(on, 'mfa.totp_enabled')).toMatchObject({ project_id: p.id, user_id: u.userId, by: 'client' });
    const off = await p.server.patch(`/users/${u.userId}`, { totp_secret_base64: null });
    expect(off.status).toBe(200);
    expect(await eventOf(off, 'mfa.totp_disabled')).toMatchObject({ project_id: p.id, user_id: u.userId, by: 'server' });

    const changed = await p.client.post('/auth/password/update', { old_password: u.password, new_password: 'another-horse-2' }, { accessToken: u.accessToken });
    expect(changed.status).toBe(200);
    expect(await eventOf(changed, 'password.changed')).toMatchObject({ project_id: p.id, user_id: u.userId });

    const t0 = Date.now();
    expect((await p.client.post('/auth/password/send-reset-code', { email: u.email, callback_url: 'http://localhost:3000/reset' })).status).toBe(200);
    const mail = await mailbox.waitForMail((m) => m.to.includes(u.email) && m.receivedAt >= t0 && m.subject.startsWith('Reset your password'));
    const reset = await p.client.post('/auth/password/reset', { code: extractCode(mail), password: 'third-horse-3' });
    expect(reset.status).toBe(200);
    expect(await eventOf(reset, 'password.reset')).toMatchObject({ project_id: p.id, user_id: u.userId });

    const session = await p.client.post('/auth/password/sign-in', { email: u.email, password: 'third-horse-3' });
    const signOut = await p.client.delete('/auth/sessions/current', { accessToken: session.body.access_token });
    expect(signOut.status).toBe(200);
    expect(await eventOf(signOut, 'session.revoked')).toMatchObject({ project_id: p.id, user_id: u.userId, reason: 'sign_out' });
  });
});

describe('the audit log', () => {
  test('impersonation, API keys created and revoked, configuration changes: logged and listed, newest first', async () => {
    const u = await signUp(p);
    const impersonation = await p.server.post('/auth/sessions', { user_id: u.userId, is_impersonation: true });
    expect(impersonation.status).toBe(200);
    expect(await eventOf(impersonation, 'impersonation.created')).toMatchObject({ project_id: p.id, user_id: u.userId, target: u.userId, actor_kind: 'server_key' });

    const created = await p.admin.post('/internal/api-keys', { description: 'ci', expires_at_millis: Date.now() + 3600_000, has_publishable_client_key: false, has_secret_server_key: true, has_super_secret_admin_key: false });
    expect(created.status).toBe(200);
    expect(await eventOf(created, 'api_key.created')).toMatchObject({ project_id: p.id, target: created.body.id, kinds: ['secret_server_key'], actor_kind: 'admin_key' });
    const revoked = await p.ownerAdmin.patch(`/internal/api-keys/${created.body.id}`, { revoked: true });
    expect(revoked.status).toBe(200);
    expect(await eventOf(revoked, 'api_key.revoked')).toMatchObject({ project_id: p.id, target: created.body.id, actor_kind: 'admin_token', actor_user_id: owner.userId });

    const configured = await p.admin.patch('/projects/current', { display_name: 'Renamed', config: { sign_up_enabled: true, allow_localhost: true } });
    expect(configured.status).toBe(200);
    expect(await eventOf(configured, 'project.config_changed')).toMatchObject({ fields: ['config', 'display_name'], config_fields: ['allow_localhost', 'sign_up_enabled'] });

    // The owner-plane entries (the project's users' sign-ins above are in its log too: audit-log.test.ts).
    const page = await auditPage(p.admin, '?event=impersonation,api_key,project');
    expect(page.is_paginated).toBe(true);
    expect(page.items.map((e: any) => e.event)).toEqual(['project.config_changed', 'api_key.revoked', 'api_key.created', 'impersonation.created', 'api_key.created', 'project.created']);
    const [config, revokedRow, createdRow, impersonationRow, ownerKeys, projectCreated] = page.items;
    expect(impersonationRow).toMatchObject({ target: u.userId, actor: { kind: 'server_key', user_id: null }, request_id: impersonation.headers.get('x-stack-request-id'), details: { expires_in_millis: null } });
    expect(impersonationRow.actor.ip).toMatch(/127\.0\.0\.1|::1/);
    expect(createdRow).toMatchObject({ target: created.body.id, actor: { kind: 'admin_key', user_id: null }, details: { kinds: ['secret_server_key'] } });
    expect(revokedRow).toMatchObject({ target: created.body.id, actor: { kind: 'admin_token', user_id: owner.userId } });
    expect(config).toMatchObject({ target: p.id, details: { fields: ['config', 'display_name'], config_fields: ['allow_localhost', 'sign_up_enabled'] } });
    // newProject: the owner created the project (client access) and its first keys with their admin access token.
    expect(ownerKeys).toMatchObject({ actor: { kind: 'admin_token', user_id: owner.userId }, details: { kinds: ['publishable_client_key', 'secret_server_key', 'super_secret_admin_key'] } });
    expect(projectCreated).toMatchObject({ target: p.id, actor: { kind: 'client', user_id: owner.userId }, details: { owner_user_id: owner.userId } });
    for (const row of page.items) {
      expect(Number.isFinite(row.created_at_millis)).toBe(true);
      // No key value in any row.
      expect(JSON.stringify(row)).not.toContain(created.body.secret_server_key);
    }
  });

  test('cursor paging walks every row once', async () => {
    const all = (await auditPage(p.admin, '?limit=200')).items.map((e: any) => e.id);
    expect(all.length).toBeGreaterThanOrEqual(6);
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await auditPage(p.admin, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(2);
      walked.push(...page.items.map((e: any) => e.id));
      cursor = page.pagination.next_cursor;
    } while (cursor);
    expect(walked).toEqual(all);
    expectKnownError(await p.admin.get('/internal/audit-log?cursor=abc'), 'SCHEMA_ERROR', 400);
    expectKnownError(await p.admin.get('/internal/audit-log?limit=0'), 'SCHEMA_ERROR', 400);
  });

  test('access: admin key or owner token only; another project sees none of these rows', async () => {
    expectKnownError(await p.client.get('/internal/audit-log'), 'INSUFFICIENT_ACCESS_TYPE', 401);
    expectKnownError(await p.server.get('/internal/audit-log'), 'INSUFFICIENT_ACCESS_TYPE', 401);
    const mine = (await auditPage(p.ownerAdmin)).items.map((e: any) => e.id);
    expect(mine).toEqual((await auditPage(p.admin)).items.map((e: any) => e.id));
    const other = await newProject(svc);
    const theirs = (await auditPage(other.admin, '?limit=200')).items;
    expect(theirs.map((e: any) => e.event)).toEqual(['api_key.created', 'project.created']);
    expect(theirs.some((e: any) => mine.includes(e.id))).toBe(false);
    // The first owner's token does not reach the other project.
    const foreign = new Api(svc.url, { 'x-stack-project-id': other.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': owner.accessToken });
    expect((await foreign.get('/internal/audit-log')).status).toBe(401);
  });

  test('project creation, ownership change and deletion reach the internal project (the operator) too', async () => {
    const doomed = await newProject(svc, { owner });
    const internalServer = serverApi(svc.url, 'internal', DEV_KEYS.secretServerKey);
    const heir = await newInternalUser(svc);
    const transfer = await internalServer.patch(`/users/${heir.userId}`, { server_metadata: { managedProjectIds: [doomed.id] } });
    expect(transfer.status).toBe(200);
    expect(await eventOf(transfer, 'project.ownership_changed')).toMatchObject({ project_id: 'internal', user_id: heir.userId, managed_project_ids: [doomed.id] });
    const deleted = await doomed.admin.delete('/projects/current');
    expect(deleted.status).toBe(200);
    expect(await eventOf(deleted, 'project.deleted')).toMatchObject({ project_id: doomed.id, target: doomed.id, actor_kind: 'admin_key' });

    const operator = (await auditPage(internalAdmin(), '?limit=200')).items;
    const about = operator.filter((e: any) => e.target === doomed.id || e.target === heir.userId).map((e: any) => e.event);
    expect(about).toEqual(['project.deleted', 'project.ownership_changed', 'project.created']);
    expect(operator.find((e: any) => e.event === 'project.deleted')).toMatchObject({ details: { project_id: doomed.id }, actor: { kind: 'admin_key' } });
  });
});
