// Signing keys are records (issue 29): next, current, previous, retired. Over HTTP against real services: tokens
// issued before a rotation keep working after it (two rotations), the JWKS publishes next, current and previous and an
// outside verifier checks a token with it, concurrent rotations leave one current and one next key, only the internal
// project's admins list and rotate, `keys rotate` on an embedded database, and a database from before key records
// keeps its tokens valid across the upgrade, a rotation and a server-secret rotation. In-process: concurrent rotations
// resolve once, retired keys are refused with the error of a bad signature, no key material in clear in the table.
// The embedded database always: rotations change the whole service's keys, which on CI's shared PostgreSQL would be
// every other test's (the file is left out of that run; signing-keys-instances.test.ts runs on PostgreSQL).
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { SignJWT, decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { sql } from 'drizzle-orm';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { ACCESS_TOKEN_ISSUER } from '@gatehouse/shared/constants';
import { loadConfig } from '../src/config';
import { migrationsFolder, rowsOf, openDatabase } from '../src/db';
import { openSecret } from '../src/db/secrets-at-rest';
import { createServices, type Services } from '../src/services';
import { bootstrapInternalProject } from '../src/bootstrap';
import { deriveFromSecret } from '../src/tokens/keys';
import { maintainSigningKeys, rotateSigningKeys } from '../src/tokens/signing-key-rotation';
import * as records from '../src/repo/signing-keys';
import { Api, DEV_KEYS, adminApi, expectKnownError, startService, type StartedService } from './support/service';
import { newProject, signUp } from './support/projects';
import { openTestDatabase, seedDataDir } from './support/pglite-template';

setDefaultTimeout(180_000);
const SERVICE_ENTRY = join(import.meta.dir, '../src/main.ts');
const EMBEDDED = { DATABASE_URL: '' };
const kidOf = (token: string) => decodeProtectedHeader(token).kid as string;
const recordOf = (kid: string) => kid.split('.')[0]!;
const operator = (svc: { url: string }) => adminApi(svc.url, DEV_KEYS.projectId, DEV_KEYS.superSecretAdminKey);
const jwksOf = async (svc: { url: string }, projectId: string) => (await fetch(`${svc.url}/api/v1/projects/${projectId}/.well-known/jwks.json`).then((r) => r.json())) as { keys: { kid: string }[] };
const me = (svc: { url: string }, headers: Record<string, string | undefined>, token: string) => new Api(svc.url, headers).get('/users/me', { accessToken: token });
type Listed = { id: string; state: string; algorithm: string; activated_at_millis: number | null; deactivated_at_millis: number | null };
const byState = (items: Listed[], state: string) => items.filter((k) => k.state === state);

describe('signing key rotation over HTTP', () => {
  let svc: StartedService;
  beforeAll(async () => { svc = await startService({ env: EMBEDDED }); });
  afterAll(() => svc?.stop());

  test('tokens issued before two rotations keep working; the JWKS publishes next, current and previous; an outside verifier checks with it', async () => {
    const p = await newProject(svc);
    const user = await signUp(p);
    const before = (await operator(svc).get('/internal/signing-keys')).body.items as Listed[];
    expect(byState(before, 'current')).toHaveLength(1);
    expect(byState(before, 'next')).toHaveLength(1);
    const [current0] = byState(before, 'current');
    const [next0] = byState(before, 'next');
    expect(current0!.algorithm).toBe('ES256');
    expect(recordOf(kidOf(user.accessToken))).toBe(current0!.id);
    // Published before it signs: the next key is in the JWKS already.
    expect((await jwksOf(svc, p.id)).keys.map((k) => recordOf(k.kid))).toEqual([current0!.id, next0!.id]);

    const first = await operator(svc).post('/internal/signing-keys/rotate');
    expect(first.status).toBe(200);
    const after1 = first.body.items as Listed[];
    expect(byState(after1, 'current').map((k) => k.id)).toEqual([next0!.id]);
    expect(after1.find((k) => k.id === current0!.id)!.state).toBe('previous');
    const [next1] = byState(after1, 'next');
    expect(next1!.id).not.toBe(next0!.id);

    expect((await me(svc, p.client.headers, user.accessToken)).status).toBe(200);
    const refreshed = await p.client.post('/auth/sessions/current/refresh', {}, { refreshToken: user.refreshToken });
    expect(refreshed.status).toBe(200);
    const token1 = refreshed.body.access_token as string;
    expect(recordOf(kidOf(token1))).toBe(next0!.id);
    const jwks1 = await jwksOf(svc, p.id);
    expect(jwks1.keys.map((k) => recordOf(k.kid))).toEqual([next0!.id, next1!.id, current0!.id]);
    // What a resource server does: pick the JWKS key by the token's kid and verify.
    const jwk = jwks1.keys.find((k) => k.kid === kidOf(token1))!;
    const verified = await jwtVerify(token1, await importJWK(jwk as never, 'ES256'), { issuer: ACCESS_TOKEN_ISSUER, audience: p.id });
    expect(verified.payload.sub).toBe(user.userId);

    expect((await operator(svc).post('/internal/signing-keys/rotate')).status).toBe(200);
    expect((await me(svc, p.client.headers, user.accessToken)).status).toBe(200);
    expect((await me(svc, p.client.headers, token1)).status).toBe(200);
    const after2 = (await operator(svc).get('/internal/signing-keys')).body.items as Listed[];
    expect(byState(after2, 'current').map((k) => k.id)).toEqual([next1!.id]);
    expect(byState(after2, 'previous').map((k) => k.id).sort()).toEqual([current0!.id, next0!.id].sort());
    expect((await jwksOf(svc, p.id)).keys).toHaveLength(4);
    // Each project has keys of its own from the same records.
    const other = await newProject(svc);
    const otherKids = (await jwksOf(svc, other.id)).keys.map((k) => k.kid);
    expect(otherKids.map(recordOf)).toEqual((await jwksOf(svc, p.id)).keys.map((k) => recordOf(k.kid)));
    expect(otherKids.filter((k) => jwks1.keys.some((j) => j.kid === k))).toEqual([]);
  });

  test('concurrent rotations leave exactly one current and one next key, and every token valid', async () => {
    const p = await newProject(svc);
    const user = await signUp(p);
    const before = (await operator(svc).get('/internal/signing-keys')).body.items as Listed[];
    const answers = await Promise.all(Array.from({ length: 6 }, () => operator(svc).post('/internal/signing-keys/rotate')));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    const after = (await operator(svc).get('/internal/signing-keys')).body.items as Listed[];
    expect(byState(after, 'current')).toHaveLength(1);
    expect(byState(after, 'next')).toHaveLength(1);
    const rotations = byState(after, 'previous').length - byState(before, 'previous').length;
    expect(rotations).toBeGreaterThanOrEqual(1);
    expect(rotations).toBeLessThanOrEqual(6);
    // Every record made is accounted for: each rotation made one next.
    expect(after.length - before.length).toBe(rotations);
    expect((await me(svc, p.client.headers, user.accessToken)).status).toBe(200);
    const refreshed = await p.client.post('/auth/sessions/current/refresh', {}, { refreshToken: user.refreshToken });
    expect(recordOf(kidOf(refreshed.body.access_token))).toBe(byState(after, 'current')[0]!.id);
  });

  test("another project's admins, and the internal project's clients, are refused", async () => {
    const p = await newProject(svc);
    expectKnownError(await p.admin.get('/internal/signing-keys'), 'EXPECTED_INTERNAL_PROJECT', 401);
    expectKnownError(await p.admin.post('/internal/signing-keys/rotate'), 'EXPECTED_INTERNAL_PROJECT', 401);
    expectKnownError(await p.ownerAdmin.post('/internal/signing-keys/rotate'), 'EXPECTED_INTERNAL_PROJECT', 401);
    const client = new Api(svc.url, { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': DEV_KEYS.publishableClientKey });
    const refused = await client.post('/internal/signing-keys/rotate');
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('INSUFFICIENT_ACCESS_TYPE');
  });
});

async function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  const proc = Bun.spawn([process.execPath, SERVICE_ENTRY, ...args], { env: { ...process.env, NODE_ENV: 'test', GATEHOUSE_DEV_OIDC: 'false', ...env }, stdout: 'pipe', stderr: 'pipe' });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code: await proc.exited, output: out + err };
}

describe('keys rotate (the command)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-keys-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('rotates on the embedded database, prints the new current key and exits; the service then signs with it', async () => {
    await seedDataDir(dir);
    const env = { ...EMBEDDED, GATEHOUSE_DATA_DIR: dir };
    const first = await runCli(['keys', 'rotate'], env);
    expect(first.code).toBe(0);
    const printed = /Current key: ([0-9a-f]{12})/.exec(first.output)?.[1];
    expect(printed).toBeDefined();
    const second = await runCli(['keys', 'rotate'], env);
    expect(second.code).toBe(0);
    const printedAgain = /Current key: ([0-9a-f]{12})/.exec(second.output)?.[1];
    expect(second.output).toContain(`${printed} is previous`);

    const svc = await startService({ env });
    try {
      const items = (await operator(svc).get('/internal/signing-keys')).body.items as Listed[];
      expect(byState(items, 'current').map((k) => k.id)).toEqual([printedAgain!]);
      expect(byState(items, 'previous')).toHaveLength(2);
      const p = await newProject(svc);
      expect(recordOf(kidOf((await signUp(p)).accessToken))).toBe(printedAgain!);
    } finally { await svc.stop(); }

    const unknown = await runCli(['keys', 'spin'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.output).toContain('Unknown command "keys spin": expected one of serve, keys rotate');
  });
});

