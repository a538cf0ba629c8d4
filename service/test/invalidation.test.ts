// Two service instances on one PostgreSQL database: a project-config change or an API-key revocation made through
// one instance reaches the other's caches at once (LISTEN/NOTIFY on `gatehouse_invalidate`), well before the
// caches' 5 s lifetime. Runs on a scratch database on the run's PostgreSQL server (DATABASE_URL's, else the local one).
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import postgres from 'postgres';
import { Api, clientApi, expectKnownError, serverApi, startService, type RunningService } from './support/service';
import { newProject } from './support/projects';

// The machine may be busy (several suites at once): allow slow service round-trips.
setDefaultTimeout(60_000);

const ADMIN_URL = process.env.DATABASE_URL ?? process.env.GATEHOUSE_TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
let scratchDb: string | undefined;
let databaseUrl: string;
let a: RunningService;
let b: RunningService;

beforeAll(async () => {
  // A database of its own (next to DATABASE_URL's when set): these instances' outbox workers must not drain the
  // email outbox of the test process's shared service.
  scratchDb = `gh_invalidation_${process.pid}_${Date.now()}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${scratchDb}`);
  await admin.end();
  const u = new URL(ADMIN_URL);
  u.pathname = `/${scratchDb}`;
  databaseUrl = u.toString();
  // One after the other: the first applies the migrations and bootstraps the internal project.
  a = await startService({ env: { DATABASE_URL: databaseUrl } });
  b = await startService({ env: { DATABASE_URL: databaseUrl } });
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  if (scratchDb) {
    const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${scratchDb} with (force)`);
    await admin.end();
  }
}, 30_000);

/** The lifetime of a cached project or API-key validity (services.ts). */
const CACHE_LIFETIME_MS = 5_000;

/**
 * Polls B until `done`, and accepts only an answer that arrived while the entry B filled at `cachedSince` (or
 * later) cannot have expired yet: then only a notification can make it pass. The deadline runs from the filling
 * read rather than from the change, so a busy machine's slow requests do not fail the test, yet a cache that
 * merely expired never passes it.
 */
async function beforeCacheExpiry<T>(cachedSince: number, read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const expiresNoEarlierThan = cachedSince + CACHE_LIFETIME_MS;
  for (;;) {
    const v = await read();
    const at = Date.now();
    if (done(v)) {
      if (at >= expiresNoEarlierThan) throw new Error(`the change showed only ${at - cachedSince} ms after the entry was cached: it may just have expired`);
      return v;
    }
    if (at >= expiresNoEarlierThan) return v;
    await Bun.sleep(25);
  }
}

const on = (svc: RunningService, api: Api) => new Api(svc.url, api.headers);

describe('cross-instance cache invalidation', () => {
  test('a config change made on one instance is seen by the other at once', async () => {
    const p = await newProject(a);
    const clientOnB = on(b, p.client);
    const cachedSince = Date.now();
    expect((await clientOnB.get('/projects/current')).body.config.sign_up_enabled).toBe(true); // cached on B now
    expect((await p.admin.patch('/projects/current', { display_name: 'Changed on A', config: { sign_up_enabled: false } })).status).toBe(200);
    const seen = await beforeCacheExpiry(cachedSince, () => clientOnB.get('/projects/current'), (r) => r.body.config.sign_up_enabled === false);
    expect({ name: seen.body.display_name, signUp: seen.body.config.sign_up_enabled }).toEqual({ name: 'Changed on A', signUp: false });
  });

  test('an API key revoked on one instance stops working on the other at once', async () => {
    const p = await newProject(a);
    const serverOnB = serverApi(b.url, p.id, p.keys.secretServerKey);
    const cachedSince = Date.now();
    expect((await serverOnB.get('/users')).status).toBe(200); // validity cached on B
    const list = await p.admin.get('/internal/api-keys');
    const keySetId = list.body.items[0].id;
    expect((await p.admin.patch(`/internal/api-keys/${keySetId}`, { revoked: true })).status).toBe(200);
    const res = await beforeCacheExpiry(cachedSince, () => serverOnB.get('/users'), (r) => r.status === 401);
    expectKnownError(res, 'INVALID_SECRET_SERVER_KEY', 401);
  });

  test('a project deleted on one instance is gone on the other at once', async () => {
    const p = await newProject(a);
    const clientOnB = clientApi(b.url, p.id, p.keys.publishableClientKey);
    const cachedSince = Date.now();
    expect((await clientOnB.get('/projects/current')).status).toBe(200);
    expect((await p.admin.delete('/projects/current')).status).toBe(200);
    const res = await beforeCacheExpiry(cachedSince, () => clientOnB.get('/projects/current'), (r) => r.status !== 200);
    expectKnownError(res, 'INVALID_PUBLISHABLE_CLIENT_KEY', 401);
  });
});
