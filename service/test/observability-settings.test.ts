// Log and metrics settings (issue 15 §4): defaults, and a bad value stops the start naming the variable.
import { expect, setDefaultTimeout, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logSettings } from '../src/observability/logger';
import { metricsPort } from '../src/observability/metrics';

setDefaultTimeout(60_000);

test('defaults: info, JSON in production and pretty elsewhere, access log on, metrics off', () => {
  expect(logSettings({ NODE_ENV: 'production' })).toEqual({ level: 'info', format: 'json', accessLog: true });
  expect(logSettings({})).toEqual({ level: 'info', format: 'pretty', accessLog: true });
  expect(logSettings({ GATEHOUSE_LOG_LEVEL: 'warn', GATEHOUSE_LOG_FORMAT: 'json', GATEHOUSE_LOG_REQUESTS: 'false' })).toEqual({ level: 'warn', format: 'json', accessLog: false });
  expect(metricsPort({})).toBeUndefined();
  expect(metricsPort({ GATEHOUSE_METRICS_PORT: '9464' })).toBe(9464);
});

test('bad values name their variable', () => {
  expect(() => logSettings({ GATEHOUSE_LOG_LEVEL: 'loud' })).toThrow('GATEHOUSE_LOG_LEVEL: expected one of');
  expect(() => logSettings({ GATEHOUSE_LOG_FORMAT: 'xml' })).toThrow('GATEHOUSE_LOG_FORMAT: expected json or pretty');
  expect(() => logSettings({ GATEHOUSE_LOG_REQUESTS: 'yes' })).toThrow('GATEHOUSE_LOG_REQUESTS: expected true or false');
  expect(() => metricsPort({ GATEHOUSE_METRICS_PORT: 'abc' })).toThrow('GATEHOUSE_METRICS_PORT: expected a port number');
  expect(() => metricsPort({ GATEHOUSE_METRICS_PORT: '70000' })).toThrow('GATEHOUSE_METRICS_PORT');
});

test('the service refuses to start with GATEHOUSE_METRICS_PORT=abc, before touching the database', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-obs-settings-'));
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, '../src/main.ts')], {
    env: { ...process.env, DATABASE_URL: '', PORT: '0', GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_DEV_OIDC: 'false', NODE_ENV: 'test', GATEHOUSE_METRICS_PORT: 'abc' },
    stdout: 'pipe', stderr: 'pipe',
  });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const code = await proc.exited;
  rmSync(dataDir, { recursive: true, force: true });
  expect(code).not.toBe(0);
  expect(out + err).toContain('Gatehouse cannot start: GATEHOUSE_METRICS_PORT: expected a port number (0-65535), got "abc"');
  expect(out + err).not.toContain('listening on');
});
