// Sessions and tokens (protocol-auth §2): the refresh grant as the SDK sends it, the access token and JWKS,
// server-created sessions and impersonation, listing, revoking, signing out, refreshing.
import { describe, expect, test } from 'bun:test';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { Api, expectKnownError } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { setupSuite } from './support/suite';

const { svc, p } = await setupSuite();

const SESSION_KEYS = ['created_at', 'id', 'is_current_session', 'is_impersonation', 'user_id'];
// A session's IP info (browser callers, GATEHOUSE_TRUST_PROXY): session-ip.test.ts.

/** POST /auth/oauth/token exactly as the SDK (oauth4webapi, client_secret_post) sends it: no x-stack-* headers. */
async function tokenRequest(body: Record<string, string>, o: { json?: boolean; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${svc.url}/api/v1/auth/oauth/token`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': o.json ? 'application/json' : 'application/x-www-form-urlencoded;charset=UTF-8',
      ...o.headers,
    },
    body: o.json ? JSON.stringify(body) : new URLSearchParams(body).toString(),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
}

const refreshBody = (project: TestProject, refreshToken: string) => ({
  grant_type: 'refresh_token', refresh_token: refreshToken, client_id: project.id, client_secret: project.keys.publishableClientKey,
});

describe('POST /auth/oauth/token (refresh grant)', () => {
  test('form-encoded with client_secret_post: {access_token, token_type, expires_in, scope}, no refresh_token', async () => {
    const u = await signUp(p);
    const res = await tokenRequest(refreshBody(p, u.refreshToken));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    expect(res.body.token_type).toBe('Bearer');
    expect(res.body.expires_in).toBeGreaterThan(0);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    const me = await p.client.get('/users/me', { accessToken: res.body.access_token });
    expect(me.body.id).toBe(u.userId);
  });

  test('client credentials via HTTP Basic, and a JSON body', async () => {
    const u = await signUp(p);
    const basic = Buffer.from(`${encodeURIComponent(p.id)}:${encodeURIComponent(p.keys.publishableClientKey)}`).toString('base64');
    const viaBasic = await tokenRequest({ grant_type: 'refresh_token', refresh_token: u.refreshToken }, { headers: { authorization: `Basic ${basic}` } });
    expect(viaBasic.status).toBe(200);
    expect(viaBasic.body.token_type).toBe('Bearer');
    const viaJson = await tokenRequest({ ...refreshBody(p, u.refreshToken), extra_field: 'ignored' }, { json: true });
    expect(viaJson.status).toBe(200);
    expect(viaJson.body.refresh_token).toBeUndefined();
  });

  test('INVALID_OAUTH_CLIENT_ID_OR_SECRET: missing or wrong secret, unknown project', async () => {
    const u = await signUp(p);
    const other = await newProject(svc);
    for (const body of [
      { grant_type: 'refresh_token', refresh_token: u.refreshToken, client_id: p.id },
      { ...refreshBody(p, u.refreshToken), client_secret: 'pck_wrong' },
      { ...refreshBody(p, u.refreshToken), client_secret: p.keys.secretServerKey },
      { ...refreshBody(p, u.refreshToken), client_secret: other.keys.publishableClientKey },
      { ...refreshBody(p, u.refreshToken), client_id: crypto.randomUUID() },
      { grant_type: 'refresh_token', refresh_token: u.refreshToken },
    ]) {
      const res = await tokenRequest(body as Record<string, string>);
      expectKnownError(res, 'INVALID_OAUTH_CLIENT_ID_OR_SECRET', 400);
      expect(res.body.details).toEqual({ client_id: null });
      expect(res.body.error).toBe('The OAuth client ID or secret is invalid. The client ID must be equal to the project ID, and the client secret must be a publishable client key.');
    }
  });

  test("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED: unknown, revoked, or another project's token", async () => {
    const other = await newProject(svc);
    const foreign = await signUp(other);
    const revoked = await signUp(p);
    expect((await p.client.delete('/auth/sessions/current', { accessToken: revoked.accessToken })).status).toBe(200);
    for (const token of ['0'.repeat(45), 'short', revoked.refreshToken, foreign.refreshToken]) {
      const res = await tokenRequest(refreshBody(p, token));
      expectKnownError(res, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
      expect(res.body.error).toBe('Refresh token not found for this project, or the session has expired/been revoked.');
    }
  });

  test('non-string credentials are schema errors; malformed Basic credentials are invalid credentials', async () => {
    const u = await signUp(p);
    for (const field of ['refresh_token', 'client_id', 'client_secret']) {
      const res = await tokenRequest({ ...refreshBody(p, u.refreshToken), [field]: { a: 1 } } as any, { json: true });
      expectKnownError(res, 'SCHEMA_ERROR', 400);
      expect(res.body.error.split('\n')[1]).toStartWith(`  - body.${field} must be a \`string\` type`);
    }
    for (const authorization of [`Basic ${Buffer.from('a%ZZ:b').toString('base64')}`, 'Basic !!!', `Basic ${Buffer.from('no-colon').toString('base64')}`]) {
      const res = await tokenRequest({ grant_type: 'refresh_token', refresh_token: u.refreshToken }, { headers: { authorization } });
      expectKnownError(res, 'INVALID_OAUTH_CLIENT_ID_OR_SECRET', 400);
    }
  });

  test('missing refresh_token is an OAuth error; an unknown grant type a schema error', async () => {
    const missing = await tokenRequest({ grant_type: 'refresh_token', client_id: p.id, client_secret: p.keys.publishableClientKey });
    expect(missing.status).toBe(400);
    expect(missing.headers.get('x-stack-known-error')).toBeNull();
    expect(missing.body.error).toBe('invalid_request');
    expect(typeof missing.body.error_description).toBe('string');

    const grant = await tokenRequest({ grant_type: 'password', client_id: p.id, client_secret: p.keys.publishableClientKey });
    expectKnownError(grant, 'SCHEMA_ERROR', 400);
  });

  test('two refreshes at once both succeed with valid tokens', async () => {
    const u = await signUp(p);
    const [a, b] = await Promise.all([tokenRequest(refreshBody(p, u.refreshToken)), tokenRequest(refreshBody(p, u.refreshToken))]);
    expect([a.status, b.status]).toEqual([200, 200]);
    for (const r of [a, b]) expect((await p.client.get('/users/me', { accessToken: r.body.access_token })).body.id).toBe(u.userId);
    const [c, d] = await Promise.all([
      p.client.post('/auth/sessions/current/refresh', undefined, { refreshToken: u.refreshToken }),
      p.client.post('/auth/sessions/current/refresh', undefined, { refreshToken: u.refreshToken }),
    ]);
    expect([c.status, d.status]).toEqual([200, 200]);
  });
});

