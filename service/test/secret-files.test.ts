// Secrets from files (issue 29): NAME_FILE gives a secret setting's value from a mounted file. The rules in-process,
// then a real service that signs with the secret it read from a file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { isSecretSetting, withSecretFiles } from '../src/secret-files';
import { Api, startService, uniqueEmail } from './support/service';
import { newProject } from './support/projects';

setDefaultTimeout(120_000);
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-secret-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function secretFile(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content, { mode: 0o600 });
  return path;
}

describe('withSecretFiles', () => {
  test('each secret setting may come from a file; one trailing line break is dropped; the _FILE variable goes', () => {
    const env = withSecretFiles({
      GATEHOUSE_SERVER_SECRET_FILE: secretFile('secret', 'from-a-file-0123456789abcdef0123456789\n'),
      DATABASE_URL_FILE: secretFile('db', 'postgres://u:p@db:5432/g'),
      GATEHOUSE_OAUTH_GITHUB_CLIENT_SECRET_FILE: secretFile('gh', 'gh-secret\r\n'),
      PORT: '0',
    });
    expect(env).toEqual({
      GATEHOUSE_SERVER_SECRET: 'from-a-file-0123456789abcdef0123456789', DATABASE_URL: 'postgres://u:p@db:5432/g',
      GATEHOUSE_OAUTH_GITHUB_CLIENT_SECRET: 'gh-secret', PORT: '0',
    });
  });

  test('both ways at once, an empty path and an unreadable file are errors naming the variables, never a value', () => {
    const path = secretFile('both', 'value-in-file');
    expect(() => withSecretFiles({ SMTP_URL: 'smtp://x', SMTP_URL_FILE: path })).toThrow('SMTP_URL and SMTP_URL_FILE are both set: give the value one way only');
    expect(() => withSecretFiles({ GATEHOUSE_METRICS_TOKEN_FILE: ' ' })).toThrow('GATEHOUSE_METRICS_TOKEN_FILE is empty');
    expect(() => withSecretFiles({ DATABASE_URL_FILE: join(dir, 'missing') })).toThrow(`DATABASE_URL_FILE: cannot read ${join(dir, 'missing')} (ENOENT)`);
  });

  test('only secret settings are read from files: other *_FILE variables are left alone', () => {
    expect(isSecretSetting('GATEHOUSE_SERVER_SECRET')).toBe(true);
    expect(isSecretSetting('GATEHOUSE_OAUTH_MICROSOFT_CLIENT_SECRET')).toBe(true);
    expect(isSecretSetting('GATEHOUSE_OAUTH_MICROSOFT_CLIENT_ID')).toBe(false);
    expect(withSecretFiles({ SOME_OTHER_FILE: '/etc/passwd' })).toEqual({ SOME_OTHER_FILE: '/etc/passwd' });
  });
});

describe('a service started with GATEHOUSE_SERVER_SECRET_FILE', () => {
  test('signs with the file\'s secret: a token of the same secret given directly is accepted, one of another is not', async () => {
    const dataDir = mkdtempSync(join(dir, 'data-'));
    const secret = 'mounted-secret-0123456789abcdef0123456789abcdef';
    const first = await startService({ env: { DATABASE_URL: '', GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_SERVER_SECRET: secret } });
    const p = await newProject(first);
    const signUp = await p.client.post('/auth/password/sign-up', { email: uniqueEmail('file-secret'), password: 'correct-horse-1' });
    expect(signUp.status).toBe(200);
    await first.stop();

    const fromFile = await startService({ env: { DATABASE_URL: '', GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_SERVER_SECRET_FILE: secretFile('svc', `${secret}\n`) } });
    try {
      const me = await new Api(fromFile.url, { ...p.client.headers, 'x-stack-access-token': signUp.body.access_token }).get('/users/me');
      expect(me.status).toBe(200);
    } finally {
      await fromFile.stop();
    }

    // Another secret cannot open what the first sealed (the signing keys' seeds, issue 29): the start stops and says
    // so, where before it ran and refused every token.
    const other = startService({ env: { DATABASE_URL: '', GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_SERVER_SECRET_FILE: secretFile('other', 'another-secret-0123456789abcdef0123456789abcd') }, startTimeoutMs: 60_000 });
    const refused = await other.then(async (s) => { await s.stop(); return null; }, (e: Error) => e);
    expect(refused?.message).toContain('Gatehouse cannot start: Secrets at rest: a signing-key-seed was sealed under another server secret');
    expect(refused?.message).toContain('set GATEHOUSE_SERVER_SECRET to the secret it was sealed with');
  });

  test('with GATEHOUSE_SERVER_SECRET set too, the start stops and names both', async () => {
    const svc = startService({ env: { DATABASE_URL: '', GATEHOUSE_SERVER_SECRET: 'x'.repeat(40), GATEHOUSE_SERVER_SECRET_FILE: secretFile('dup', 'y'.repeat(40)) }, startTimeoutMs: 20_000 });
    const error = await svc.then(async (s) => { await s.stop(); return null; }, (e: Error) => e);
    expect(error?.message).toContain('Gatehouse cannot start: GATEHOUSE_SERVER_SECRET and GATEHOUSE_SERVER_SECRET_FILE are both set');
  });
});
