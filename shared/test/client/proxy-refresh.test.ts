// Single-flight refresh (client-library §3.4) against the real service, counted at a local proxy: 20 parallel calls
// with an expired access token cause exactly one refresh request, and all 20 succeed.
// The service issues 2 s access tokens; the client clock runs behind so that fresh tokens pass the 20 s rule (§3.3).
import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startService, type RunningService } from '../../../service/test/support/service.ts';
import { newProject, type TestProject } from '../../../service/test/support/projects.ts';
import { getJwtExpiresAt } from '../../src/client/index.ts';
import { signedUpClient } from './service-helpers.ts';
import { delayed, recordingTimers, startFaultProxy, type FaultProxy } from './fault-proxy.ts';

setDefaultTimeout(90_000);
const TOKEN = '/api/v1/auth/oauth/token';
const ME = '/api/v1/users/me';
let svc: RunningService;
let viaProxy: TestProject;
let proxy: FaultProxy;

beforeAll(async () => {
  svc = await startService({ env: { GATEHOUSE_ACCESS_TOKEN_LIFETIME_SECONDS: '2' } });
  const project = await newProject(svc);
  proxy = await startFaultProxy(svc.url);
  viaProxy = { ...project, url: proxy.url };
}, 180_000);
afterAll(async () => {
  await proxy?.stop();
  await svc?.stop();
});
beforeEach(() => proxy.reset());

/** Signs up through the proxy, then waits until the service considers the access token expired. */
async function signedUpWithExpiredToken(lagMs: number) {
  const { timers, sleeps } = recordingTimers({ lagMs });
  const signed = await signedUpClient(viaProxy, { timers });
  const store = signed.app._core.requireTokenStore();
  const { accessToken: expired, refreshToken } = store.get();
  await Bun.sleep(Math.max(0, getJwtExpiresAt(expired!) - Date.now()) + 150);
  // the service agrees it is expired
  const check = await fetch(`${svc.url}/api/v1/users/me`, {
    headers: { 'x-stack-project-id': viaProxy.id, 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': viaProxy.keys.publishableClientKey, 'x-stack-access-token': expired! },
  });
  expect(check.headers.get('x-stack-known-error')).toBe('ACCESS_TOKEN_EXPIRED');
  proxy.reset();
  sleeps.length = 0;
  return { ...signed, store, expired: expired!, refreshToken: refreshToken!, sleeps };
}

type Signed = Awaited<ReturnType<typeof signedUpWithExpiredToken>>;
/** 20 reads that are not deduplicated by a cache: each is its own request with its own retry loop. */
const twentyParallelReads = (app: Signed['app']) => {
  const session = app._core.defaultSession();
  return Promise.all(Array.from({ length: 20 }, () => app._core.json(ME.slice(7), {}, session, 'client')));
};

describe('20 parallel calls with an expired access token', () => {
  test('seen expired by the client (under 20 s left): one refresh before any call is sent', async () => {
    // 20 s behind: the expired token looks like it has ~19.9 s left (< 20 s), a fresh 2 s token looks like ≥ 21 s.
    const { app, user, store, expired, refreshToken, sleeps } = await signedUpWithExpiredToken(20_000);
    proxy.script((r) => (r.path === TOKEN ? delayed(300) : undefined));
    const results = await twentyParallelReads(app);

    expect(results.map((r) => r.id)).toEqual(Array(20).fill(user.id));
    const refreshes = proxy.seen('POST', TOKEN);
    expect(refreshes.length).toBe(1);
    expect(refreshes[0]!.status).toBe(200);
    expect(new URLSearchParams(refreshes[0]!.body).get('refresh_token')).toBe(refreshToken);
    const fresh = store.get().accessToken!;
    expect(fresh).not.toBe(expired);
    expect(store.get().refreshToken).toBe(refreshToken);
    // every call waited for the refresh and went out once, with the new token; none was rejected
    const reads = proxy.seen('GET', ME);
    expect(reads.length).toBe(20);
    expect(reads.every((r) => r.headers['x-stack-access-token'] === fresh && r.status === 200 && !r.knownError)).toBe(true);
    expect(reads.every((r) => r.at >= refreshes[0]!.at + 290)).toBe(true);
    expect(sleeps).toEqual([]);
  });

  test('rejected by the service (ACCESS_TOKEN_EXPIRED): each call retries once, all after one shared refresh', async () => {
    // 60 s behind: the client still believes the expired token is good and sends it; the service refuses all 20.
    const { app, user, store, expired, refreshToken, sleeps } = await signedUpWithExpiredToken(60_000);
    proxy.script((r) => (r.path === TOKEN ? delayed(300) : undefined));
    const results = await twentyParallelReads(app);

    expect(results.map((r) => r.id)).toEqual(Array(20).fill(user.id));
    expect(proxy.seen('POST', TOKEN).length).toBe(1);
    expect(proxy.seen('POST', TOKEN)[0]!.status).toBe(200);
    const fresh = store.get().accessToken!;
    expect(fresh).not.toBe(expired);
    expect(store.get().refreshToken).toBe(refreshToken);
    const reads = proxy.seen('GET', ME);
    const rejected = reads.filter((r) => r.knownError === 'ACCESS_TOKEN_EXPIRED');
    const retried = reads.filter((r) => !r.knownError);
    expect(reads.length).toBe(40);
    expect(rejected.length).toBe(20);
    expect(rejected.every((r) => r.headers['x-stack-access-token'] === expired)).toBe(true);
    expect(retried.length).toBe(20);
    expect(retried.every((r) => r.headers['x-stack-access-token'] === fresh && r.status === 200)).toBe(true);
    // one back-off per call between its rejected attempt and its retry (random 0.5 → 1000 ms)
    expect(sleeps).toEqual(Array(20).fill(1000));
  });
});