describe('access tokens and JWKS', () => {
  test('the JWT verifies against the JWKS and has exactly the documented claims', async () => {
    const u = await signUp(p);
    const jwks = createRemoteJWKSet(new URL(`${svc.url}/api/v1/projects/${p.id}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(u.accessToken, jwks, { issuer: 'https://access-token.jwt-signature.stack-auth.com', audience: p.id });
    expect(protectedHeader.alg).toBe('ES256');
    expect(Object.keys(payload).sort()).toEqual(['aud', 'branchId', 'exp', 'iat', 'iss', 'refreshTokenId', 'sub']);
    expect(payload).toMatchObject({ sub: u.userId, aud: p.id, branchId: 'main' });
    expect(payload.exp! - payload.iat!).toBe(600);
    expect(Math.abs(payload.iat! * 1000 - Date.now())).toBeLessThan(60_000);

    const sessions = await p.client.get('/auth/sessions?user_id=me', { accessToken: u.accessToken });
    expect(sessions.body.items.map((s: any) => s.id)).toEqual([payload.refreshTokenId]);

    // Refreshed tokens name the same session.
    const refreshed = await tokenRequest(refreshBody(p, u.refreshToken));
    const again = await jwtVerify(refreshed.body.access_token, jwks);
    expect(again.payload.refreshTokenId).toBe(payload.refreshTokenId);
  });

  test('JWKS shape; per-project keys; unknown project ⇒ 404 text', async () => {
    const res = await new Api(svc.url).get(`/projects/${p.id}/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    // The current key (it signs) first, then the next one (signing-keys.test.ts rotates them).
    expect(res.body.keys).toHaveLength(2);
    const [key] = res.body.keys;
    for (const k of res.body.keys) {
      expect(k).toMatchObject({ kty: 'EC', alg: 'ES256', crv: 'P-256' });
      expect(Object.keys(k).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'x', 'y']);
    }
    const u = await signUp(p);
    expect(decodeProtectedHeader(u.accessToken).kid).toBe(key.kid);

    const other = await newProject(svc);
    const otherKeys = await new Api(svc.url).get(`/projects/${other.id}/.well-known/jwks.json`);
    expect(otherKeys.body.keys[0].kid).not.toBe(key.kid);
    // A token of one project does not verify with another project's key.
    const otherJwks = createRemoteJWKSet(new URL(`${svc.url}/api/v1/projects/${other.id}/.well-known/jwks.json`));
    await expect(jwtVerify(u.accessToken, otherJwks)).rejects.toThrow();

    const missing = await new Api(svc.url).get(`/projects/${crypto.randomUUID()}/.well-known/jwks.json`);
    expect(missing.status).toBe(404);
    expect(missing.text).toBe('Project not found');
    expect((await new Api(svc.url).get('/projects/internal/.well-known/jwks.json')).status).toBe(200);
  });

  test('a token signed with a valid key but tampered claims is unparsable', async () => {
    const u = await signUp(p);
    const [h, payload, sig] = u.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = [h, Buffer.from(JSON.stringify({ ...claims, sub: crypto.randomUUID() })).toString('base64url'), sig].join('.');
    expectKnownError(await p.client.get('/users/me', { accessToken: forged }), 'UNPARSABLE_ACCESS_TOKEN', 401);
  });
});

describe('POST /auth/sessions (server-created sessions)', () => {
  test('server only; {access_token, refresh_token}', async () => {
    const u = await signUp(p);
    const client = await p.client.post('/auth/sessions', { user_id: u.userId });
    expectKnownError(client, 'INSUFFICIENT_ACCESS_TYPE', 401);
    expect(client.body.details.allowed_access_types).toEqual(['server', 'admin']);

    for (const api of [p.server, p.admin]) {
      const res = await api.post('/auth/sessions', { user_id: u.userId });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['access_token', 'refresh_token']);
      expect((await p.client.get('/users/me', { accessToken: res.body.access_token })).body.id).toBe(u.userId);
      expect((await tokenRequest(refreshBody(p, res.body.refresh_token))).status).toBe(200);
    }
    // `me` is the user of the request's access token.
    const me = await p.server.post('/auth/sessions', { user_id: 'me' }, { accessToken: u.accessToken });
    expect(me.status).toBe(200);
    expectKnownError(await p.server.post('/auth/sessions', { user_id: 'me' }), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
  });

  test('no MFA check for server-created sessions', async () => {
    const u = await signUp(p);
    await p.client.patch('/users/me', { totp_secret_base64: Buffer.from('12345678901234567890').toString('base64') }, { accessToken: u.accessToken });
    expect((await p.server.post('/auth/sessions', { user_id: u.userId })).status).toBe(200);
  });

  test('USER_ID_DOES_NOT_EXIST for unknown users (also of other projects)', async () => {
    const other = await newProject(svc);
    const foreign = await signUp(other);
    for (const id of [crypto.randomUUID(), foreign.userId]) {
      const res = await p.server.post('/auth/sessions', { user_id: id });
      expectKnownError(res, 'USER_ID_DOES_NOT_EXIST', 400);
      expect(res.body.details).toEqual({ user_id: id });
      expect(res.body.error).toBe(`The given user with the ID ${id} does not exist.`);
    }
  });

  test('expires_in_millis: at most 367 days; short sessions end', async () => {
    const u = await signUp(p);
    const tooLong = await p.server.post('/auth/sessions', { user_id: u.userId, expires_in_millis: 31_708_800_001 });
    expectKnownError(tooLong, 'SCHEMA_ERROR', 400);
    expect(tooLong.body.error).toBe('Request validation failed on POST /api/v1/auth/sessions:\n  - body.expires_in_millis must be less than or equal to 31708800000');
    expect((await p.server.post('/auth/sessions', { user_id: u.userId, expires_in_millis: 31_708_800_000 })).status).toBe(200);

    // Long enough that creating the session and refreshing it fit in on a busy machine; then wait until it has ended.
    const short = await p.server.post('/auth/sessions', { user_id: u.userId, expires_in_millis: 5_000 });
    const createdBy = Date.now();
    expect((await tokenRequest(refreshBody(p, short.body.refresh_token))).status).toBe(200);
    await Bun.sleep(Math.max(0, createdBy + 5_000 - Date.now()) + 200);
    expectKnownError(await tokenRequest(refreshBody(p, short.body.refresh_token)), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    // Expired sessions are not listed.
    const list = await p.server.get(`/auth/sessions?user_id=${u.userId}`);
    expect(list.body.items.map((s: any) => s.id)).not.toContain(JSON.parse(Buffer.from(short.body.access_token.split('.')[1], 'base64url').toString()).refreshTokenId);
  }, 30_000);

  test('impersonation sessions are hidden from client and server lists, shown to admins', async () => {
    const u = await signUp(p);
    const imp = await p.server.post('/auth/sessions', { user_id: u.userId, is_impersonation: true });
    expect(imp.status).toBe(200);
    const impId = JSON.parse(Buffer.from(imp.body.access_token.split('.')[1], 'base64url').toString()).refreshTokenId;

    const clientList = await p.client.get('/auth/sessions?user_id=me', { accessToken: u.accessToken });
    expect(clientList.body.items.map((s: any) => s.id)).not.toContain(impId);
    const serverList = await p.server.get(`/auth/sessions?user_id=${u.userId}`);
    expect(serverList.body.items.map((s: any) => s.id)).not.toContain(impId);
    const adminList = await p.admin.get(`/auth/sessions?user_id=${u.userId}`);
    const shown = adminList.body.items.find((s: any) => s.id === impId);
    expect(shown).toMatchObject({ is_impersonation: true, user_id: u.userId });
    expect(adminList.body.items.filter((s: any) => !s.is_impersonation)).toHaveLength(1);
    // The impersonation token works like any other.
    expect((await p.client.get('/users/me', { accessToken: imp.body.access_token })).body.id).toBe(u.userId);
  });
});

describe('GET /auth/sessions', () => {
  test('client: own sessions only, newest first, with is_current_session and last_used_at', async () => {
    const u = await signUp(p);
    await Bun.sleep(5);
    const second = await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password });
    const res = await p.client.get('/auth/sessions?user_id=me', { accessToken: u.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.is_paginated).toBe(false);
    expect(Object.keys(res.body).sort()).toEqual(['is_paginated', 'items']);
    expect(res.body.items).toHaveLength(2);
    const [newest, oldest] = res.body.items;
    expect(newest.created_at).toBeGreaterThanOrEqual(oldest.created_at);
    expect(oldest.is_current_session).toBe(true);
    expect(newest.is_current_session).toBe(false);
    for (const s of res.body.items) {
      // Gatehouse's addition: the user agent of the client that signed in (the account kit shows its browser and system).
      expect(Object.keys(s).sort()).toEqual([...SESSION_KEYS, 'last_used_at', 'user_agent'].sort());
      expect(typeof s.user_agent).toBe('string');
      expect(s.user_id).toBe(u.userId);
      expect(s.is_impersonation).toBe(false);
      expect(s.last_used_at).toBeGreaterThanOrEqual(s.created_at);
    }
    const byId = await p.client.get(`/auth/sessions?user_id=${u.userId}`, { accessToken: second.body.access_token });
    expect(byId.body.items.map((s: any) => s.is_current_session)).toEqual([true, false]);
  });

  test("client asking for another user's sessions ⇒ 403 text; without user ⇒ CANNOT_GET_OWN_USER_WITHOUT_USER", async () => {
    const u = await signUp(p);
    const v = await signUp(p);
    const res = await p.client.get(`/auth/sessions?user_id=${v.userId}`, { accessToken: u.accessToken });
    expect(res.status).toBe(403);
    expect(res.text).toBe('Client can only list sessions for their own user.');
    const anonymous = await p.client.get(`/auth/sessions?user_id=${v.userId}`);
    expect(anonymous.status).toBe(403);
    expectKnownError(await p.client.get('/auth/sessions?user_id=me'), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
  });

  test('server and admin list any user; the query is validated', async () => {
    const u = await signUp(p);
    expect((await p.server.get(`/auth/sessions?user_id=${u.userId}`)).body.items).toHaveLength(1);
    const missing = await p.server.get('/auth/sessions');
    expectKnownError(missing, 'SCHEMA_ERROR', 400);
    expect(missing.body.error).toBe('Request validation failed on GET /api/v1/auth/sessions:\n  - query.user_id must be defined');
    const extra = await p.server.get(`/auth/sessions?user_id=${u.userId}&x=1`);
    expect(extra.body.error).toBe('Request validation failed on GET /api/v1/auth/sessions:\n  - query contains unknown properties: x');
    expect((await p.server.get(`/auth/sessions?user_id=${crypto.randomUUID()}`)).body.items).toEqual([]);
    expect((await p.server.get('/auth/sessions?user_id=not-a-uuid')).body.items).toEqual([]);
  });
});

describe('DELETE /auth/sessions/{id} and /auth/sessions/current', () => {
  test('revokes another session of the user; the current one cannot be deleted', async () => {
    const u = await signUp(p);
    const second = await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password });
    const list = await p.client.get('/auth/sessions?user_id=me', { accessToken: u.accessToken });
    const current = list.body.items.find((s: any) => s.is_current_session);
    const other = list.body.items.find((s: any) => !s.is_current_session);

    const self = await p.client.delete(`/auth/sessions/${current.id}?user_id=me`, { accessToken: u.accessToken });
    expectKnownError(self, 'CANNOT_DELETE_CURRENT_SESSION', 400);
    expect(self.body.error).toBe('Cannot delete the current session.');

    const res = await p.client.delete(`/auth/sessions/${other.id}?user_id=me`, { accessToken: u.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expectKnownError(await tokenRequest(refreshBody(p, second.body.refresh_token)), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    const again = await p.client.delete(`/auth/sessions/${other.id}?user_id=me`, { accessToken: u.accessToken });
    expect(again.status).toBe(404);
    expect(again.text).toBe('Session not found.');
  });

  test("another user's session ⇒ 404 'Session not found.' for clients; servers may delete any", async () => {
    const u = await signUp(p);
    const v = await signUp(p);
    const vSession = (await p.server.get(`/auth/sessions?user_id=${v.userId}`)).body.items[0];
    const res = await p.client.delete(`/auth/sessions/${vSession.id}?user_id=${v.userId}`, { accessToken: u.accessToken });
    expect(res.status).toBe(404);
    expect(res.text).toBe('Session not found.');
    expect((await tokenRequest(refreshBody(p, v.refreshToken))).status).toBe(200);

    // Servers need no user_id (the SDK's server deleteSession omits it).
    expect((await p.server.delete(`/auth/sessions/${vSession.id}`)).status).toBe(200);
    expectKnownError(await tokenRequest(refreshBody(p, v.refreshToken)), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    expect((await p.server.delete(`/auth/sessions/${crypto.randomUUID()}?user_id=${u.userId}`)).text).toBe('Session not found.');
  });

  test('the id must be a UUID; clients must give user_id', async () => {
    const u = await signUp(p);
    const bad = await p.client.delete('/auth/sessions/nope?user_id=me', { accessToken: u.accessToken });
    expectKnownError(bad, 'SCHEMA_ERROR', 400);
    expect(bad.body.error).toBe('Request validation failed on DELETE /api/v1/auth/sessions/nope:\n  - params.id must be a valid UUID');
    const id = crypto.randomUUID();
    expectKnownError(await p.client.delete(`/auth/sessions/${id}?user_id=me`), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    const noUserId = await p.client.delete(`/auth/sessions/${id}`, { accessToken: u.accessToken });
    expect(noUserId.body.error).toBe(`Request validation failed on DELETE /api/v1/auth/sessions/${id}:\n  - query.user_id must be defined`);
  });

  test('DELETE /auth/sessions/current signs out; the refresh token then fails', async () => {
    const u = await signUp(p);
    const res = await p.client.delete('/auth/sessions/current', { accessToken: u.accessToken, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expectKnownError(await tokenRequest(refreshBody(p, u.refreshToken)), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    expectKnownError(await p.client.post('/auth/sessions/current/refresh', undefined, { refreshToken: u.refreshToken }), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    // Already gone: the revoked session's access token is refused at once (issue 17 §2, revocation.test.ts).
    expectKnownError(await p.client.delete('/auth/sessions/current', { accessToken: u.accessToken }), 'ACCESS_TOKEN_EXPIRED', 401);
    // Without an access token the SDK is told to refresh.
    const noToken = await p.client.delete('/auth/sessions/current');
    expectKnownError(noToken, 'ACCESS_TOKEN_EXPIRED', 401);
    expect(typeof noToken.body.details.expired_at_millis).toBe('number');
  });
});

describe('POST /auth/sessions/current/refresh', () => {
  test('mints an access token from x-stack-refresh-token', async () => {
    const u = await signUp(p);
    for (const api of [p.client, p.server, p.admin]) {
      const res = await api.post('/auth/sessions/current/refresh', undefined, { refreshToken: u.refreshToken });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['access_token']);
      expect((await p.client.get('/users/me', { accessToken: res.body.access_token })).body.id).toBe(u.userId);
    }
  });

  test('missing header ⇒ SCHEMA_ERROR; unknown ⇒ REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED; needs an access type', async () => {
    const missing = await p.client.post('/auth/sessions/current/refresh');
    expectKnownError(missing, 'SCHEMA_ERROR', 400);
    expectKnownError(await p.client.post('/auth/sessions/current/refresh', undefined, { refreshToken: 'x'.repeat(45) }), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    const u = await signUp(p);
    expectKnownError(await new Api(svc.url).post('/auth/sessions/current/refresh', undefined, { refreshToken: u.refreshToken }), 'ACCESS_TYPE_REQUIRED', 400);
  });
});
