// What only the database shows or can set: API keys are stored as hashes only (protocol-resources §11, CONTRIBUTING
// "secrets at rest"), and an invitation past its expiry answers VERIFICATION_CODE_EXPIRED on every code endpoint
// (§5.2; invitations live 7 days, so the test moves the expiry in the database instead of waiting).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { schema, rowsOf, type DB } from '../src/db/index';
import { DEV_KEYS, expectKnownError, uniqueEmail, type ApiResponse, type RunningService } from './support/service';
import { newProject, signUp } from './support/projects';
import { serverCreateTeam } from './support/teams';
import { extractCode, startSmtpFixture, type SmtpFixture } from './support/smtp';
import { startServiceWithDatabase, type ServiceWithDatabase } from './support/service-database';

setDefaultTimeout(60_000);

let smtp: SmtpFixture;
let svc: ServiceWithDatabase;
beforeAll(async () => {
  smtp = await startSmtpFixture();
  svc = await startServiceWithDatabase({ SMTP_URL: smtp.url });
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await smtp?.stop();
}, 30_000);

/** The service as the project helpers want it (they only use the URL). */
const running = (): RunningService => ({ url: svc.url, output: () => svc.output(), stop: async () => {} });
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Every row of every table outside the system schemas, as JSON text. */
async function dumpAllRows(db: DB): Promise<{ table: string; row: string }[]> {
  const tables = rowsOf<{ table_schema: string; table_name: string }>(await db.execute(sql`
    select table_schema, table_name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`));
  const out: { table: string; row: string }[] = [];
  for (const t of tables) {
    const name = `"${t.table_schema}"."${t.table_name}"`;
    const rows = rowsOf<{ j: string }>(await db.execute(sql.raw(`select row_to_json(x)::text as j from ${name} x`)));
    for (const r of rows) out.push({ table: name, row: r.j });
  }
  return out;
}

describe('API keys at rest', () => {
  test('key sets and user/team API keys are stored as sha256 hashes plus last four characters, never in full', async () => {
    const p = await newProject(running(), { config: { allow_user_api_keys: true, allow_team_api_keys: true } });
    const onlyServer = await p.admin.post('/internal/api-keys', {
      description: 'server only', expires_at_millis: Date.now() + 3600_000,
      has_publishable_client_key: false, has_secret_server_key: true, has_super_secret_admin_key: false,
    });
    expect(onlyServer.status).toBe(200);
    const u = await signUp(p);
    const userKey = await p.client.post('/user-api-keys', { description: 'u', expires_at_millis: null, user_id: 'me' }, { accessToken: u.accessToken });
    const publicUserKey = await p.server.post('/user-api-keys', { description: 'pub', expires_at_millis: null, user_id: u.userId, is_public: true });
    const team = await serverCreateTeam(p, { creator_user_id: u.userId });
    const teamKey = await p.server.post('/team-api-keys', { description: 't', expires_at_millis: null, team_id: team.id });
    for (const r of [userKey, publicUserKey, teamKey]) expect(r.status).toBe(200); // 200 as the reference answers (not 201)

    const projectKeys = [p.keys.publishableClientKey, p.keys.secretServerKey, p.keys.superSecretAdminKey];
    const secrets = [
      ...projectKeys, onlyServer.body.secret_server_key as string,
      userKey.body.value as string, publicUserKey.body.value as string, teamKey.body.value as string,
      DEV_KEYS.publishableClientKey, DEV_KEYS.secretServerKey, DEV_KEYS.superSecretAdminKey,
    ];
    expect(new Set(secrets).size).toBe(secrets.length);
    expect(secrets.every((s) => typeof s === 'string' && s.length >= 40)).toBe(true);

    const { dump, sets, userTeamKeys } = await svc.withDatabase(async (db) => ({
      dump: await dumpAllRows(db),
      sets: await db.select().from(schema.apiKeySets).where(eq(schema.apiKeySets.projectId, p.id)),
      userTeamKeys: await db.select().from(schema.userTeamApiKeys).where(eq(schema.userTeamApiKeys.projectId, p.id)),
    }));

    // The dump is of this service's database: it holds the project, its key sets and its user/team keys.
    expect(dump.some((d) => d.row.includes(p.id))).toBe(true);
    expect(dump.some((d) => d.row.includes(onlyServer.body.id))).toBe(true);
    for (const secret of secrets) {
      // Neither the key, nor its random part without the prefix, nor either of them hex-encoded (a bytea column).
      const random = secret.slice(secret.lastIndexOf('_') + 1);
      const forms = [secret, random, Buffer.from(secret).toString('hex'), Buffer.from(random).toString('hex')];
      const leaks = dump.filter((d) => forms.some((f) => d.row.includes(f)));
      expect({ secret, leaks }).toEqual({ secret, leaks: [] });
    }

    // What is stored: the sha256 of each key and its last four characters.
    const byId = new Map(sets.map((s) => [s.id, s]));
    const first = sets.find((s) => s.secretServerKeyHash === sha256(p.keys.secretServerKey))!;
    expect(first).toBeDefined();
    expect({
      pck: [first.publishableClientKeyHash, first.publishableClientKeyLastFour],
      ssk: [first.secretServerKeyHash, first.secretServerKeyLastFour],
      sak: [first.superSecretAdminKeyHash, first.superSecretAdminKeyLastFour],
    }).toEqual({
      pck: [sha256(p.keys.publishableClientKey), p.keys.publishableClientKey.slice(-4)],
      ssk: [sha256(p.keys.secretServerKey), p.keys.secretServerKey.slice(-4)],
      sak: [sha256(p.keys.superSecretAdminKey), p.keys.superSecretAdminKey.slice(-4)],
    });
    const second = byId.get(onlyServer.body.id)!;
    expect([second.publishableClientKeyHash, second.secretServerKeyHash, second.superSecretAdminKeyHash])
      .toEqual([null, sha256(onlyServer.body.secret_server_key), null]);
    for (const k of [userKey.body, publicUserKey.body, teamKey.body]) {
      const row = userTeamKeys.find((r) => r.id === k.id)!;
      expect({ hash: row.secretHash, lastFour: row.lastFour }).toEqual({ hash: sha256(k.value), lastFour: k.value.slice(-4) });
    }

    // The service still recognises every key after the database was read (a restart on PGlite).
    expect((await p.server.get('/users')).status).toBe(200);
    expect((await p.server.post('/user-api-keys/check', { api_key: userKey.body.value })).body.id).toBe(userKey.body.id);
    expect((await p.server.post('/team-api-keys/check', { api_key: teamKey.body.value })).body.id).toBe(teamKey.body.id);
  });
});

