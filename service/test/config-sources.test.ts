// Configuration has one source (issue 13 §4): loadConfig parses every setting, including those other modules used
// to read from process.env themselves, and a bad one stops the start naming the variable (the service process is
// started for real, as in startup-settings.test.ts).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { loadConfig } from '../src/config';

setDefaultTimeout(60_000);
const SRC = join(import.meta.dir, '../src');

async function startWith(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-config-'));
  const proc = Bun.spawn([process.execPath, join(SRC, 'main.ts')], {
    env: { ...process.env, DATABASE_URL: '', PORT: '0', GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_DEV_OIDC: 'false', NODE_ENV: 'test', ...env },
    stdout: 'pipe', stderr: 'pipe',
  });
  const timer = setTimeout(() => proc.kill('SIGKILL'), 30_000);
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const code = await proc.exited;
  clearTimeout(timer);
  rmSync(dataDir, { recursive: true, force: true });
  return { code, output: out + err };
}

describe('loadConfig is the one reader of the environment', () => {
  test('parses the settings other modules used to read from process.env (issue 13 §4)', () => {
    const c = loadConfig({
      GATEHOUSE_LOG_LEVEL: 'warn', GATEHOUSE_METRICS_PORT: '9464', GATEHOUSE_HOUSEKEEPING_INTERVAL_MS: '5000', GATEHOUSE_WEBHOOK_POLL_MS: '50',
      GATEHOUSE_OAUTH_ISSUER_OVERRIDES: '{"github":"http://idp.test"}', GATEHOUSE_OAUTH_GOOGLE_CLIENT_ID: 'gid', GATEHOUSE_OAUTH_GOOGLE_CLIENT_SECRET: 'gsecret',
      GATEHOUSE_RATE_LIMITS: 'sign_in_ip=5/60',
    });
    expect(c.log.level).toBe('warn');
    expect(c.metrics.port).toBe(9464);
    expect(c.housekeepingIntervalMs).toBe(5000);
    expect(c.webhooks.pollMs).toBe(50);
    expect(c.oauth.issuerOverrides).toEqual({ github: 'http://idp.test' });
    expect(c.oauth.sharedCredentials.google).toEqual({ clientId: 'gid', clientSecret: 'gsecret' });
    expect(c.rateLimitRules?.sign_in_ip).toEqual({ limit: 5, windowSeconds: 60 });
    expect(loadConfig({ GATEHOUSE_RATE_LIMITS: 'off' }).rateLimitRules).toBeNull();
    for (const [name, value] of [['GATEHOUSE_LOG_LEVEL', 'loud'], ['GATEHOUSE_METRICS_PORT', 'abc'], ['GATEHOUSE_RATE_LIMITS', 'bogus'], ['GATEHOUSE_OAUTH_ISSUER_OVERRIDES', '{"nope":"http://a.test"}']]) {
      expect(() => loadConfig({ [name]: value })).toThrow(name);
    }
  });


  for (const [name, value] of [['GATEHOUSE_OAUTH_ISSUER_OVERRIDES', 'http://a.test'], ['GATEHOUSE_HOUSEKEEPING_INTERVAL_MS', 'soon']]) {
    test(`${name}=${value} stops the start, naming the variable`, async () => {
      const { code, output } = await startWith({ [name]: value });
      expect(code).not.toBe(0);
      expect(output).toContain(`Gatehouse cannot start: ${name}: `);
      expect(output).toContain(`"${value}"`);
      expect(output).not.toContain('listening on');
    });
  }

  test('no other module of the service reads process.env (email/transport.ts keeps its tested production fallback)', () => {
    const readers: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.ts') && readFileSync(path, 'utf8').includes('process.env')) readers.push(path.slice(SRC.length + 1));
      }
    };
    walk(SRC);
    expect(readers.sort()).toEqual(['config.ts', 'email/transport.ts']);
  });
});
