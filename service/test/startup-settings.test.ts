// A bad setting stops the start with a message naming the variable (issue 14 §6): the real service process is
// started with each bad value and must exit non-zero, before touching the database, naming what is wrong.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { loadConfig } from '../src/config';

setDefaultTimeout(60_000);
const SERVICE_ENTRY = join(import.meta.dir, '../src/main.ts');

async function startWith(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-settings-'));
  const proc = Bun.spawn([process.execPath, SERVICE_ENTRY], {
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

const BAD: [name: string, value: string][] = [
  ['GATEHOUSE_ACCESS_TOKEN_LIFETIME_SECONDS', '-5'],
  ['PORT', 'abc'],
  ['DATABASE_URL', 'nonsense'],
  ['GATEHOUSE_PASSWORD_HASH_CONCURRENCY', 'zero'],
  ['GATEHOUSE_TRUST_PROXY', 'yes'],
  ['SMTP_URL', 'notaurl'],
  ['GATEHOUSE_RATE_LIMITS', 'bogus'],
  ['GATEHOUSE_PROJECT_CREATION', 'everyone'],
  ['GATEHOUSE_OWNER_MFA_REQUIRED', 'yes'],
];

describe('a bad setting stops the start and names the variable', () => {
  for (const [name, value] of BAD) {
    test(`${name}=${value}`, async () => {
      const { code, output } = await startWith({ [name]: value });
      expect(code).not.toBe(0);
      expect(output).toContain(`Gatehouse cannot start: ${name}: `);
      expect(output).toContain(`"${value}"`);
      // Stopped before listening and before migrations (no stack trace, no database work).
      expect(output).not.toContain('listening on');
      expect(output).not.toMatch(/^\s+at /m);
    });
  }

  test('an unreachable PostgreSQL names DATABASE_URL and hides its password', async () => {
    const { code, output } = await startWith({ DATABASE_URL: 'postgres://gatehouse:s3cret@127.0.0.1:1/nowhere' });
    expect(code).not.toBe(0);
    expect(output).toContain('Gatehouse cannot start: cannot open the database at DATABASE_URL (postgres://gatehouse:***@127.0.0.1:1/nowhere)');
    expect(output).not.toContain('s3cret');
  });
});

describe('loadConfig', () => {
  test('accepts good values of the checked variables', () => {
    expect(loadConfig({
      PORT: '0', GATEHOUSE_ACCESS_TOKEN_LIFETIME_SECONDS: '30', DATABASE_URL: 'postgresql://u:p@db:5432/g', GATEHOUSE_PASSWORD_HASH_CONCURRENCY: '3',
      SMTP_URL: 'smtps://u:p@mail.example.com', GATEHOUSE_RATE_LIMITS: 'sign_in_ip=5/60',
    })).toMatchObject({ port: 0, accessTokenLifetimeSeconds: 30, databaseUrl: 'postgresql://u:p@db:5432/g', passwordHashConcurrency: 3, smtpUrl: 'smtps://u:p@mail.example.com', rateLimits: 'sign_in_ip=5/60' });
    expect(loadConfig({ GATEHOUSE_RATE_LIMITS: 'off' }).rateLimits).toBe('off');
  });

  test('GATEHOUSE_TRUST_PROXY: true is one hop, a number is that many hops, or a list of proxy addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ GATEHOUSE_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ GATEHOUSE_TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ GATEHOUSE_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ GATEHOUSE_TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toEqual(['loopback', '10.0.0.0/8']);
    expect(() => loadConfig({ GATEHOUSE_TRUST_PROXY: '10.0.0.0/99' })).toThrow(/GATEHOUSE_TRUST_PROXY/);
  });
});
