// Per-project session lifetimes (issue 30, ASVS 3.3.2): an absolute lifetime and an idle timeout for refresh tokens,
// enforced on refresh with REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED. Sessions are aged by writing their timestamps, so the
// real app runs in this process (app.handle) on a database of its own (PGlite, or PostgreSQL under DATABASE_URL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/config';
import { type Database } from '../src/db';
import { openTestDatabase } from './support/pglite-template';
import { createServices, type Services } from '../src/services';
import { bootstrapInternalProject } from '../src/bootstrap';
import { createApp } from '../src/app';
import { DEV_KEYS } from '../src/dev-keys';
import { updateSecuritySettings } from '../src/projects/security-settings';
import { isolatedDatabase } from './support/isolated-database';

setDefaultTimeout(120_000);
let dir = '';
let database: Database;
let services: Services;
let app: ReturnType<typeof createApp>;
let scratch: Awaited<ReturnType<typeof isolatedDatabase>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-session-lifetime-'));
  const config = loadConfig({ GATEHOUSE_DATA_DIR: dir, GATEHOUSE_DEV_OIDC: 'false', NODE_ENV: 'test', GATEHOUSE_RATE_LIMITS: 'off' });
  // Under DATABASE_URL (CI's second run), a PostgreSQL database of its own.
  scratch = await isolatedDatabase();
  database = await openTestDatabase({ databaseUrl: scratch.url, dataDir: config.dataDir });
  services = await createServices(config, database);
  await bootstrapInternalProject(services);
  app = createApp(services);
});

afterAll(async () => {
  for (const stop of services.onStop) await stop();
  await database.close();
  await scratch.drop();
  rmSync(dir, { recursive: true, force: true });
});

const HEADERS = { 'content-type': 'application/json', 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': DEV_KEYS.publishable_client_key };

async function call(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await app.handle(new Request(`http://localhost/api/v1${path}`, { method: 'POST', headers: { ...HEADERS, ...headers }, body: JSON.stringify(body) }));
  return { status: res.status, body: await res.json() };
}

async function session() {
  const res = await call('/auth/password/sign-up', { email: `s-${crypto.randomUUID()}@example.com`, password: 'correct horse battery' });
  expect(res.status).toBe(200);
  await services.activity.flush();
  return res.body.refresh_token as string;
}

const refresh = (token: string) => call('/auth/sessions/current/refresh', {}, { 'x-stack-refresh-token': token });
const age = (token: string, o: { createdAgo?: string; usedAgo?: string }) => database.db.execute(sql`
  update sessions set created_at = now() - ${o.createdAgo ?? '0 seconds'}::interval,
    last_used_at = now() - ${o.usedAgo ?? o.createdAgo ?? '0 seconds'}::interval
  where refresh_token_hash = encode(sha256(convert_to(${token}, 'UTF8')), 'hex')`);
const set = (changes: Parameters<typeof updateSecuritySettings>[1]['changes']) => updateSecuritySettings(services, { projectId: 'internal', changes });

function expectExpired(res: { status: number; body: any }) {
  expect(res.status).toBe(401);
  expect(res.body.code).toBe('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
}

describe('session lifetimes', () => {
  test("default: today's one year, no idle limit; a session unused for 300 days still refreshes", async () => {
    await set({ session_lifetime_seconds: 365 * 86_400, session_idle_timeout_seconds: null });
    const token = await session();
    await age(token, { createdAgo: '300 days' });
    expect((await refresh(token)).status).toBe(200);
    await age(token, { createdAgo: '366 days', usedAgo: '1 minute' });
    expectExpired(await refresh(token));
  });

  test('an absolute lifetime of a day ends sessions older than a day, those opened before the change included', async () => {
    const older = await session();
    await set({ session_lifetime_seconds: 86_400, session_idle_timeout_seconds: null });
    const fresh = await session();
    // A new session's expiry follows the setting.
    const [row] = ((r: any) => r.rows ?? r)(await database.db.execute(sql`select extract(epoch from expires_at - created_at)::int as s from sessions order by created_at desc limit 1`));
    expect(Math.abs(Number(row.s) - 86_400)).toBeLessThan(5);
    expect((await refresh(fresh)).status).toBe(200);
    await age(older, { createdAgo: '25 hours', usedAgo: '1 minute' });
    expectExpired(await refresh(older));
  });

  test('an idle timeout ends a session not refreshed for that long; a refresh keeps it alive', async () => {
    await set({ session_lifetime_seconds: 365 * 86_400, session_idle_timeout_seconds: 3_600 });
    const idle = await session();
    const active = await session();
    await age(idle, { createdAgo: '3 hours', usedAgo: '61 minutes' });
    await age(active, { createdAgo: '3 hours', usedAgo: '59 minutes' });
    expectExpired(await refresh(idle));
    expect((await refresh(active)).status).toBe(200);
    // The refresh was a use: an hour from now it would still be alive (its last use is now).
    await services.activity.flush();
    expect((await refresh(active)).status).toBe(200);
    await set({ session_idle_timeout_seconds: null });
    expect((await refresh(idle)).status).toBe(200);
  });
});
