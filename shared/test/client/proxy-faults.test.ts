// The retry loop (client-library §4.3/4.4) against the real service, through a local proxy that injects faults:
// 429 with Retry-After, 508, dropped connections and delays. Attempts are counted at the proxy.
import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sharedService, type SharedService } from '../../../service/test/support/service.ts';
import { newProject, type TestProject } from '../../../service/test/support/projects.ts';
import { GatehouseServerApp, HttpError, NetworkError, type GatehouseClientAppOptions } from '../../src/client/index.ts';
import { clientFor, signedUpClient } from './service-helpers.ts';
import { delayed, drop, forward, loopDetected, recordingTimers, startFaultProxy, tooManyRequests, type FaultProxy } from './fault-proxy.ts';

setDefaultTimeout(90_000);
let svc: SharedService;
let direct: TestProject;
/** The same project, reached through the proxy. */
let viaProxy: TestProject;
let proxy: FaultProxy;

beforeAll(async () => {
  svc = await sharedService();
  direct = await newProject(svc);
  proxy = await startFaultProxy(svc.url);
  viaProxy = { ...direct, url: proxy.url };
}, 180_000);
afterAll(async () => {
  await proxy?.stop();
});
beforeEach(() => proxy.reset());

const ME = '/api/v1/users/me';

const serverOptions = (p: TestProject) => ({
  baseUrl: p.url,
  projectId: p.id,
  publishableClientKey: p.keys.publishableClientKey,
  secretServerKey: p.keys.secretServerKey,
  tokenStore: null,
});

/** A signed-up client talking through the proxy, with recorded back-off sleeps and captured warnings. */
async function setup(opts: { random?: number; extra?: Partial<GatehouseClientAppOptions> } = {}) {
  const { timers, sleeps } = recordingTimers({ random: opts.random });
  const warnings: string[] = [];
  proxy.reset();
  const signed = await signedUpClient(viaProxy, { timers, logger: { warn: (m: unknown) => warnings.push(String(m)) }, ...opts.extra });
  proxy.reset();
  sleeps.length = 0;
  return { ...signed, sleeps, warnings };
}

/** Fresh user read (not from the cache): one logical call = one retry loop. */
const readMe = (app: Awaited<ReturnType<typeof setup>>['app']) => app._core.json(ME.slice(7), {}, app._core.defaultSession(), 'client');

