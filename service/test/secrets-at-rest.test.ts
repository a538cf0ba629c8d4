// Secrets at rest and the server secret (issue 17 §6). TOTP secrets, projects' OAuth client secrets and SMTP
// passwords are sealed in the database (AES-256-GCM, HKDF-derived key per purpose, versioned format with a key id);
// the database read straight shows ciphertext only, while TOTP sign-in, OAuth through the project's own client and
// mail through the project's own SMTP server keep working, and rows written in clear before the change still work
// until their next write seals them. In production the service does not start without a strong server secret.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rowsOf, type DB } from '../src/db/index';
import { openTestDatabase } from './support/pglite-template';
import { loadConfig, serverSecretProblem } from '../src/config';
import { createServices } from '../src/services';
import * as projects from '../src/repo/projects';
import { defaultProjectConfig } from '@gatehouse/shared/schemas/projects';
import { isolatedDatabase } from './support/isolated-database';
import { PRODUCTION_ENV } from './support/production';
import { openBytes, openSecret, sealBytes, sealSecret, sealedKeyId, useSecretsAtRestKeys } from '../src/db/secrets-at-rest';
import { completeProviderLogin, startOidcFixture, type OidcFixture } from './support/oidc';
import { expectKnownError, startService, uniqueEmail } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { startServiceWithDatabase, type ServiceWithDatabase } from './support/service-database';
import { extractCode, startSmtpFixture, type SmtpFixture } from './support/smtp';

setDefaultTimeout(120_000);

describe('sealing', () => {
  const A = 'first-server-secret-0123456789abcdefghij';
  const B = 'second-server-secret-0123456789abcdefghij';

  test('round trip; the text shows no plaintext; every seal differs; a value that is not sealed reads as it is', () => {
    useSecretsAtRestKeys(A);
    const sealed = sealSecret('smtp-password', 'hunter2-smtp');
    expect(sealed).toMatch(/^gh-sealed:v1:[\w-]{12}:[\w-]{16}:[\w-]+:[\w-]{22}$/);
    expect(sealed).not.toContain('hunter2');
    expect(sealSecret('smtp-password', 'hunter2-smtp')).not.toBe(sealed);
    expect(openSecret('smtp-password', sealed)).toBe('hunter2-smtp');
    expect(openSecret('smtp-password', 'written-before-sealing')).toBe('written-before-sealing');
  });

  test('a value opens only for its purpose, and not at all once changed', () => {
    useSecretsAtRestKeys(A);
    const sealed = sealSecret('oauth-client-secret', 'client-secret-1');
    expect(() => openSecret('smtp-password', sealed)).toThrow();
    const parts = sealed.split(':');
    const body = Buffer.from(parts[5]!, 'base64url');
    body[0]! ^= 1;
    parts[5] = body.toString('base64url');
    expect(() => openSecret('oauth-client-secret', parts.join(':'))).toThrow();
    expect(() => openSecret('oauth-client-secret', sealed.slice(0, -4))).toThrow();
  });

  test('rotation: the key id names the sealing secret; a previous secret still opens, new seals use the current one', () => {
    useSecretsAtRestKeys(A);
    const old = sealSecret('smtp-password', 'pw');
    useSecretsAtRestKeys(B, [A]);
    expect(openSecret('smtp-password', old)).toBe('pw');
    const fresh = sealSecret('smtp-password', 'pw');
    expect(sealedKeyId(fresh)).not.toBe(sealedKeyId(old));
    useSecretsAtRestKeys(B);
    expect(() => openSecret('smtp-password', old)).toThrow(/sealed under another server secret.*GATEHOUSE_SERVER_SECRET/);
    expect(openSecret('smtp-password', fresh)).toBe('pw');
  });

  test('bytes (TOTP secrets): sealed bytes hold the sealed text; raw bytes from before read as they are', () => {
    useSecretsAtRestKeys(A);
    const raw = new Uint8Array(randomBytes(20));
    const sealed = sealBytes('totp-secret', raw);
    expect(Buffer.from(sealed).toString('utf8')).toStartWith('gh-sealed:v1:');
    expect(Buffer.from(sealed).includes(Buffer.from(raw))).toBe(false);
    expect(Buffer.from(openBytes('totp-secret', sealed))).toEqual(Buffer.from(raw));
    expect(Buffer.from(openBytes('totp-secret', raw))).toEqual(Buffer.from(raw));
  });
});

