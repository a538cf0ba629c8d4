// The password hash queue (auth/passwords.ts): the gate admits at most its limit at once, in arrival order, and a
// failed hash frees its place; the default admits twice the cores, one hash running and one queued per hashing
// thread (issue 16 §3), and every admitted hash completes.
import { describe, expect, test } from 'bun:test';
import { Passwords, Semaphore } from '../src/auth/passwords';
import { loadConfig } from '../src/config';

describe('the hash gate', () => {
  test('never runs more than its limit at once, and starts runs in arrival order', async () => {
    const gate = new Semaphore(3);
    let active = 0;
    let peak = 0;
    const started: number[] = [];
    const runs = Array.from({ length: 20 }, (_, i) => gate.run(async () => {
      started.push(i);
      active++;
      peak = Math.max(peak, active);
      await Bun.sleep(1 + (i % 4));
      active--;
      return i;
    }));
    expect(await Promise.all(runs)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(peak).toBe(3);
    expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  test('a run that throws frees its place for the next', async () => {
    const gate = new Semaphore(1);
    const failed = gate.run(async () => { throw new Error('boom'); });
    const next = gate.run(async () => 'ran');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('ran');
  });
});

describe('password hashing through the queue', () => {
  test('the default admits two hashes per core (at least 4)', () => {
    const cores = navigator.hardwareConcurrency ?? 2;
    expect(loadConfig({}).passwordHashConcurrency).toBe(2 * Math.max(2, cores));
  });

  test('more hashes and verifications than the limit all complete, with the right answers', async () => {
    const passwords = new Passwords(2);
    const hashes = await Promise.all(Array.from({ length: 5 }, (_, i) => passwords.hash(`password number ${i}`)));
    for (const h of hashes) expect(h.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
    const checks = await Promise.all(hashes.flatMap((h, i) => [passwords.verify(`password number ${i}`, h), passwords.verify('wrong password', h)]));
    expect(checks).toEqual(hashes.flatMap(() => [true, false]));
  });
});
