// The client app against the real running service: sign-up, sign-in, refresh, sign-out and the current user.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startService, sharedService, uniqueEmail, type RunningService } from '../../../service/test/support/service.ts';
import { newProject, type TestProject } from '../../../service/test/support/projects.ts';
import { GatehouseClientApp, type ClientTimers } from '../../src/client/index.ts';
import { KnownErrors } from '../../src/known-errors.ts';
import { decodeJwtPayload } from '../../src/client/jwt.ts';


// Each test talks to a real service (argon2 hashing, several round trips); the harness start takes longer still.
setDefaultTimeout(90_000);
let svc: RunningService;
let project: TestProject;

beforeAll(async () => {
  svc = await sharedService();
  project = await newProject(svc, { config: { client_user_deletion_enabled: true } });
}, 180_000);

function clientApp(p: TestProject = project, extra: Partial<ConstructorParameters<typeof GatehouseClientApp>[0]> = {}) {
  return new GatehouseClientApp({
    baseUrl: p.url,
    projectId: p.id,
    publishableClientKey: p.keys.publishableClientKey,
    tokenStore: 'memory',
    browser: null,
    ...extra,
  });
}

async function signedUp(app = clientApp(), password = 'correct-horse-1') {
  const email = uniqueEmail('client');
  const res = await app.signUpWithCredential({ email, password, noRedirect: true, verificationCallbackUrl: 'http://localhost:3000/verify' });
  expect(res).toEqual({ status: 'ok', data: undefined });
  return { app, email, password };
}

describe('sign-up and sign-in', () => {
  test('sign-up stores tokens and the user reads itself', async () => {
    const { app, email } = await signedUp();
    const tokens = app._core.requireTokenStore().get();
    expect(tokens.refreshToken).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
    expect(decodeJwtPayload(tokens.accessToken!).aud).toBe(project.id);
    const user = await app.getUser({ or: 'throw' });
    expect(user.primaryEmail).toBe(email);
    expect(user.hasPassword).toBe(true);
    expect(user.isAnonymous).toBe(false);
    expect(user.toClientJson().id).toBe(user.id);
  });

  test('sign-up with a taken email and sign-in with a wrong password return typed errors', async () => {
    const { email, password } = await signedUp();
    const again = await clientApp().signUpWithCredential({ email, password, noRedirect: true, verificationCallbackUrl: 'http://localhost:3000/v' });
    expect(again.status).toBe('error');
    expect(again.status === 'error' && again.error).toBeInstanceOf(KnownErrors.UserEmailAlreadyExists);
    const short = await clientApp().signUpWithCredential({ email: uniqueEmail(), password: 'short', noRedirect: true, verificationCallbackUrl: 'http://localhost:3000/v' });
    expect(short.status === 'error' && short.error).toBeInstanceOf(KnownErrors.PasswordTooShort);
    const wrong = await clientApp().signInWithCredential({ email, password: 'wrong-password', noRedirect: true });
    expect(wrong.status === 'error' && wrong.error).toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
  });

  test('sign-in in a second app gives a second session; both are listed and one can be revoked', async () => {
    const { app, email, password } = await signedUp();
    const other = clientApp();
    expect(await other.signInWithCredential({ email, password, noRedirect: true })).toEqual({ status: 'ok', data: undefined });
    const user = await app.getUser({ or: 'throw' });
    const sessions = await user.getActiveSessions();
    expect(sessions.length).toBe(2);
    expect(sessions.filter((s) => s.isCurrentSession).length).toBe(1);
    const otherSession = sessions.find((s) => !s.isCurrentSession)!;
    expect(otherSession.createdAt).toBeInstanceOf(Date);
    await user.revokeSession(otherSession.id);
    expect((await user.getActiveSessions()).map((s) => s.id)).not.toContain(otherSession.id);
  });

  test('without a persistent store sign-in and getUser refuse', async () => {
    const app = clientApp(project, { tokenStore: null });
    await expect(app.signInWithCredential({ email: 'a@example.com', password: 'x'.repeat(8) })).rejects.toThrow('without a persistent token store');
  });
});

