// The safety net (issue 14 §1): an error no code could catch (thrown from a timer, a promise rejected without a
// handler) is logged and the process goes on: sign-ups in flight at that moment complete, and later ones work.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, setDefaultTimeout, test } from 'bun:test';
import { startService, uniqueEmail } from './support/service';
import { newProject } from './support/projects';
import { isolatedDatabase } from './support/isolated-database';

setDefaultTimeout(120_000);
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-safety-net-'));
const trigger = join(dir, 'throw-now');
const scratch = await isolatedDatabase();
const svc = await startService({
  preload: join(import.meta.dir, 'support/throw-on-trigger.ts'),
  env: { GATEHOUSE_TEST_TRIGGER: trigger, GATEHOUSE_RATE_LIMITS: 'off', ...(scratch.url ? { DATABASE_URL: scratch.url } : {}) },
});
afterAll(async () => {
  await svc.stop();
  await scratch.drop();
  rmSync(dir, { recursive: true, force: true });
});

test('an uncaught exception and an unhandled rejection during 10 sign-ups: both logged, every sign-up completes, the service goes on', async () => {
  const project = await newProject(svc);
  const signUp = (email: string) => project.client.post('/auth/password/sign-up', { email, password: 'correct-horse-1' });
  const inFlight = Array.from({ length: 10 }, () => signUp(uniqueEmail('net')));
  writeFileSync(trigger, '');
  const statuses = (await Promise.all(inFlight)).map((r) => r.status);
  expect(statuses).toEqual(Array(10).fill(200));

  const deadline = Date.now() + 10_000;
  while (!(svc.output().includes('thrown from a timer by the test') && svc.output().includes('rejected without a handler by the test')) && Date.now() < deadline) {
    await Bun.sleep(20);
  }
  expect(svc.output()).toContain('Uncaught exception (the service keeps running):');
  expect(svc.output()).toContain('thrown from a timer by the test');
  expect(svc.output()).toContain('Unhandled rejection (the service keeps running):');
  expect(svc.output()).toContain('rejected without a handler by the test');

  const after = await signUp(uniqueEmail('after'));
  expect(after.status).toBe(200);
});
