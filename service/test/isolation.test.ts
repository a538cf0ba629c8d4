// Isolation between projects: the keys and tokens of project A never read or change project B's users or sessions.
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Api, expectKnownError, sharedService, type SharedService } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';

// The machine may be busy (other suites, password hashing): bun's default of 5 s per test is too tight.
setDefaultTimeout(60_000);

let svc: SharedService;
let a: TestProject;
let b: TestProject;
let userA: Awaited<ReturnType<typeof signUp>>;
let userB: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  svc = await sharedService();
  a = await newProject(svc, { displayName: 'A' });
  b = await newProject(svc, { displayName: 'B' });
  userA = await signUp(a);
  userB = await signUp(b);
}, 60_000);

const sessionIdOf = (accessToken: string) => JSON.parse(Buffer.from(accessToken.split('.')[1], 'base64url').toString()).refreshTokenId as string;

describe("A's keys on B's data", () => {
  test("B's user ids with A's server key ⇒ USER_NOT_FOUND; nothing changes", async () => {
    expectKnownError(await a.server.get(`/users/${userB.userId}`), 'USER_NOT_FOUND', 404);
    expectKnownError(await a.server.patch(`/users/${userB.userId}`, { display_name: 'hijacked', password: 'hijacked-pass' }), 'USER_NOT_FOUND', 404);
    expectKnownError(await a.admin.delete(`/users/${userB.userId}`), 'USER_NOT_FOUND', 404);
    const still = await b.server.get(`/users/${userB.userId}`);
    expect(still.status).toBe(200);
    expect(still.body.display_name).toBeNull();
    expect((await b.client.post('/auth/password/sign-in', { email: userB.email, password: userB.password })).status).toBe(200);
  });

  test("A's listings never contain B's users", async () => {
    const all = await a.server.get('/users');
    expect(all.body.items.map((u: any) => u.id)).not.toContain(userB.userId);
    expect((await a.server.get(`/users?query=${encodeURIComponent(userB.email)}`)).body.items).toEqual([]);
    expect((await a.server.get(`/users?query=${userB.userId}`)).body.items).toEqual([]);
    expect((await a.server.get(`/auth/sessions?user_id=${userB.userId}`)).body.items).toEqual([]);
    expect((await a.admin.get(`/auth/sessions?user_id=${userB.userId}`)).body.items).toEqual([]);
  });

  test("A's server cannot open sessions for B's users", async () => {
    expectKnownError(await a.server.post('/auth/sessions', { user_id: userB.userId }), 'USER_ID_DOES_NOT_EXIST', 400);
  });

  test("A's keys with B's project id are invalid keys", async () => {
    const res = await a.server.with({ 'x-stack-project-id': b.id }).get('/users');
    expectKnownError(res, 'INVALID_SECRET_SERVER_KEY', 401);
    expectKnownError(await a.client.with({ 'x-stack-project-id': b.id }).get('/projects/current'), 'INVALID_PUBLISHABLE_CLIENT_KEY', 401);
    expectKnownError(await a.admin.with({ 'x-stack-project-id': b.id }).get('/projects/current'), 'INVALID_SUPER_SECRET_ADMIN_KEY', 401);
  });

  test("the same email signs up in both projects independently", async () => {
    const inA = await a.client.post('/auth/password/sign-up', { email: userB.email, password: 'another-password' });
    expect(inA.status).toBe(200);
    expect(inA.body.user_id).not.toBe(userB.userId);
    // Each project's credentials stay its own.
    expectKnownError(await b.client.post('/auth/password/sign-in', { email: userB.email, password: 'another-password' }), 'EMAIL_PASSWORD_MISMATCH', 400);
    expectKnownError(await a.client.post('/auth/password/sign-in', { email: userB.email, password: userB.password }), 'EMAIL_PASSWORD_MISMATCH', 400);
  });
});

describe("A's tokens at B", () => {
  test("A's access token sent to B ⇒ INVALID_PROJECT_FOR_ACCESS_TOKEN", async () => {
    for (const api of [b.client, b.server, b.admin]) {
      const res = await api.get('/users/me', { accessToken: userA.accessToken });
      expectKnownError(res, 'INVALID_PROJECT_FOR_ACCESS_TOKEN', 401);
      expect(res.body.details).toEqual({ expected_project_id: b.id, actual_project_id: a.id });
    }
    expectKnownError(await b.client.patch('/users/me', { display_name: 'x' }, { accessToken: userA.accessToken }), 'INVALID_PROJECT_FOR_ACCESS_TOKEN', 401);
  });

  test("A's refresh token at B's token endpoint ⇒ REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", async () => {
    const res = await new Api(svc.url).post('/auth/oauth/token', {
      grant_type: 'refresh_token', refresh_token: userA.refreshToken, client_id: b.id, client_secret: b.keys.publishableClientKey,
    }, { form: true });
    expectKnownError(res, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    expectKnownError(await b.client.post('/auth/sessions/current/refresh', undefined, { refreshToken: userA.refreshToken }), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    // A's client id with B's publishable key is not a valid client either.
    const mixed = await new Api(svc.url).post('/auth/oauth/token', {
      grant_type: 'refresh_token', refresh_token: userA.refreshToken, client_id: a.id, client_secret: b.keys.publishableClientKey,
    }, { form: true });
    expectKnownError(mixed, 'INVALID_OAUTH_CLIENT_ID_OR_SECRET', 400);
  });

  test("A's session id deleted via B ⇒ 404, and the session lives on", async () => {
    const sessionId = sessionIdOf(userA.accessToken);
    for (const res of [
      await b.server.delete(`/auth/sessions/${sessionId}?user_id=${userA.userId}`),
      await b.admin.delete(`/auth/sessions/${sessionId}`),
      await b.client.delete(`/auth/sessions/${sessionId}?user_id=me`, { accessToken: userB.accessToken }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.text).toBe('Session not found.');
    }
    expect((await a.client.post('/auth/sessions/current/refresh', undefined, { refreshToken: userA.refreshToken })).status).toBe(200);
  });

  test("B's password update with A's refresh token ends only B's sessions", async () => {
    const u = await signUp(b);
    const ok = await b.client.post('/auth/password/update', { old_password: u.password, new_password: 'changed-password' }, { accessToken: u.accessToken, refreshToken: userA.refreshToken });
    expect(ok.status).toBe(200);
    expect((await a.client.post('/auth/sessions/current/refresh', undefined, { refreshToken: userA.refreshToken })).status).toBe(200);
  });

  test("the admin token of A's owner on B ⇒ ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", async () => {
    for (const type of ['client', 'server', 'admin']) {
      const api = new Api(svc.url, { 'x-stack-project-id': b.id, 'x-stack-access-type': type, 'x-stack-admin-access-token': a.ownerAccessToken });
      expectKnownError(await api.get('/projects/current'), 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401);
      expectKnownError(await api.get(`/users/${userB.userId}`), 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401);
    }
    // …while it works on A.
    expect((await a.ownerAdmin.get(`/users/${userA.userId}`)).status).toBe(200);
  });

  test("B's internal API keys are out of A's reach", async () => {
    const bKeys = await b.admin.get('/internal/api-keys');
    for (const k of bKeys.body.items) {
      expectKnownError(await a.admin.get(`/internal/api-keys/${k.id}`), 'API_KEY_NOT_FOUND', 404);
      expectKnownError(await a.admin.patch(`/internal/api-keys/${k.id}`, { revoked: true }), 'API_KEY_NOT_FOUND', 404);
    }
    expect((await b.server.get('/users')).status).toBe(200);
  });
});