describe('sign-out', () => {
  test('signOut ends the session on the server and locally', async () => {
    const { app } = await signedUp();
    const refresh = app._core.requireTokenStore().get().refreshToken!;
    await app.signOut();
    expect(app._core.requireTokenStore().get()).toEqual({ accessToken: null, refreshToken: null });
    expect(await app.getUser()).toBeNull();
    // the refresh token is dead on the server too
    const later = clientApp(project, { tokenStore: { refreshToken: refresh, accessToken: null } });
    expect(await later.getUser({ tokenStore: { refreshToken: refresh, accessToken: null } })).toBeNull();
  });
});

describe('sign-out that fails', () => {
  test('an error other than a refresh-token error leaves the session signed in (spec 3.8)', async () => {
    let failDelete = true;
    const fetchThrough = async (input: string, init?: RequestInit) => {
      if (failDelete && init?.method === 'DELETE' && input.endsWith('/auth/sessions/current')) {
        return new Response('upstream down', { status: 500 });
      }
      return fetch(input, init);
    };
    const { app } = await signedUp(clientApp(project, { fetch: fetchThrough }));
    const tokens = app._core.requireTokenStore().get();
    const user = await app.getUser({ or: 'throw' });
    await expect(user.signOut()).rejects.toThrow('500 upstream down');
    expect(user._internalSession.isKnownToBeInvalid()).toBe(false);
    expect(app._core.requireTokenStore().get()).toEqual(tokens);
    expect((await app.getUser())?.id).toBe(user.id);
    // once the service answers, the same user object signs out for real
    failDelete = false;
    await user.signOut();
    expect(app._core.requireTokenStore().get()).toEqual({ accessToken: null, refreshToken: null });
    expect(await app.getUser()).toBeNull();
  });
});

describe('handing the session to a back end', () => {
  test('getAuthJson / getAuthHeaders feed a request-like token store', async () => {
    const { app, email } = await signedUp();
    const user = await app.getUser({ or: 'throw' });
    const headers = await user.getAuthHeaders();
    const backend = clientApp(project, { tokenStore: null });
    const seen = await backend.getUser({ tokenStore: new Request('http://backend.local/', { headers }) });
    expect(seen?.primaryEmail).toBe(email);
    const json = await user.getAuthJson();
    expect((await backend.getUser({ tokenStore: json }))?.id).toBe(user.id);
    const cookieReq = new Request('http://backend.local/', {
      headers: { cookie: `stack-refresh-${project.id}=${json.refreshToken}; stack-access=${encodeURIComponent(JSON.stringify([json.refreshToken, json.accessToken]))}` },
    });
    expect((await backend.getUser({ tokenStore: cookieReq }))?.id).toBe(user.id);
  });
});

describe('current user methods', () => {
  test('update / setDisplayName / setClientMetadata', async () => {
    const { app } = await signedUp();
    const user = await app.getUser({ or: 'throw' });
    await user.setDisplayName('Ada');
    await user.setClientMetadata({ theme: 'dark' });
    const after = await app.getUser({ or: 'throw' });
    expect(after.displayName).toBe('Ada');
    expect(after.clientMetadata).toEqual({ theme: 'dark' });
    expect(user.displayName).toBeNull(); // objects are snapshots; mutations never change them
  });

  test('updatePassword returns typed errors and keeps the current session; setPassword needs no password yet', async () => {
    const { app, email, password } = await signedUp();
    const user = await app.getUser({ or: 'throw' });
    expect(await user.updatePassword({ oldPassword: 'not-the-password', newPassword: 'new-password-1' })).toBeInstanceOf(
      KnownErrors.PasswordConfirmationMismatch,
    );
    expect(await user.updatePassword({ oldPassword: password, newPassword: 'short' })).toBeInstanceOf(KnownErrors.PasswordTooShort);
    expect(await user.updatePassword({ oldPassword: password, newPassword: 'new-password-1' })).toBeUndefined();
    expect((await app.getUser())?.id).toBe(user.id);
    const fresh = clientApp();
    expect((await fresh.signInWithCredential({ email, password: 'new-password-1', noRedirect: true })).status).toBe('ok');
    await expect(user.setPassword({ password: 'another-password' })).rejects.toThrow('User already has a password set.');
  });

  test('delete removes the user and signs out', async () => {
    const { app, email, password } = await signedUp();
    const user = await app.getUser({ or: 'throw' });
    await user.delete();
    expect(app._core.requireTokenStore().get().refreshToken).toBeNull();
    expect(await app.getUser()).toBeNull();
    const again = await clientApp().signInWithCredential({ email, password, noRedirect: true });
    expect(again.status).toBe('error');
  });

  test('getProject returns the client view of the project', async () => {
    const p = await clientApp().getProject();
    expect(p.id).toBe(project.id);
    expect(p.config.credentialEnabled).toBe(true);
    expect(p.config.clientUserDeletionEnabled).toBe(true);
    expect(Array.isArray(p.config.oauthProviders)).toBe(true);
  });

  test('a wrong publishable key surfaces as the typed project-authentication error', async () => {
    const app = new GatehouseClientApp({ baseUrl: project.url, projectId: project.id, publishableClientKey: 'pck_wrong', tokenStore: 'memory', browser: null });
    const err = await app.getProject().catch((e) => e);
    expect(err).toBeInstanceOf(KnownErrors.InvalidPublishableClientKey);
  });
});

