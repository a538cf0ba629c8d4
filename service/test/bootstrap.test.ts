// The internal project's keys across starts: the public development keys outside production only; random keys
// in production, printed once; a database first used in development and then run in production loses its
// development keys (revoked, replaced by random keys printed once).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_KEYS, startService, type RunningService } from './support/service';
import { isolatedDatabase } from './support/isolated-database';
import { PRODUCTION_ENV } from './support/production';

let scratch: Awaited<ReturnType<typeof isolatedDatabase>>;
let dataDir: string;
const running: RunningService[] = [];

beforeAll(async () => {
  scratch = await isolatedDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-bootstrap-'));
});
afterAll(async () => {
  for (const s of running) await s.stop();
  await scratch.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Starts the service on this file's database (one PGlite directory, or one PostgreSQL database). `startService`
 * returns once the "listening on" line is read; what the service prints after it (the bootstrap message and the
 * keys, ending with the API docs line) may still be in the pipe, so wait for that last line too.
 */
async function start(nodeEnv: 'production' | 'test', db = { url: scratch?.url, dir: dataDir }): Promise<RunningService> {
  const svc = await startService({ env: { ...(nodeEnv === 'production' ? PRODUCTION_ENV : { NODE_ENV: nodeEnv }), ...(db.url ? { DATABASE_URL: db.url } : { GATEHOUSE_DATA_DIR: db.dir }) } });
  running.push(svc);
  const end = Date.now() + 20_000;
  while (!svc.output().includes('API docs:') && Date.now() < end) await Bun.sleep(20);
  expect(svc.output()).toContain('API docs:');
  return svc;
}

async function stop(svc: RunningService) {
  await svc.stop();
  running.splice(running.indexOf(svc), 1);
}

/** GET /users on the internal project with a secret server key: the status and known-error code. */
async function tryServerKey(svc: RunningService, key: string) {
  const res = await fetch(`${svc.url}/api/v1/users?limit=1`, {
    headers: { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'server', 'x-stack-secret-server-key': key },
  });
  await res.text();
  return { status: res.status, code: res.headers.get('x-stack-known-error') };
}

function printedKeys(output: string) {
  const read = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(output)?.[1];
  return { pck: read('publishable client key'), ssk: read('secret server key'), sak: read('super secret admin key') };
}

const devKeyTexts = [DEV_KEYS.publishableClientKey, DEV_KEYS.secretServerKey, DEV_KEYS.superSecretAdminKey];

describe('internal project bootstrap', () => {
  test('development keys in development; in production they are revoked and replaced by random keys shown once', async () => {
    // 1. First start in development: the documented development keys, printed, and they work.
    let svc = await start('test');
    expect(svc.output()).toContain('Internal project created with the development keys');
    expect(printedKeys(svc.output())).toEqual({ pck: DEV_KEYS.publishableClientKey, ssk: DEV_KEYS.secretServerKey, sak: DEV_KEYS.superSecretAdminKey });
    expect((await tryServerKey(svc, DEV_KEYS.secretServerKey)).status).toBe(200);
    await stop(svc);

    // 2. The same database in production: the development keys stop working, new random keys are printed.
    svc = await start('production');
    const out = svc.output();
    expect(out).toContain('still had the public development keys');
    for (const dev of devKeyTexts) expect(out).not.toContain(dev);
    const keys = printedKeys(out);
    expect(keys.pck).toMatch(/^pck_\S{20,}$/);
    expect(keys.ssk).toMatch(/^ssk_\S{20,}$/);
    expect(keys.sak).toMatch(/^sak_\S{20,}$/);
    expect(await tryServerKey(svc, DEV_KEYS.secretServerKey)).toEqual({ status: 401, code: 'INVALID_SECRET_SERVER_KEY' });
    expect((await tryServerKey(svc, keys.ssk!)).status).toBe(200);
    await stop(svc);

    // 3. Restarting in production prints no keys; the new keys still work, the development keys still do not.
    svc = await start('production');
    expect(svc.output()).not.toContain(keys.ssk!);
    expect(svc.output()).not.toContain('shown only this once');
    expect(printedKeys(svc.output()).ssk).toBeUndefined();
    expect((await tryServerKey(svc, keys.ssk!)).status).toBe(200);
    expect((await tryServerKey(svc, DEV_KEYS.secretServerKey)).code).toBe('INVALID_SECRET_SERVER_KEY');
    await stop(svc);

    // 4. Back in development, the revoked development keys are neither printed nor valid.
    svc = await start('test');
    for (const dev of devKeyTexts) expect(svc.output()).not.toContain(dev);
    expect((await tryServerKey(svc, DEV_KEYS.secretServerKey)).code).toBe('INVALID_SECRET_SERVER_KEY');
    expect((await tryServerKey(svc, keys.ssk!)).status).toBe(200);
    await stop(svc);
  });

  test('a first start in production creates random keys, printed once; the development keys never work', async () => {
    const db = await isolatedDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bootstrap-prod-'));
    try {
      const svc = await start('production', { url: db.url, dir });
      expect(svc.output()).toContain('Internal project created. Its keys are shown only this once');
      const keys = printedKeys(svc.output());
      expect(keys.ssk).toMatch(/^ssk_/);
      expect((await tryServerKey(svc, keys.ssk!)).status).toBe(200);
      expect((await tryServerKey(svc, DEV_KEYS.secretServerKey)).code).toBe('INVALID_SECRET_SERVER_KEY');
      await stop(svc);
    } finally {
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