describe('a database from before key records', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-keys-upgrade-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const OLD = 'upgrade-server-secret-0123456789abcdef0123456789';
  const NEW = 'upgrade-server-secret-fedcba9876543210fedcba9876';

  test('keeps its tokens valid across the upgrade, a rotation and a rotation of the server secret', async () => {
    await seedDataDir(dir);
    const env = { ...EMBEDDED, GATEHOUSE_DATA_DIR: dir, GATEHOUSE_SERVER_SECRET: OLD };
    // A project with a signed-in user, as a database of the previous version holds them.
    let svc = await startService({ env });
    let p: Awaited<ReturnType<typeof newProject>>;
    let user: Awaited<ReturnType<typeof signUp>>;
    try { p = await newProject(svc); user = await signUp(p); } finally { await svc.stop(); }

    // Back to before the key records: their migrations undone, and the user's access token as the previous version
    // signed it (the same claims, the key derived from the server secret).
    const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
    const since = journal.entries.find((e) => e.tag === '0024_signing_keys')!.when;
    const database = await openDatabase({ dataDir: dir });
    await database.db.execute(sql`drop table signing_keys`);
    // What the migrations after those made, since they run again with them. A new migration must add its undo here
    // (the journal check says so when one is added).
    expect(journal.entries.at(-1)!.tag).toBe('0035_user_summary_skips_unchanged');
    // 0026: the change notices' triggers (users, teams, sessions).
    for (const [trigger, table] of [['users_change_notices_update', 'users'], ['users_change_notices_delete', 'users'], ['teams_change_notices_update', 'teams'],
      ['teams_change_notices_delete', 'teams'], ['sessions_change_notices_delete', 'sessions'], ['sessions_change_notices_update', 'sessions']] as const) {
      await database.db.execute(sql.raw(`drop trigger ${trigger} on ${table}`));
    }
    // 0027: the projects' OpenID providers (0030's indexes of their consents and 0032's client lifetimes go with the tables).
    await database.db.execute(sql`drop table oauth_provider_consents, oauth_provider_records, oauth_provider_keys, oauth_provider_clients`);
    // 0028: teams as organizations (domains, SCIM, SSO) and the SSO codes' MFA mark.
    await database.db.execute(sql`drop table scim_permission_grants, scim_group_members, scim_groups, scim_users, scim_tokens, sso_assertion_ids, sso_identities, sso_connections, team_domains`);
    await database.db.execute(sql`alter table authorization_codes drop column mfa_satisfied`);
    // 0029: the OpenID providers' settings (dynamic client registration, protected resources); 0033's scopes and
    // claims columns go with the table.
    await database.db.execute(sql`drop table oauth_provider_settings`);
    // 0034: the audit log's index of a team's entries.
    await database.db.execute(sql`drop index audit_log_team_idx`);
    // 0035 replaces the user summary's two functions, which it can do again as it is: nothing to undo.
    // 0031: the new users' counters at commit (the trigger of 0016 is made again as it was).
    await database.db.execute(sql`drop trigger users_metrics_insert on users`);
    await database.db.execute(sql`create trigger users_metrics_insert after insert on users for each row execute function gatehouse_users_metrics_trigger()`);
    await database.db.execute(sql`delete from drizzle.__drizzle_migrations where created_at >= ${since}`);
    await database.close();
    const legacyKey = await deriveFromSecret(OLD, p.id);
    const claims = decodeJwt(user.accessToken);
    const oldToken = await new SignJWT({ branchId: claims.branchId, refreshTokenId: claims.refreshTokenId })
      .setProtectedHeader({ alg: 'ES256', kid: legacyKey.kid }).setSubject(claims.sub!).setAudience(p.id)
      .setIssuer(ACCESS_TOKEN_ISSUER).setIssuedAt(claims.iat!).setExpirationTime(claims.exp!).sign(legacyKey.privateKey);

    // The upgrade: the key derived from the secret is the current record; nothing changes for anyone.
    svc = await startService({ env });
    let newToken: string;
    try {
      expect((await me(svc, p.client.headers, oldToken)).status).toBe(200);
      const items = (await operator(svc).get('/internal/signing-keys')).body.items as Listed[];
      expect(byState(items, 'current').map((k) => k.id)).toEqual(['legacy']);
      expect(byState(items, 'next')).toHaveLength(1);
      expect((await jwksOf(svc, p.id)).keys[0]!.kid).toBe(legacyKey.kid);
      const refreshed = await new Api(svc.url, p.client.headers).post('/auth/sessions/current/refresh', {}, { refreshToken: user.refreshToken });
      expect(kidOf(refreshed.body.access_token)).toBe(legacyKey.kid);
      // The first rotation moves off it; its tokens still verify until they expire.
      expect((await operator(svc).post('/internal/signing-keys/rotate')).status).toBe(200);
      expect((await me(svc, p.client.headers, oldToken)).status).toBe(200);
      newToken = (await new Api(svc.url, p.client.headers).post('/auth/sessions/current/refresh', {}, { refreshToken: user.refreshToken })).body.access_token;
      expect(recordOf(kidOf(newToken))).toBe(byState(items, 'next')[0]!.id);
      expect((await jwksOf(svc, p.id)).keys.map((k) => k.kid)).toContain(legacyKey.kid);
    } finally { await svc.stop(); }

    // The server secret rotates too: the old secret's derived key still verifies (as previous), the sealed records open.
    svc = await startService({ env: { ...env, GATEHOUSE_SERVER_SECRET: NEW, GATEHOUSE_SERVER_SECRET_PREVIOUS: OLD } });
    try {
      expect((await me(svc, p.client.headers, oldToken)).status).toBe(200);
      expect((await me(svc, p.client.headers, newToken)).status).toBe(200);
    } finally { await svc.stop(); }
  });
});