describe('proactive refresh', () => {
  test('a token with under 20 s left (client clock) is refreshed before the request is sent', async () => {
    // The client clock jumps 590 s ahead (a 600 s token then has 10 s left); it is reset when the refresh answers, so
    // the fresh token passes the 20 s rule. Every request the client sends is recorded.
    const clock = { offset: 0 };
    const sent: { url: string; accessToken: string | null }[] = [];
    const app = clientApp(project, {
      timers: { now: () => Date.now() + clock.offset },
      fetch: async (url, init) => {
        sent.push({ url, accessToken: new Headers(init?.headers).get('x-stack-access-token') });
        const res = await fetch(url, init);
        if (url.endsWith('/auth/oauth/token')) clock.offset = 0;
        return res;
      },
    });
    await signedUp(app);
    const first = app._core.requireTokenStore().get().accessToken!;
    clock.offset = 590_000;
    sent.length = 0;
    await app.getUser({ or: 'throw' });
    const second = app._core.requireTokenStore().get().accessToken!;
    expect(second).not.toBe(first);
    expect(sent.map((r) => new URL(r.url).pathname)).toEqual(['/api/v1/auth/oauth/token', '/api/v1/users/me']);
    expect(sent[1]!.accessToken).toBe(second);
  });
});

describe('token refresh against the service (2 s access tokens)', () => {
  let shortSvc: RunningService;
  let shortProject: TestProject;
  beforeAll(async () => {
    shortSvc = await startService({ env: { GATEHOUSE_ACCESS_TOKEN_LIFETIME_SECONDS: '2' } });
    shortProject = await newProject(shortSvc);
  }, 180_000);
  afterAll(async () => {
    await shortSvc?.stop();
  });

  /** The client's clock runs `lag` ms behind, so 2 s tokens look long enough to pass the 20 s rule. */
  function laggingApp(lag: { ms: number }, sleeps: number[]) {
    const timers: Partial<ClientTimers> = {
      now: () => Date.now() - lag.ms,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    };
    return clientApp(shortProject, { timers });
  }

  test('an access token the server reports expired is refreshed and the request retried', async () => {
    const sleeps: number[] = [];
    const app = laggingApp({ ms: 60_000 }, sleeps);
    await signedUp(app);
    const first = app._core.requireTokenStore().get().accessToken!;
    await Bun.sleep(2100);
    const user = await app.getUser({ or: 'throw' });
    expect(user.primaryEmail).toContain('@');
    const second = app._core.requireTokenStore().get().accessToken!;
    expect(second).not.toBe(first);
    expect(sleeps).toEqual([expect.any(Number)]); // one back-off between the rejected attempt and the retry
  });

  test('a revoked session becomes invalid on the next refresh', async () => {
    const sleeps: number[] = [];
    const app = laggingApp({ ms: 60_000 }, sleeps);
    const { email, password } = await signedUp(app);
    const other = laggingApp({ ms: 60_000 }, []);
    await other.signInWithCredential({ email, password, noRedirect: true });
    const otherUser = await other.getUser({ or: 'throw' });
    const mine = (await otherUser.getActiveSessions()).find((s) => !s.isCurrentSession)!;
    await otherUser.revokeSession(mine.id);
    await Bun.sleep(2100);
    expect(await app.getUser()).toBeNull();
    expect(app._core.requireTokenStore().get()).toEqual({ accessToken: null, refreshToken: null });
  });
});
