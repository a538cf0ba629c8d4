// Issue 26: the project's audit log holds its users' security events too (sign-ins succeeded, failed and locked
// out, password and MFA changes, sessions revoked, user API keys), naming the user they concern and never the email
// typed into a failed sign-in; GET /internal/audit-log filters by kind (names and groups), user and time, newest
// first, paged with a cursor, and shows one project's entries only.
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { expectKnownError, sharedService, uniqueEmail, type SharedService } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';

setDefaultTimeout(120_000);
let svc: SharedService;
let p: TestProject;
let alice: Awaited<ReturnType<typeof signUp>>;
let bob: Awaited<ReturnType<typeof signUp>>;
const unknownEmail = uniqueEmail('nobody');
let startedAt = 0;

async function page(query = '', project = p): Promise<{ items: any[]; pagination: { next_cursor: string | null } }> {
  const res = await project.admin.get(`/internal/audit-log${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

beforeAll(async () => {
  svc = await sharedService();
  p = await newProject(svc, { config: { allow_user_api_keys: true } });
  alice = await signUp(p);
  bob = await signUp(p);
  startedAt = Date.now();
  expect((await p.client.post('/auth/password/sign-in', { email: alice.email, password: 'not her password' })).status).toBe(400);
  expect((await p.client.post('/auth/password/sign-in', { email: unknownEmail, password: 'whatever-1' })).status).toBe(400);
  expect((await p.client.post('/auth/password/sign-in', { email: alice.email, password: alice.password })).status).toBe(200);
  expect((await p.client.post('/auth/password/sign-in', { email: bob.email, password: bob.password })).status).toBe(200);
  const key = await p.server.post('/user-api-keys', { user_id: alice.userId, description: 'ci', expires_at_millis: null, is_public: false });
  expect(key.status, key.text).toBe(200);
  expect((await p.server.patch(`/users/${bob.userId}`, { password: 'another-horse-2' })).status).toBe(200);
}, 180_000);

describe('the project users\' events', () => {
  test('a failed and a succeeded sign-in, a user API key and a password change show up, newest first, with their user', async () => {
    const { items } = await page();
    const userPlane = items.filter((e) => !['api_key.created', 'project.created', 'project.config_changed'].includes(e.event));
    expect(userPlane.map((e) => [e.event, e.user_id])).toEqual([
      ['password.changed', bob.userId],
      ['user_api_key.created', alice.userId],
      ['sign_in.succeeded', bob.userId],
      ['sign_in.succeeded', alice.userId],
      ['sign_in.failed', null],
      ['sign_in.failed', alice.userId],
    ]);
    const [changed, key, , signedIn, unknown, wrong] = userPlane;
    expect(wrong).toMatchObject({ actor: { kind: 'client', user_id: null }, details: { method: 'password', error: 'EMAIL_PASSWORD_MISMATCH' } });
    expect(wrong.actor.ip).toMatch(/127\.0\.0\.1|::1/);
    expect(wrong.request_id).toBeTruthy();
    expect(signedIn).toMatchObject({ details: { method: 'password' } });
    expect(key).toMatchObject({ actor: { kind: 'server_key' } });
    expect(changed).toMatchObject({ target: bob.userId, actor: { kind: 'server_key' }, details: { by: 'server' } });
    // The unknown account's typed email is nowhere; no password either.
    const all = JSON.stringify(items);
    for (const secret of [unknownEmail, alice.email, alice.password, 'not her password', 'another-horse-2']) expect(all).not.toContain(secret);
    expect(Object.keys(unknown.details).sort()).toEqual(['error', 'method']);
    for (const e of items) expect(e.created_at_millis).toBeGreaterThan(startedAt - 60_000);
  });

  test('an account locked out by the rate limit gets one entry, not one per refused attempt', async () => {
    const q = await newProject(svc);
    const carol = await signUp(q);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await q.client.post('/auth/password/sign-in', { email: carol.email, password: `wrong-${i}` })).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    const { items } = await page('?event=sign_in', q);
    expect(items.filter((e) => e.event === 'sign_in.locked_out')).toEqual([expect.objectContaining({ user_id: carol.userId, details: { rules: ['sign_in_account'] } })]);
    expect(items.filter((e) => e.event === 'sign_in.failed').length).toBe(10);
  });

  test('MFA on and off, a user API key revoked, a team API key created: each with the user or team it concerns', async () => {
    const q = await newProject(svc, { config: { allow_user_api_keys: true, allow_team_api_keys: true } });
    const erin = await signUp(q);
    const totp = Buffer.from('12345678901234567890').toString('base64');
    expect((await q.server.patch(`/users/${erin.userId}`, { totp_secret_base64: totp })).status).toBe(200);
    expect((await q.server.patch(`/users/${erin.userId}`, { totp_secret_base64: null })).status).toBe(200);
    const key = await q.server.post('/user-api-keys', { user_id: erin.userId, description: 'k', expires_at_millis: null });
    expect((await q.server.patch(`/user-api-keys/${key.body.id}`, { revoked: true })).status).toBe(200);
    const team = (await q.server.post('/teams', { display_name: 'Crew' })).body;
    const teamKey = await q.server.post('/team-api-keys', { description: 't', expires_at_millis: null, team_id: team.id });
    expect(teamKey.status, teamKey.text).toBe(200);
    const { items } = await page('?event=mfa,user_api_key,team_api_key', q);
    expect(items.map((e) => [e.event, e.user_id, e.target])).toEqual([
      ['team_api_key.created', null, teamKey.body.id],
      ['user_api_key.revoked', erin.userId, key.body.id],
      ['user_api_key.created', erin.userId, key.body.id],
      ['mfa.totp_disabled', erin.userId, erin.userId],
      ['mfa.totp_enabled', erin.userId, erin.userId],
    ]);
    expect(items[0].details).toEqual({ team_id: team.id });
    expect(JSON.stringify(items)).not.toContain(totp);
    expect(JSON.stringify(items)).not.toContain(key.body.value);
  });
});

describe('filters', () => {
  test('by event name, by group, by several', async () => {
    expect((await page('?event=sign_in.failed')).items.map((e) => e.event)).toEqual(['sign_in.failed', 'sign_in.failed']);
    expect((await page('?event=sign_in')).items.map((e) => e.event)).toEqual(['sign_in.succeeded', 'sign_in.succeeded', 'sign_in.failed', 'sign_in.failed']);
    expect((await page('?event=password,user_api_key.created')).items.map((e) => e.event)).toEqual(['password.changed', 'user_api_key.created']);
    expect((await page('?event=mfa')).items).toEqual([]);
  });

  test('by user: entries whose subject or actor is the user', async () => {
    expect((await page(`?user_id=${alice.userId}`)).items.map((e) => e.event)).toEqual(['user_api_key.created', 'sign_in.succeeded', 'sign_in.failed']);
    expect((await page(`?user_id=${bob.userId}&event=sign_in`)).items.map((e) => e.event)).toEqual(['sign_in.succeeded']);
    // Alice revokes her own session: she is the actor and the subject.
    const signedIn = await p.client.post('/auth/password/sign-in', { email: alice.email, password: alice.password });
    const me = p.client.with({ 'x-stack-access-token': signedIn.body.access_token });
    expect((await me.delete('/auth/sessions/current')).status).toBe(200);
    const revoked = (await page(`?user_id=${alice.userId}&event=session.revoked`)).items;
    expect(revoked).toEqual([expect.objectContaining({ user_id: alice.userId, actor: expect.objectContaining({ kind: 'client', user_id: alice.userId }) })]);
  });

  test('by time: since inclusive, until exclusive', async () => {
    const all = (await page(`?user_id=${alice.userId}`)).items;
    const oldest = all[all.length - 1];
    const t = oldest.created_at_millis;
    expect((await page(`?user_id=${alice.userId}&until_millis=${t}`)).items).toEqual([]);
    expect((await page(`?user_id=${alice.userId}&until_millis=${t + 1}`)).items.map((e) => e.id)).toEqual(
      all.filter((e) => e.created_at_millis <= t).map((e) => e.id));
    expect((await page(`?user_id=${alice.userId}&since_millis=${t + 1}`)).items.map((e) => e.id)).toEqual(
      all.filter((e) => e.created_at_millis > t).map((e) => e.id));
    expect((await page(`?since_millis=${Date.now() + 60_000}`)).items).toEqual([]);
  });

  test('a filtered walk with the cursor visits each matching entry once', async () => {
    const all = (await page('?event=sign_in&limit=200')).items.map((e) => e.id);
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const next: any = await page(`?event=sign_in&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(next.items.length).toBeLessThanOrEqual(2);
      walked.push(...next.items.map((e: any) => e.id));
      cursor = next.pagination.next_cursor;
    } while (cursor);
    expect(walked).toEqual(all);
    expect(all.length).toBeGreaterThanOrEqual(5);
  });

  test('bad filter values are SCHEMA_ERROR, never a 500', async () => {
    for (const q of ['event=sign_in.nope', 'event=', 'event=sign_in,,mfa', 'event=SIGN_IN', 'user_id=nope', 'since_millis=-1',
      'until_millis=abc', 'since_millis=1.5', 'until_millis=99999999999999999999', 'cursor=0', 'event=sign_in&event=mfa']) {
      expectKnownError(await p.admin.get(`/internal/audit-log?${q}`), 'SCHEMA_ERROR', 400);
    }
  });
});

describe('scoping', () => {
  test("another project's entries never appear, even filtered by a user of that project", async () => {
    const other = await newProject(svc);
    const dave = await signUp(other);
    expect((await other.client.post('/auth/password/sign-in', { email: dave.email, password: 'wrong-password-1' })).status).toBe(400);
    expect((await other.client.post('/auth/password/sign-in', { email: dave.email, password: dave.password })).status).toBe(200);
    expect((await page(`?user_id=${dave.userId}`)).items).toEqual([]);
    const mine = (await page('?limit=200')).items.map((e) => e.id);
    const theirs = (await page('?limit=200', other)).items;
    expect(theirs.map((e) => e.event)).toEqual(['sign_in.succeeded', 'sign_in.failed', 'api_key.created', 'project.created']);
    expect(theirs.some((e) => mine.includes(e.id))).toBe(false);
    expect((await page(`?user_id=${alice.userId}`, other)).items).toEqual([]);
  });
});
