// Two service instances on one PostgreSQL database hold the signing keys in memory (tokens/keys.ts). A rotation on
// one reaches the other within a second (NOTIFY `signing-keys:`, services.ts), long before its half-minute reload:
// the other publishes and signs with the new current key, and verifies the tokens of the new previous one and of
// the new current one. Runs on a scratch database on the run's PostgreSQL server (DATABASE_URL's, else the local one).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import postgres from 'postgres';
import { decodeProtectedHeader } from 'jose';
import { Api, DEV_KEYS, adminApi, startService, type RunningService } from './support/service';
import { newProject, signUp } from './support/projects';

setDefaultTimeout(60_000);

const ADMIN_URL = process.env.DATABASE_URL ?? process.env.GATEHOUSE_TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
let scratchDb: string | undefined;
let a: RunningService;
let b: RunningService;

beforeAll(async () => {
  scratchDb = `gh_signing_keys_${process.pid}_${Date.now()}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${scratchDb}`);
  await admin.end();
  const u = new URL(ADMIN_URL);
  u.pathname = `/${scratchDb}`;
  // One after the other: the first applies the migrations and makes the first key records.
  a = await startService({ env: { DATABASE_URL: u.toString() } });
  b = await startService({ env: { DATABASE_URL: u.toString() } });
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  if (scratchDb) {
    const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${scratchDb} with (force)`);
    await admin.end();
  }
}, 30_000);

const recordOf = (token: string) => String(decodeProtectedHeader(token).kid).split('.')[0];
const firstJwksRecord = async (svc: RunningService, projectId: string) => {
  const jwks = (await fetch(`${svc.url}/api/v1/projects/${projectId}/.well-known/jwks.json`).then((r) => r.json())) as { keys: { kid: string }[] };
  return jwks.keys[0]!.kid.split('.')[0];
};

describe('signing keys across instances', () => {
  test('a rotation on one instance: the other signs with the new current key within a second and verifies both', async () => {
    const p = await newProject(a);
    const onB = (api: Api) => new Api(b.url, api.headers);
    const user = await signUp(p);
    const before = (await adminApi(a.url, DEV_KEYS.projectId, DEV_KEYS.superSecretAdminKey).get('/internal/signing-keys')).body.items as { id: string; state: string }[];
    const oldCurrent = before.find((k) => k.state === 'current')!.id;
    const oldNext = before.find((k) => k.state === 'next')!.id;
    expect(await firstJwksRecord(b, p.id)).toBe(oldCurrent);

    const rotation = await adminApi(a.url, DEV_KEYS.projectId, DEV_KEYS.superSecretAdminKey).post('/internal/signing-keys/rotate');
    expect(rotation.status).toBe(200);
    const rotatedAt = Date.now();
    // Only B's JWKS is read until it changes: no token naming the new key reaches B first (that would reload it too).
    let seen = await firstJwksRecord(b, p.id);
    while (seen !== oldNext && Date.now() - rotatedAt < 5_000) { await Bun.sleep(20); seen = await firstJwksRecord(b, p.id); }
    const elapsed = Date.now() - rotatedAt;
    expect(seen).toBe(oldNext);
    expect(elapsed).toBeLessThan(1_000);

    // B signs with the new current key; A and B verify B's new token and the token signed before the rotation.
    const refreshed = await onB(p.client).post('/auth/sessions/current/refresh', {}, { refreshToken: user.refreshToken });
    expect(refreshed.status).toBe(200);
    expect(recordOf(refreshed.body.access_token)).toBe(oldNext);
    for (const svc of [a, b]) {
      for (const token of [user.accessToken, refreshed.body.access_token as string]) {
        expect((await new Api(svc.url, p.client.headers).get('/users/me', { accessToken: token })).status).toBe(200);
      }
    }
  });
});
