import { describe, expect, test } from 'bun:test';
import { expectKnownError, sharedService } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';

const INVALID_LOGIN_CODE = 'Invalid login code or the code has expired';
const PROJECT_MISMATCH = 'Project ID mismatch; please ensure that you are using the correct app url.';

async function refreshGrant(p: TestProject, refreshToken: string) {
  return fetch(`${p.url}/api/v1/auth/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: p.id, client_secret: p.keys.publishableClientKey }),
  });
}

describe('CLI login', () => {
  test('create → waiting → complete with a signed-in user → success once (201) → used; the token refreshes', async () => {
    const svc = await sharedService();
    const p = await newProject(svc);
    const u = await signUp(p);

    const created = await p.client.post('/auth/cli');
    expect(created.status).toBe(200);
    expect(Object.keys(created.body).sort()).toEqual(['expires_at', 'login_code', 'polling_code']);
    expect(created.body.polling_code).toHaveLength(45);
    expect(created.body.login_code).toHaveLength(45);
    const ttl = Date.parse(created.body.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(2 * 3600_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(2 * 3600_000);

    const waiting = await p.client.post('/auth/cli/poll', { polling_code: created.body.polling_code });
    expect(waiting.status).toBe(200);
    expect(waiting.body).toEqual({ status: 'waiting' });

    const completed = await p.client.post('/auth/cli/complete', { login_code: created.body.login_code, refresh_token: u.refreshToken }, { accessToken: u.accessToken });
    expect(completed.status).toBe(200);
    expect(completed.body).toEqual({ success: true });

    const success = await p.client.post('/auth/cli/poll', { polling_code: created.body.polling_code });
    expect(success.status).toBe(201);
    expect(success.body).toEqual({ status: 'success', refresh_token: u.refreshToken });

    const used = await p.client.post('/auth/cli/poll', { polling_code: created.body.polling_code });
    expect(used.status).toBe(200);
    expect(used.body).toEqual({ status: 'used' });

    const refreshed = await refreshGrant(p, success.body.refresh_token);
    expect(refreshed.status).toBe(200);
    const token = (await refreshed.json()).access_token as string;
    const me = await p.client.get('/users/me', { accessToken: token });
    expect(me.body.id).toBe(u.userId);

    // A completed login code cannot be completed again.
    const again = await p.client.post('/auth/cli/complete', { login_code: created.body.login_code, refresh_token: u.refreshToken });
    expect(again.status).toBe(400);
    expect(again.text).toBe('Invalid login code or the code has expired');
  });

  test('expires_in_millis: custom value, upper bound, expired status', async () => {
    const svc = await sharedService();
    const p = await newProject(svc);
    const custom = await p.server.post('/auth/cli', { expires_in_millis: 60_000 });
    expect(custom.status).toBe(200);
    expect(Date.parse(custom.body.expires_at) - Date.now()).toBeLessThanOrEqual(60_000);

    expectKnownError(await p.client.post('/auth/cli', { expires_in_millis: 86_400_001 }), 'SCHEMA_ERROR', 400);
    expect((await p.client.post('/auth/cli', { expires_in_millis: 86_400_000 })).status).toBe(200);

    const short = await p.client.post('/auth/cli', { expires_in_millis: 300 });
    await Bun.sleep(400);
    const poll = await p.client.post('/auth/cli/poll', { polling_code: short.body.polling_code });
    expect(poll.body).toEqual({ status: 'expired' });
    const u = await signUp(p);
    const complete = await p.client.post('/auth/cli/complete', { login_code: short.body.login_code, refresh_token: u.refreshToken });
    expect(complete.status).toBe(400);
    expect(complete.text).toBe('Invalid login code or the code has expired');
  });

  test('unknown polling code, unknown login code, codes of another project', async () => {
    const svc = await sharedService();
    const p = await newProject(svc);
    const other = await newProject(svc);
    const unknown = await p.client.post('/auth/cli/poll', { polling_code: 'x'.repeat(45) });
    expectKnownError(unknown, 'INVALID_POLLING_CODE', 400);
    expect(unknown.body.error).toBe('The polling code is invalid or does not exist.');
    expect(unknown.body.details).toBeUndefined();

    const created = await other.client.post('/auth/cli', {});
    expectKnownError(await p.client.post('/auth/cli/poll', { polling_code: created.body.polling_code }), 'INVALID_POLLING_CODE', 400);

    const u = await signUp(p);
    const unknownLogin = await p.client.post('/auth/cli/complete', { login_code: 'x'.repeat(45), refresh_token: u.refreshToken });
    expect({ status: unknownLogin.status, text: unknownLogin.text }).toEqual({ status: 400, text: INVALID_LOGIN_CODE });
    expect(unknownLogin.headers.get('content-type')).toContain('text/plain');

    // A live login code of another project (the confirm page of the wrong app): the protocol's mismatch answer.
    const mismatch = await p.client.post('/auth/cli/complete', { login_code: created.body.login_code, refresh_token: u.refreshToken });
    expect({ status: mismatch.status, text: mismatch.text }).toEqual({ status: 400, text: PROJECT_MISMATCH });
    expect(mismatch.headers.get('content-type')).toContain('text/plain');
    // Nothing was stored on the other project's attempt.
    expect((await other.client.post('/auth/cli/poll', { polling_code: created.body.polling_code })).body).toEqual({ status: 'waiting' });
  });

  test('complete checks in order: login code (unknown, expired, completed), then project, then refresh token', async () => {
    const svc = await sharedService();
    const p = await newProject(svc);
    const other = await newProject(svc);
    const u = await signUp(p);
    const stranger = await signUp(other);
    const complete = async (api: TestProject, login_code: string, refresh_token: string) => {
      const res = await api.client.post('/auth/cli/complete', { login_code, refresh_token });
      return res.headers.get('x-stack-known-error') ?? `${res.status} ${res.text}`;
    };
    // An unknown code is refused before the (here invalid) refresh token is looked at.
    expect(await complete(p, 'x'.repeat(45), 'not-a-token')).toBe(`400 ${INVALID_LOGIN_CODE}`);
    // Another project's live code: the mismatch comes before the refresh token check.
    const elsewhere = await other.client.post('/auth/cli');
    expect(await complete(p, elsewhere.body.login_code, 'not-a-token')).toBe(`400 ${PROJECT_MISMATCH}`);
    // Another project's code that is no longer live (expired, or completed) is simply invalid.
    const expired = await other.client.post('/auth/cli', { expires_in_millis: 300 });
    await Bun.sleep(400);
    expect(await complete(p, expired.body.login_code, u.refreshToken)).toBe(`400 ${INVALID_LOGIN_CODE}`);
    expect(await complete(other, elsewhere.body.login_code, stranger.refreshToken)).toBe('200 {"success":true}');
    expect(await complete(p, elsewhere.body.login_code, u.refreshToken)).toBe(`400 ${INVALID_LOGIN_CODE}`);
    // This project's live code with a bad refresh token: now the token is what is refused.
    const mine = await p.client.post('/auth/cli');
    expect(await complete(p, mine.body.login_code, stranger.refreshToken)).toBe('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    expect(await complete(p, mine.body.login_code, u.refreshToken)).toBe('200 {"success":true}');
  });

  test('complete only accepts a live refresh token of this project', async () => {
    const svc = await sharedService();
    const p = await newProject(svc);
    const other = await newProject(svc);
    const stranger = await signUp(other);
    const created = await p.client.post('/auth/cli');
    expectKnownError(await p.client.post('/auth/cli/complete', { login_code: created.body.login_code, refresh_token: stranger.refreshToken }),
      'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    expectKnownError(await p.client.post('/auth/cli/complete', { login_code: created.body.login_code, refresh_token: 'not-a-token' }),
      'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    // Still waiting: the rejected completions stored nothing.
    expect((await p.client.post('/auth/cli/poll', { polling_code: created.body.polling_code })).body).toEqual({ status: 'waiting' });
    expectKnownError(await p.client.post('/auth/cli/complete', { login_code: created.body.login_code }), 'SCHEMA_ERROR', 400);
  });

  test('concurrent polls hand the refresh token out exactly once', async () => {
    const svc = await sharedService();
    const p = await newProject(svc);
    const u = await signUp(p);
    const created = await p.client.post('/auth/cli');
    await p.client.post('/auth/cli/complete', { login_code: created.body.login_code, refresh_token: u.refreshToken });
    const polls = await Promise.all(Array.from({ length: 20 }, () => p.client.post('/auth/cli/poll', { polling_code: created.body.polling_code })));
    expect(polls.filter((r) => r.status === 201)).toHaveLength(1);
    expect(polls.filter((r) => r.status === 200).every((r) => r.body.status === 'used')).toBe(true);
  });
});