describe('expired invitations', () => {
  const CALLBACK = 'http://localhost:3000/handler/team-invitation';

  test('check-code, details and accept answer VERIFICATION_CODE_EXPIRED; the list leaves it out', async () => {
    const p = await newProject(running());
    const team = await serverCreateTeam(p, { display_name: 'Expiring' });
    const invite = async () => {
      const email = uniqueEmail('invitee');
      const res = await p.server.post('/team-invitations/send-code', { team_id: team.id, email, callback_url: CALLBACK });
      expect(res.status).toBe(200);
      return { id: res.body.id as string, code: extractCode(await smtp.waitForMail((m) => m.to.includes(email)))! };
    };
    const pending = await invite();
    const used = await invite();
    const fresh = await invite();
    const u = await signUp(p);
    const joiner = await signUp(p);
    expect((await p.client.post('/team-invitations/accept', { code: used.code }, { accessToken: joiner.accessToken })).status).toBe(200);
    expect((await p.client.post('/team-invitations/accept/check-code', { code: pending.code })).body).toEqual({ is_code_valid: true });

    // Past the expiry (of two of them), as 7 days later.
    const moved = await svc.withDatabase((db) => db.update(schema.verificationCodes)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(and(eq(schema.verificationCodes.projectId, p.id), inArray(schema.verificationCodes.id, [pending.id, used.id])))
      .returning({ id: schema.verificationCodes.id }));
    expect(moved.map((r) => r.id).sort()).toEqual([pending.id, used.id].sort());

    const expectExpired = (res: ApiResponse) => {
      expectKnownError(res, 'VERIFICATION_CODE_EXPIRED', 400);
      expect(res.body.error).toBe('The verification code has expired.');
    };
    expectExpired(await p.client.post('/team-invitations/accept/check-code', { code: pending.code }));
    expectExpired(await p.client.post('/team-invitations/accept/details', { code: pending.code }, { accessToken: u.accessToken }));
    expectExpired(await p.client.post('/team-invitations/accept', { code: pending.code }, { accessToken: u.accessToken }));
    expectExpired(await p.server.post('/team-invitations/accept', { code: pending.code }, { accessToken: u.accessToken }));
    // Expiry is reported before use (protocol-auth §4: NOT_FOUND, EXPIRED, ALREADY_USED).
    expectExpired(await p.client.post('/team-invitations/accept/check-code', { code: used.code }));
    // The user did not join; the list shows only the invitation still pending.
    expect((await p.server.get(`/users?team_id=${team.id}`)).body.items.map((x: { id: string }) => x.id)).toEqual([joiner.userId]);
    expect((await p.server.get(`/team-invitations?team_id=${team.id}`)).body.items.map((i: { id: string }) => i.id)).toEqual([fresh.id]);
    // The unexpired one still works.
    expect((await p.client.post('/team-invitations/accept', { code: fresh.code }, { accessToken: u.accessToken })).status).toBe(200);
  });
});