describe('signing keys in-process', () => {
  let dir = '';
  let services: Services;
  let close: () => Promise<void>;
  const SECRET = 'in-process-server-secret-0123456789abcdef012345';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-keys-'));
    const config = loadConfig({ GATEHOUSE_DATA_DIR: dir, GATEHOUSE_DEV_OIDC: 'false', NODE_ENV: 'test', GATEHOUSE_SERVER_SECRET: SECRET });
    const database = await openTestDatabase({ dataDir: config.dataDir });
    services = await createServices(config, database);
    await bootstrapInternalProject(services);
    close = async () => { for (const stop of services.onStop) await stop(); await database.close(); };
  });
  afterAll(async () => { await close?.(); rmSync(dir, { recursive: true, force: true }); });

  test('rotations from the same current key resolve once', async () => {
    const current = services.keys.currentId()!;
    const results = await Promise.all(Array.from({ length: 5 }, () => records.rotate(services.db, current)));
    expect(results.filter(Boolean)).toHaveLength(1);
    await services.keys.reload();
    const both = await Promise.all([rotateSigningKeys(services), rotateSigningKeys(services)]);
    expect(both.filter((r) => r.rotated)).toHaveLength(1);
    expect(both[0]!.currentId).toBe(both[1]!.currentId);
    const live = await records.listLive(services.db);
    expect(live.filter((r) => r.state === 'current')).toHaveLength(1);
    expect(live.filter((r) => r.state === 'next')).toHaveLength(1);
  });

  test('a retired key is refused with the error of a bad signature, and leaves the JWKS', async () => {
    const token = await services.tokens.mint('internal', crypto.randomUUID(), crypto.randomUUID());
    await rotateSigningKeys(services);
    expect((await services.tokens.verify(token)).aud).toBe('internal');
    // Not yet: its tokens may still be valid.
    expect((await maintainSigningKeys(services)).retired).toEqual([]);
    const later = new Date(Date.now() + services.config.accessTokenLifetimeSeconds * 1000 + 61_000);
    expect((await maintainSigningKeys(services, later)).retired).toContain(recordOf(kidOf(token)));
    const [head, body, signature] = token.split('.');
    const forged = `${head}.${body}.${signature!.slice(0, -4)}${signature!.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    const errorOf = (t: string) => services.tokens.verify(t).then(() => null, (e: unknown) => e);
    // Refused although it verified before (and is not expired): what a verifier remembers goes with the key.
    expect(await errorOf(token)).toBeInstanceOf(KnownErrors.UnparsableAccessToken);
    expect(await errorOf(token)).toEqual(await errorOf(forged));
    expect(await errorOf(forged)).toBeInstanceOf(KnownErrors.UnparsableAccessToken);
    expect((await services.keys.verificationKeys('internal')).map((k) => recordOf(k.kid))).not.toContain(recordOf(kidOf(token)));
    const [row] = rowsOf<{ state: string; seed_sealed: string | null }>(await services.db.execute(sql`select state, seed_sealed from signing_keys where id = ${recordOf(kidOf(token))}`));
    expect(row).toEqual({ state: 'retired', seed_sealed: null });
  });

  test('the automatic rotation: once the current key has signed for GATEHOUSE_SIGNING_KEY_ROTATION_DAYS (default 90; 0 off)', async () => {
    expect(services.config.signingKeyRotationDays).toBe(90);
    expect(loadConfig({ GATEHOUSE_SIGNING_KEY_ROTATION_DAYS: '0' }).signingKeyRotationDays).toBe(0);
    expect(() => loadConfig({ GATEHOUSE_SIGNING_KEY_ROTATION_DAYS: 'weekly' })).toThrow('GATEHOUSE_SIGNING_KEY_ROTATION_DAYS: expected a whole number from 0 to 3650, got "weekly"');
    const current = services.keys.liveRecords().find((r) => r.state === 'current')!;
    const day = 86_400_000;
    expect((await maintainSigningKeys(services, new Date(current.activatedAt!.getTime() + 89 * day))).rotated).toBe(false);
    expect(services.keys.currentId()).toBe(current.id);
    const off = { ...services, config: { ...services.config, signingKeyRotationDays: 0 } };
    expect((await maintainSigningKeys(off, new Date(current.activatedAt!.getTime() + 900 * day))).rotated).toBe(false);
    expect((await maintainSigningKeys(services, new Date(current.activatedAt!.getTime() + 90 * day))).rotated).toBe(true);
    expect(services.keys.currentId()).not.toBe(current.id);
    expect(services.keys.liveRecords().find((r) => r.id === current.id)?.state).toBe('previous');
  });

  test('no key material in clear in the table: seeds are sealed, no private key appears', async () => {
    const rows = rowsOf<Record<string, unknown>>(await services.db.execute(sql`select * from signing_keys`));
    const dump = JSON.stringify(rows);
    const live = rows.filter((r) => r.state !== 'retired');
    expect(live.length).toBeGreaterThanOrEqual(2);
    for (const r of live) {
      const sealed = r.seed_sealed as string;
      expect(sealed.startsWith('gh-sealed:v1:')).toBe(true);
      const seed = openSecret('signing-key-seed', sealed);
      expect(Buffer.from(seed, 'base64url')).toHaveLength(32);
      for (const form of [seed, Buffer.from(seed, 'base64url').toString('hex'), Buffer.from(seed, 'base64url').toString('base64')]) expect(dump).not.toContain(form);
    }
    // Nowhere else to keep key material: every other column is an id, a state, a name or a time.
    expect(Object.keys(rows[0]!).sort()).toEqual(['activated_at', 'algorithm', 'created_at', 'deactivated_at', 'derivation', 'id', 'retired_at', 'seed_sealed', 'state']);
    for (const r of rows) expect(String(r.id)).toMatch(/^[0-9a-f]{12}$/);
  });
});
