// The production log destination (observability/logger.ts: sonic-boom, asynchronous, at most 4 KiB a write) with
// Gatehouse's patch of sonic-boom (patches/sonic-boom+4.2.1.patch: the last pending chunk's byte length is remembered
// instead of measured again at every line). Lines of one, two, three and four UTF-8 bytes a character, written in
// bursts while writes are in flight, must come out whole, in order, each chunk within the 4 KiB.
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-log-writes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TEXTS = ['plain ascii', 'é accented', '日本語のテキスト', 'emoji 🔐🗝️', ''];

test('20,000 lines in bursts: every line whole and in order, no pending chunk over 4 KiB', async () => {
  const file = join(dir, 'service.log');
  const destination = pino.destination({ dest: file, sync: false, maxWrite: 4096, mkdir: true });
  const logger = pino({ level: 'info' }, destination);
  const pending = destination as unknown as { _bufs: string[] };
  let largest = 0;
  for (let i = 0; i < 20_000; i++) {
    logger.info({ i, text: TEXTS[i % TEXTS.length]!.repeat(1 + (i % 7)), route: '/api/v1/users/me' }, 'request');
    for (const chunk of pending._bufs) largest = Math.max(largest, Buffer.byteLength(chunk));
    if (i % 500 === 0) await Bun.sleep(1);
  }
  destination.flushSync();
  destination.end();
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  expect(lines).toHaveLength(20_000);
  lines.forEach((line, i) => {
    const entry = JSON.parse(line) as { i: number; text: string };
    expect(entry.i).toBe(i);
    expect(entry.text).toBe(TEXTS[i % TEXTS.length]!.repeat(1 + (i % 7)));
  });
  expect(largest).toBeGreaterThan(1000);
  expect(largest).toBeLessThanOrEqual(4096);
});