describe('429 with Retry-After', () => {
  test('waits Retry-After seconds plus the back-off, then gets the real answer', async () => {
    const { app, user, sleeps, warnings } = await setup();
    proxy.script((r) => (r.path === ME && r.count <= 2 ? tooManyRequests('2') : undefined));
    const me = await readMe(app);
    expect(me.id).toBe(user.id);
    expect(proxy.seen('GET', ME).map((r) => r.status)).toEqual([429, 429, 200]);
    // Retry-After 2 s, back-off 1 s (random 0.5), Retry-After 2 s, back-off 2 s
    expect(sleeps).toEqual([2000, 1000, 2000, 2000]);
    expect(warnings).toEqual([
      `Rate limited while sending request to ${proxy.url}${ME}. Will retry after 2 seconds...`,
      `Rate limited while sending request to ${proxy.url}${ME}. Will retry after 2 seconds...`,
    ]);
  });

  test('without Retry-After only the back-off applies', async () => {
    const { app, user, sleeps, warnings } = await setup();
    proxy.script((r) => (r.path === ME && r.count === 1 ? tooManyRequests() : undefined));
    expect((await readMe(app)).id).toBe(user.id);
    expect(proxy.seen('GET', ME).length).toBe(2);
    expect(sleeps).toEqual([1000]);
    expect(warnings).toEqual([`Rate limited while sending request to ${proxy.url}${ME}, no retry-after header received. Retrying...`]);
  });

  test('with the real clock the retry arrives Retry-After + back-off later', async () => {
    // random 0 → back-off 500 ms; Retry-After 1 s; both really slept
    const warnings: string[] = [];
    const { app, user } = await signedUpClient(viaProxy, { timers: { random: () => 0 }, logger: { warn: (m: unknown) => warnings.push(String(m)) } });
    proxy.reset();
    proxy.script((r) => (r.path === ME && r.count === 1 ? tooManyRequests('1') : undefined));
    expect((await readMe(app)).id).toBe(user.id);
    const [first, second] = proxy.seen('GET', ME);
    expect(proxy.seen('GET', ME).length).toBe(2);
    const gap = second!.at - first!.at;
    expect(gap).toBeGreaterThanOrEqual(1490);
    expect(gap).toBeLessThan(6000); // generous: the machine may be loaded
  });

  test('rate limited on all 5 attempts: gives up with the diagnostics error (probes reach the service)', async () => {
    const { app, sleeps } = await setup();
    proxy.script((r) => (r.path === ME ? tooManyRequests('1') : undefined));
    const err = await readMe(app).catch((e) => e);
    expect(proxy.seen('GET', ME).length).toBe(5);
    // Retry-After is waited after every 429, the last included; the back-off only between attempts
    expect(sleeps).toEqual([1000, 1000, 1000, 2000, 1000, 4000, 1000, 8000, 1000]);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toStartWith(
      'Stack Auth is unable to connect to the server. Please check your internet connection and try again.\n\nIf the problem persists, please contact support and provide a screenshot of your entire browser console.\n\n',
    );
    expect(err.message).toContain(`${proxy.url}${ME}: 429 Too Many Requests`);
    expect(err.diagnostics).toMatchObject({ apiRoot: 'OK', baseUrlBackend: 'OK', cfTrace: 'Not tested' });
    expect(err.message).toEndWith(JSON.stringify(err.diagnostics, null, 2));
    // after the 5 attempts exactly the two probes, through the same proxy, and nothing else
    expect(proxy.requests.slice(5).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v1', 'GET /health']);
  });
});

describe('508 loop detected', () => {
  test('508 INFINITE_LOOP_DETECTED is retried (server app)', async () => {
    const { timers, sleeps } = recordingTimers();
    const app = new GatehouseServerApp({ ...serverOptions(viaProxy), timers });
    const created = await app.createUser({ primaryEmail: `loop-${Date.now()}@example.com` });
    proxy.reset();
    const path = `/api/v1/users/${created.id}`;
    proxy.script((r) => (r.path === path && r.count <= 2 ? loopDetected() : undefined));
    const got = await app.getUser(created.id);
    expect(got?.id).toBe(created.id);
    expect(proxy.seen('GET', path).map((r) => r.status)).toEqual([508, 508, 200]);
    expect(sleeps).toEqual([1000, 2000]);
  });

  test('a 508 without INFINITE_LOOP_DETECTED is thrown after one attempt', async () => {
    const { app, sleeps } = await setup();
    proxy.script((r) => (r.path === ME ? loopDetected('Loop Detected') : undefined));
    const err = await readMe(app).catch((e) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err.status).toBe(508);
    expect(err.message).toBe(`Failed to send request to ${proxy.url}${ME}: 508 Loop Detected`);
    expect(proxy.seen('GET', ME).length).toBe(1);
    expect(sleeps).toEqual([]);
  });
});

describe('dropped connections', () => {
  test('GET is retried after drops and succeeds', async () => {
    const { app, user, sleeps } = await setup();
    proxy.script((r) => (r.path === ME && r.count <= 2 ? drop() : undefined));
    expect((await readMe(app)).id).toBe(user.id);
    expect(proxy.seen('GET', ME).map((r) => r.action)).toEqual(['drop', 'drop', 'forward']);
    expect(sleeps).toEqual([1000, 2000]);
  });

  test('DELETE (idempotent) is retried: the channel is deleted once', async () => {
    const { app, user, sleeps } = await setup();
    const channel = await user.createContactChannel({ type: 'email', value: `extra-${Date.now()}@example.com`, usedForAuth: false });
    proxy.reset();
    const path = `/api/v1/contact-channels/me/${channel.id}`;
    proxy.script((r) => (r.path === path && r.count === 1 ? drop() : undefined));
    await channel.delete();
    expect(proxy.seen('DELETE', path).map((r) => r.action)).toEqual(['drop', 'forward']);
    expect(proxy.seen('DELETE', path)[1]!.status).toBe(200);
    // one back-off; anything after it is the channel-list cache's refresh throttle, not a network retry
    expect(sleeps[0]).toBe(1000);
    expect(sleeps.slice(1).every((ms) => ms < 1000)).toBe(true);
    expect((await user.listContactChannels()).map((c) => c.id)).not.toContain(channel.id);
  });

  test('POST and PATCH are not retried: the network error is thrown at once and nothing changed', async () => {
    const { app, user, sleeps } = await setup();
    proxy.script((r) => (r.method === 'POST' || r.method === 'PATCH' ? drop() : undefined));
    const postErr = await user.createTeam({ displayName: 'Never created' }).catch((e) => e);
    expect(postErr).toBeInstanceOf(NetworkError);
    expect(postErr.message).toStartWith(`Failed to send Stack network request to ${proxy.url}/api/v1/teams: `);
    expect(proxy.seen('POST', '/api/v1/teams').length).toBe(1);
    const patchErr = await user.update({ displayName: 'Never renamed' }).catch((e) => e);
    expect(patchErr).toBeInstanceOf(NetworkError);
    expect(proxy.seen('PATCH', ME).length).toBe(1);
    expect(sleeps).toEqual([]);
    // no probes were sent for these (the offline check and diagnostics are only for the retry loop's end)
    expect(proxy.requests.filter((r) => r.path === '/health' || r.path === '/api/v1').length).toBe(0);
    proxy.script(() => undefined);
    expect((await readMe(app)).display_name).toBeNull();
    expect(await user.listTeams()).toEqual([]);
  });

  test('the refresh grant is a POST but its network failures are retried', async () => {
    const { app, user } = await setup();
    const refreshToken = app._core.requireTokenStore().get().refreshToken!;
    // a second app holding only the refresh token: its first request has to refresh
    const { timers, sleeps } = recordingTimers();
    const fresh = clientFor(viaProxy, { timers });
    fresh._core.requireTokenStore().set({ accessToken: null, refreshToken });
    proxy.script((r) => (r.path === '/api/v1/auth/oauth/token' && r.count === 1 ? drop() : undefined));
    expect((await fresh.getUser({ or: 'throw' })).id).toBe(user.id);
    expect(proxy.seen('POST', '/api/v1/auth/oauth/token').map((r) => r.action)).toEqual(['drop', 'forward']);
    expect(proxy.seen('POST', '/api/v1/auth/oauth/token')[1]!.status).toBe(200);
    expect(proxy.seen('GET', ME).length).toBe(1);
    expect(sleeps).toEqual([1000]);
  });

  test('a GET dropped 5 times gives up after exactly 5 attempts with back-off (0.5–1.5) × 1000 × 2^i', async () => {
    for (const [random, expected] of [
      [0, [500, 1000, 2000, 4000]],
      [0.5, [1000, 2000, 4000, 8000]],
      [0.999, [1499, 2998, 5996, 11992]],
    ] as const) {
      const { app, sleeps } = await setup({ random });
      proxy.script((r) => (r.path === ME ? drop() : undefined));
      const err = await readMe(app).catch((e) => e);
      expect(proxy.seen('GET', ME).length).toBe(5);
      expect(sleeps.map(Math.round)).toEqual([...expected]);
      expect(err).toBeInstanceOf(NetworkError);
      expect(err.message).toStartWith('Stack Auth is unable to connect to the server.');
      expect(err.message).toContain('TypeError');
      expect(err.diagnostics).toMatchObject({ apiRoot: 'OK', baseUrlBackend: 'OK', prodDashboard: 'Not tested', prodBackend: 'Not tested' });
      expect(proxy.requests.slice(5).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v1', 'GET /health']);
    }
  });

  test('an offline browser gets the offline error after the 5 attempts, without probes', async () => {
    const browser = {
      document: { cookie: '' },
      location: { href: 'https://app.test/', hostname: 'app.test', assign() {}, replace() {} },
      navigator: { onLine: true },
    };
    const { app, sleeps } = await setup({ extra: { browser } });
    browser.navigator.onLine = false;
    proxy.script((r) => (r.path === ME ? drop() : undefined));
    await expect(readMe(app)).rejects.toThrow(
      'Failed to send Stack network request. It seems like you are offline, please check your internet connection and try again. This is not an error with Stack Auth. (window.navigator.onLine is falsy)',
    );
    expect(proxy.seen('GET', ME).length).toBe(5);
    expect(sleeps.length).toBe(4);
    expect(proxy.requests.length).toBe(5);
  });

  test('with the real clock the back-off is really waited (random 0: 500 ms, then 1000 ms)', async () => {
    const { app, user } = await signedUpClient(viaProxy, { timers: { random: () => 0 } });
    proxy.reset();
    proxy.script((r) => (r.path === ME && r.count <= 2 ? drop() : undefined));
    expect((await readMe(app)).id).toBe(user.id);
    const at = proxy.seen('GET', ME).map((r) => r.at);
    expect(at.length).toBe(3);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(490);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(990);
    expect(at[2]! - at[0]!).toBeLessThan(8000); // generous upper bound for a loaded machine
  });
});

describe('dropped keep-alive connections', () => {
  test("the runtime's fetch resends an idempotent request once on a dropped reused connection; the library still makes 5 attempts", async () => {
    const keepAlive = await startFaultProxy(svc.url, { keepAlive: true });
    try {
      const { timers, sleeps } = recordingTimers();
      const { app } = await signedUpClient({ ...direct, url: keepAlive.url }, { timers });
      keepAlive.reset();
      sleeps.length = 0;
      keepAlive.script((r) => (r.path === ME || r.path === '/api/v1/teams' ? drop() : undefined));
      const err = await readMe(app).catch((e) => e);
      expect(err).toBeInstanceOf(NetworkError);
      expect(sleeps).toEqual([1000, 2000, 4000, 8000]);
      const gets = keepAlive.seen('GET', ME);
      // each library attempt ends with exactly one drop on a fresh connection ...
      expect(gets.filter((r) => !r.reusedConnection).length).toBe(5);
      // ... and a drop on a reused connection is resent by the runtime at once, on a fresh one
      gets.forEach((r, i) => {
        if (r.reusedConnection) expect(gets[i + 1]?.reusedConnection).toBe(false);
      });
      expect(gets.filter((r) => r.reusedConnection).length).toBeGreaterThanOrEqual(1);
      // a POST is never resent, not even by the runtime
      keepAlive.reset();
      const { user } = await signedUpClient({ ...direct, url: keepAlive.url }, { timers });
      keepAlive.script((r) => (r.path === '/api/v1/teams' ? drop() : undefined));
      await expect(user.createTeam({ displayName: 'x' })).rejects.toBeInstanceOf(NetworkError);
      expect(keepAlive.seen('POST', '/api/v1/teams').length).toBe(1);
      expect(keepAlive.seen('POST', '/api/v1/teams')[0]!.reusedConnection).toBe(true);
    } finally {
      await keepAlive.stop();
    }
  });
});

describe('delays', () => {
  test('a slow answer is waited for: no client-side timeout, no retry', async () => {
    const { app, user, sleeps } = await setup();
    proxy.script((r) => (r.path === ME ? delayed(800) : undefined));
    const started = Date.now();
    expect((await readMe(app)).id).toBe(user.id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(790);
    expect(proxy.seen('GET', ME).length).toBe(1);
    expect(sleeps).toEqual([]);
  });

  test('a delayed drop and a delayed 429 are retried like immediate ones', async () => {
    const { app, user, sleeps } = await setup();
    proxy.script((r) => (r.path !== ME ? undefined : r.count === 1 ? delayed(300, drop()) : r.count === 2 ? delayed(300, tooManyRequests('0')) : forward()));
    expect((await readMe(app)).id).toBe(user.id);
    expect(proxy.seen('GET', ME).map((r) => r.action)).toEqual(['drop', 'respond', 'forward']);
    expect(sleeps).toEqual([1000, 0, 2000]);
  });
});
