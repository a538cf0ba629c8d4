// GET /internal/metrics (protocol-resources §12.4) over HTTP, with activity recorded by real sign-ins.
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { Api, expectKnownError, startService, uniqueEmail, type RunningService } from './support/service';
import { newInternalUser, newProject, type TestProject } from './support/projects';

// The machine may be busy (several suites at once): allow slow service round-trips.
setDefaultTimeout(60_000);

// Countries come from a proxy's cf-ipcountry header, believed only behind a trusted proxy: a service of its own.
let svc: RunningService;
beforeAll(async () => { svc = await startService({ env: { GATEHOUSE_TRUST_PROXY: 'true' }, startTimeoutMs: 120_000 }); }, 180_000);
afterAll(async () => { await svc?.stop(); });

const utcDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const browser = (country?: string) => ({ 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0', 'x-forwarded-for': '203.0.113.7', ...(country ? { 'cf-ipcountry': country } : {}) });

async function signUpWith(p: TestProject, headers: Record<string, string> = {}) {
  const email = uniqueEmail('metrics');
  const res = await p.client.post('/auth/password/sign-up', { email, password: 'correct-horse-1' }, { headers });
  expect(res.status).toBe(200);
  return { email, userId: res.body.user_id as string };
}

/** Activity is written in batches (about once a second, later on a busy machine): poll until the figures show it. */
async function metricsUntil(p: TestProject, done: (m: any) => boolean) {
  const until = Date.now() + 20_000;
  for (;;) {
    const res = await p.admin.get('/internal/metrics');
    expect(res.status).toBe(200);
    if (done(res.body) || Date.now() > until) return res.body;
    await Bun.sleep(100);
  }
}

describe('GET /internal/metrics', () => {
  test('an empty project: zeros over 31 UTC days', async () => {
    const p = await newProject(svc);
    const res = await p.admin.get('/internal/metrics');
    expect(res.status).toBe(200);
    const expectedDays = Array.from({ length: 31 }, (_, i) => ({ date: utcDay(i - 30), activity: 0 }));
    expect(res.body).toEqual({
      total_users: 0, daily_users: expectedDays, daily_active_users: expectedDays, login_methods: [],
      recently_registered: [], recently_active: [], users_by_country: {},
    });
  });

  test('sign-ups, active users, methods, recent users and countries', async () => {
    const p = await newProject(svc, { config: { magic_link_enabled: true } });
    const de = await signUpWith(p, browser('DE'));
    const us = await signUpWith(p, browser('US'));
    const plain = await signUpWith(p);
    const serverMade = await p.server.post('/users', { display_name: 'No method' });
    expect(serverMade.status).toBe(201);
    const anon = await p.server.post('/users', { is_anonymous: true });
    expect(anon.status).toBe(201);
    expect((await p.server.patch(`/users/${plain.userId}`, { otp_auth_enabled: true })).status).toBe(200);

    const m = await metricsUntil(p, (x) => x.daily_active_users.at(-1).activity === 3 && Object.keys(x.users_by_country).length === 2);
    expect(m.total_users).toBe(4); // the anonymous user is not counted
    expect(m.daily_users).toHaveLength(31);
    expect(m.daily_users.at(-1)).toEqual({ date: utcDay(0), activity: 4 });
    expect(m.daily_users.slice(0, 30).every((d: any) => d.activity === 0)).toBe(true);
    expect(m.daily_active_users.at(-1)).toEqual({ date: utcDay(0), activity: 3 });
    expect(m.login_methods).toEqual([{ method: 'password', count: 3 }, { method: 'otp', count: 1 }]);
    expect(m.users_by_country).toEqual({ DE: 1, US: 1 });
    expect(m.recently_registered.map((u: any) => u.id)).toEqual([serverMade.body.id, plain.userId, us.userId, de.userId]);
    expect(m.recently_registered[0]).toEqual(serverMade.body.id && { ...m.recently_registered[0], display_name: 'No method', server_metadata: null });
    expect(Object.keys(m.recently_registered[1]).sort()).toEqual(Object.keys(serverMade.body).sort()); // server user shape
    // Activity starts at the first sign-in or refresh: a user an owner or a back end made is not active (issue 26).
    expect(new Set(m.recently_active.map((u: any) => u.id))).toEqual(new Set([plain.userId, us.userId, de.userId]));

    // A later sign-in from elsewhere moves the user to that country.
    const res = await p.client.post('/auth/password/sign-in', { email: us.email, password: 'correct-horse-1' }, { headers: browser('FR') });
    expect(res.status).toBe(200);
    // The figures are read in parallel, each on its own: an activity flush committing between two reads shows the
    // country of one and the order of the other before it. Wait for both (the flush writes them in one transaction).
    const after = await metricsUntil(p, (x) => x.users_by_country.FR === 1 && x.recently_active[0]?.id === us.userId);
    expect(after.users_by_country).toEqual({ DE: 1, FR: 1 });
    expect(after.recently_active[0].id).toBe(us.userId);
  });

  test('recent lists hold at most five users; users never signed in are registered, not active', async () => {
    const p = await newProject(svc);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await p.server.post('/users', {})).body.id);
    let m = (await p.admin.get('/internal/metrics')).body;
    expect(m.total_users).toBe(6);
    expect(m.recently_registered.map((u: any) => u.id)).toEqual(ids.slice(1).reverse());
    expect(m.recently_active).toEqual([]);
    for (let i = 0; i < 6; i++) await signUpWith(p);
    m = await metricsUntil(p, (x) => x.recently_active.length === 5);
    expect(m.recently_active).toHaveLength(5);
    expect(m.recently_active.some((u: any) => ids.includes(u.id))).toBe(false);
  });

  test('admin only; owners pass with their token, other users do not; per project', async () => {
    const p = await newProject(svc);
    const other = await newProject(svc);
    await signUpWith(other);
    for (const api of [p.client, p.server]) expectKnownError(await api.get('/internal/metrics'), 'INSUFFICIENT_ACCESS_TYPE', 401);
    const own = await p.ownerAdmin.get('/internal/metrics');
    expect(own.status).toBe(200);
    expect(own.body.total_users).toBe(0);
    const stranger = await newInternalUser(svc);
    const strangerAdmin = new Api(svc.url, { 'x-stack-project-id': p.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': stranger.accessToken });
    expectKnownError(await strangerAdmin.get('/internal/metrics'), 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401);
  });
});