describe('the server secret in production', () => {
  const strong = randomBytes(32).toString('base64');
  test('required and strong in production (≥ 32 bytes from hex or base64, not a repetition); optional elsewhere', () => {
    expect(serverSecretProblem({ isProduction: false, serverSecret: undefined })).toBeNull();
    expect(serverSecretProblem({ isProduction: false, serverSecret: 'dev' })).toBeNull();
    expect(serverSecretProblem({ isProduction: true, serverSecret: undefined })).toStartWith('GATEHOUSE_SERVER_SECRET is required in production');
    for (const weak of ['changeme', 'password1234567890', randomBytes(31).toString('base64'), randomBytes(31).toString('hex'), 'a'.repeat(64), '0123'.repeat(16), 'correct horse battery staple correct horse battery']) {
      expect(serverSecretProblem({ isProduction: true, serverSecret: weak })).toStartWith('GATEHOUSE_SERVER_SECRET is too weak for production');
    }
    for (const ok of [strong, randomBytes(32).toString('base64url'), randomBytes(32).toString('hex'), randomBytes(48).toString('base64')]) {
      expect(serverSecretProblem({ isProduction: true, serverSecret: ok })).toBeNull();
    }
  });

  test('a production start without it, or with a weak one, stops with a message naming the variable', async () => {
    for (const [secret, message] of [
      [undefined, 'Gatehouse cannot start: GATEHOUSE_SERVER_SECRET is required in production (NODE_ENV=production)'],
      ['changeme-changeme', 'Gatehouse cannot start: GATEHOUSE_SERVER_SECRET is too weak for production'],
    ] as const) {
      const started = startService({ env: { NODE_ENV: 'production', GATEHOUSE_SERVER_SECRET: secret } });
      const failure = await started.then(async (svc) => { await svc.stop(); return 'started'; }, (err: Error) => err.message);
      expect(failure).toContain('service exited (1)');
      expect(failure).toContain(message);
      expect(failure).toContain('openssl rand -base64 32');
    }
  });
});

test('a database first run without a configured secret: its sealed values still open once one is configured', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-secret-move-'));
  const scratch = await isolatedDatabase();
  const database = await openTestDatabase({ databaseUrl: scratch.url, dataDir: dir, poolSize: 2 });
  const start = (env: Record<string, string>) => createServices(loadConfig({ GATEHOUSE_DATA_DIR: dir, ...env }), database);
  try {
    // Development: the generated secret (stored in the database) seals the project's SMTP password.
    const dev = await start({ NODE_ENV: 'test' });
    const config = { ...defaultProjectConfig(), email_config: { type: 'standard' as const, host: 'smtp.example.com', port: 587, username: 'u', password: 'moved-smtp-password', sender_name: 'S', sender_email: 's@example.com' } };
    const created = await projects.create(dev.db, { displayName: 'Moved', config });
    for (const stop of dev.onStop) await stop();
    // Production with the operator's secret: the value sealed before still opens, and a write seals it anew.
    const prod = await start({ ...PRODUCTION_ENV });
    try {
      const found = await projects.find(prod.db, created.id);
      expect(found!.config.email_config).toMatchObject({ password: 'moved-smtp-password' });
      const [before] = rowsOf<{ c: any }>(await prod.db.execute(sql`select config as c from projects where id = ${created.id}`));
      await projects.update(prod.db, created.id, { config: found!.config });
      const [after] = rowsOf<{ c: any }>(await prod.db.execute(sql`select config as c from projects where id = ${created.id}`));
      expect(sealedKeyId(after!.c.email_config.password)).not.toBe(sealedKeyId(before!.c.email_config.password));
      expect((await projects.find(prod.db, created.id))!.config.email_config).toMatchObject({ password: 'moved-smtp-password' });
    } finally {
      for (const stop of prod.onStop) await stop();
    }
  } finally {
    await database.close();
    await scratch.drop();
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('in the running service', () => {
  const SMTP_PASSWORD = `smtp-pw-${randomBytes(8).toString('hex')}`;
  const CLIENT_ID = `own-client-${randomBytes(4).toString('hex')}`;
  const CLIENT_SECRET = `own-secret-${randomBytes(12).toString('hex')}`;
  const REDIRECT = 'http://localhost:12345/at-rest-callback';
  let smtp: SmtpFixture;
  let idp: OidcFixture;
  let svc: ServiceWithDatabase;
  let p: TestProject;

  beforeAll(async () => {
    smtp = await startSmtpFixture({ auth: { username: 'mailer', password: SMTP_PASSWORD } });
    idp = await startOidcFixture();
    svc = await startServiceWithDatabase(idp.overridesEnv());
    idp.addClient({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [`${svc.url}/api/v1/auth/oauth/callback/github`], token_endpoint_auth_method: 'client_secret_post' });
    p = await newProject(svc, {
      config: {
        magic_link_enabled: true,
        oauth_providers: [{ id: 'github', type: 'standard', enabled: true, client_id: CLIENT_ID, client_secret: CLIENT_SECRET }],
        email_config: { type: 'standard', host: '127.0.0.1', port: smtp.port, username: 'mailer', password: SMTP_PASSWORD, sender_name: 'At Rest', sender_email: 'at-rest@example.com' },
      },
    });
  }, 120_000);
  afterAll(async () => {
    await svc?.stop();
    await idp?.close();
    await smtp?.stop();
  });

  /** Every row of every table, as text, that contains `needle`. */
  async function rowsContaining(db: DB, needle: string): Promise<string[]> {
    const tables = rowsOf<{ table_name: string }>(await db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`));
    const hits: string[] = [];
    for (const { table_name } of tables) {
      const rows = rowsOf<{ row: string }>(await db.execute(sql.raw(`select t::text as row from "${table_name}" t where strpos(t::text, '${needle.replace(/'/g, "''")}') > 0`)));
      hits.push(...rows.map((r) => `${table_name}: ${r.row.slice(0, 200)}`));
    }
    return hits;
  }

  const projectConfig = (db: DB) => db.execute(sql`select config from projects where id = ${p.id}`).then((r) => rowsOf<{ config: any }>(r)[0]!.config);

  async function mfaUser() {
    const u = await signUp(p);
    const secret = new OTPAuth.Secret({ size: 20 });
    const totp = new OTPAuth.TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 });
    const patched = await p.client.patch('/users/me', { totp_secret_base64: Buffer.from(secret.bytes).toString('base64') }, { accessToken: u.accessToken });
    expect(patched.status).toBe(200);
    return { ...u, totp, raw: Buffer.from(secret.bytes) };
  }

  async function totpSignIn(u: Awaited<ReturnType<typeof mfaUser>>) {
    const first = await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password });
    expectKnownError(first, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400);
    // A code never used before: the user's previous sign-in may have used the current time step.
    const res = await p.client.post('/auth/mfa/sign-in', { type: 'totp', code: first.body.details.attempt_code, totp: u.totp.generate() });
    return res;
  }

  async function oauthSignIn(login: string) {
    const verifier = randomBytes(32).toString('base64url');
    const q = new URLSearchParams({
      client_id: p.id, client_secret: p.keys.publishableClientKey, redirect_uri: REDIRECT, scope: 'legacy', state: 'st',
      grant_type: 'authorization_code', code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256', response_type: 'code',
    });
    const a = await fetch(`${svc.url}/api/v1/auth/oauth/authorize/github?${q}`, { redirect: 'manual' });
    expect(a.status).toBe(307);
    const cookie = (a.headers.get('set-cookie') ?? '').split(';')[0]!;
    const back = await completeProviderLogin(a.headers.get('location')!, { login });
    const cb = await fetch(back, { headers: { cookie }, redirect: 'manual' });
    expect(cb.status).toBe(307);
    const code = new URL(cb.headers.get('location')!).searchParams.get('code');
    expect(code).toBeTruthy();
    // The code is exchanged only if the service could use the project's client secret at the provider's token endpoint.
    return p.client.post('/auth/oauth/token', { grant_type: 'authorization_code', code: code!, redirect_uri: REDIRECT, code_verifier: verifier, client_id: p.id, client_secret: p.keys.publishableClientKey }, { form: true });
  }

  test('the database holds ciphertext only: project config secrets, TOTP secrets, queued mail settings', async () => {
    const u = await mfaUser();
    // A mail through the project's SMTP server (it checks the password) puts the settings in the outbox for a while.
    const email = uniqueEmail('atrest');
    expect((await p.client.post('/auth/otp/send-sign-in-code', { email, callback_url: REDIRECT })).status).toBe(200);
    const mail = await smtp.waitForMail((m) => m.to.includes(email));
    expect(mail.user).toBe('mailer');
    expect(extractCode(mail)).toHaveLength(45);

    await svc.withDatabase(async (db) => {
      const config = await projectConfig(db);
      expect(config.email_config.password).toStartWith('gh-sealed:v1:');
      expect(config.oauth_providers[0].client_secret).toStartWith('gh-sealed:v1:');
      expect(config.oauth_providers[0].client_id).toBe(CLIENT_ID);
      expect(await rowsContaining(db, SMTP_PASSWORD)).toEqual([]);
      expect(await rowsContaining(db, CLIENT_SECRET)).toEqual([]);
      const [row] = rowsOf<{ s: string }>(await db.execute(sql`select encode(totp_secret, 'hex') as s from users where project_id = ${p.id} and id = ${u.userId}`));
      expect(Buffer.from(row!.s, 'hex').toString('utf8')).toStartWith('gh-sealed:v1:');
      expect(row!.s).not.toContain(u.raw.toString('hex'));
    });
  });

  test('TOTP sign-in, OAuth with the project’s own client secret and mail through its SMTP server work', async () => {
    const u = await mfaUser();
    const mfa = await totpSignIn(u);
    expect(mfa.status).toBe(200);
    expect(mfa.body.user_id).toBe(u.userId);

    idp.setAccount('at-rest-alice', { email: uniqueEmail('alice'), emailVerified: true, name: 'Alice' });
    const token = await oauthSignIn('at-rest-alice');
    expect(token.status).toBe(200);
    expect(token.body.access_token).toBeString();

    const email = uniqueEmail('mail');
    expect((await p.client.post('/auth/otp/send-sign-in-code', { email, callback_url: REDIRECT })).status).toBe(200);
    expect((await smtp.waitForMail((m) => m.to.includes(email))).user).toBe('mailer');
  });

  test('admins read the client secret and SMTP password in clear, as the protocol defines (protocol-resources §10)', async () => {
    const res = await p.admin.get('/projects/current');
    expect(res.status).toBe(200);
    expect(res.body.config.oauth_providers[0].client_secret).toBe(CLIENT_SECRET);
    expect(res.body.config.email_config.password).toBe(SMTP_PASSWORD);
    // Clients never see them.
    expect((await p.client.get('/projects/current')).text).not.toContain(CLIENT_SECRET);
  });

  test('rows written in clear before the change still work, and the next config write seals them', async () => {
    const u = await mfaUser();
    await svc.withDatabase(async (db) => {
      const config = await projectConfig(db);
      config.email_config.password = SMTP_PASSWORD;
      config.oauth_providers[0].client_secret = CLIENT_SECRET;
      await db.execute(sql`update projects set config = ${JSON.stringify(config)}::jsonb where id = ${p.id}`);
      await db.execute(sql`update users set totp_secret = ${u.raw} where project_id = ${p.id} and id = ${u.userId}`);
      expect(await rowsContaining(db, CLIENT_SECRET)).toHaveLength(1);
    });
    // The project cache (PostgreSQL: the service kept running) forgets the project within 5 s.
    await Bun.sleep(5_500);
    expect((await totpSignIn(u)).status).toBe(200);
    idp.setAccount('at-rest-bob', { email: uniqueEmail('bob'), emailVerified: true, name: 'Bob' });
    expect((await oauthSignIn('at-rest-bob')).status).toBe(200);
    const email = uniqueEmail('legacy');
    expect((await p.client.post('/auth/otp/send-sign-in-code', { email, callback_url: REDIRECT })).status).toBe(200);
    expect((await smtp.waitForMail((m) => m.to.includes(email))).user).toBe('mailer');

    expect((await p.admin.patch('/projects/current', { config: { sign_up_enabled: true } })).status).toBe(200);
    await svc.withDatabase(async (db) => {
      const config = await projectConfig(db);
      expect(config.email_config.password).toStartWith('gh-sealed:v1:');
      expect(config.oauth_providers[0].client_secret).toStartWith('gh-sealed:v1:');
      expect(await rowsContaining(db, CLIENT_SECRET)).toEqual([]);
    });
  });
});
