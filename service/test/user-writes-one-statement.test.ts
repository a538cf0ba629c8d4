// A plain new user (no OAuth link, no default permission, no personal team) is written in one statement: its row,
// its primary email channel and its `user.created` deliveries (issue 31: six round trips were one sign-up's writes).
// What it returns, and the event it queues (built before the row exists), must be what `users.load` reads afterwards;
// a sign-up's first session is written with it (either way); a refused write leaves nothing behind; concurrent sign-ups with one address make exactly one user. On PostgreSQL
// under DATABASE_URL, else on PGlite.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { defaultProjectConfig } from '@gatehouse/shared/schemas/projects';
import { rowsOf, type Database, type DB } from '../src/db/index';
import * as projects from '../src/repo/projects';
import * as users from '../src/repo/users';
import * as channels from '../src/repo/contact-channels';
import * as webhooks from '../src/repo/webhooks';
import * as sessions from '../src/repo/sessions';
import { isPlainNewUser, plainUserRow, type NewUser } from '../src/repo/user-writes';
import { createUser } from '../src/users/create';
import { Events } from '../src/events';
import { Wakers } from '../src/worker-loop';
import { clientUserView, serverUserView } from '../src/presenters/users';
import { openTestDatabase } from './support/pglite-template';
import { isolatedDatabase } from './support/isolated-database';

let database: Database;
let scratch: Awaited<ReturnType<typeof isolatedDatabase>>;
let project: projects.Project;
let hooked: projects.Project;
let teamed: projects.Project;
let woken = 0;
const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-one-statement-'));

beforeAll(async () => {
  scratch = await isolatedDatabase();
  database = await openTestDatabase({ databaseUrl: scratch.url, dataDir });
  project = await projects.create(database.db, { displayName: 'Plain', config: defaultProjectConfig() });
  hooked = await projects.create(database.db, { displayName: 'Hooked', config: defaultProjectConfig() });
  teamed = await projects.create(database.db, { displayName: 'Teamed', config: { ...defaultProjectConfig(), create_team_on_sign_up: true } });
  await webhooks.insertEndpoint(database.db, { projectId: hooked.id, url: 'https://hooks.example.com/all', description: null, enabled: true, eventTypes: null, secretEncrypted: 'unused' });
  await webhooks.insertEndpoint(database.db, { projectId: hooked.id, url: 'https://hooks.example.com/users', description: null, enabled: true, eventTypes: ['user.created'], secretEncrypted: 'unused' });
  await webhooks.insertEndpoint(database.db, { projectId: hooked.id, url: 'https://hooks.example.com/teams', description: null, enabled: true, eventTypes: ['team.created'], secretEncrypted: 'unused' });
  await webhooks.insertEndpoint(database.db, { projectId: hooked.id, url: 'https://hooks.example.com/off', description: null, enabled: false, eventTypes: null, secretEncrypted: 'unused' });
}, 300_000);

afterAll(async () => {
  await database?.close();
  await scratch?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const wakers = new Wakers();
wakers.add(() => { woken++; });
const services = () => ({ db: database.db, events: new Events(wakers) });
const email = () => `one-${crypto.randomUUID()}@example.com`;

async function count(db: DB, table: 'users' | 'contact_channels' | 'webhook_deliveries', projectId: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} where project_id = ${projectId}`));
  return Number(row!.n);
}

const newUsers: Record<string, () => NewUser> = {
  'password sign-up': () => ({ primaryEmail: email(), primaryEmailAuthEnabled: true, passwordHash: 'argon2-hash-placeholder' }),
  'OTP sign-up (verified email)': () => ({ primaryEmail: email(), primaryEmailVerified: true, primaryEmailAuthEnabled: true, otpAuthEnabled: true }),
  'anonymous sign-up': () => ({ displayName: 'Anonymous user', isAnonymous: true }),
  'a server\'s user with every field': () => ({
    displayName: 'Ada', profileImageUrl: 'https://img.example.com/ada.png', primaryEmail: email(), primaryEmailVerified: true,
    clientMetadata: { z: 1, a: [true, null, 'x'] }, clientReadOnlyMetadata: { plan: 'pro' }, serverMetadata: { note: 'ünïcode' },
    totpSecret: new Uint8Array([1, 2, 3]),
  }),
  'an empty display name and no email': () => ({ displayName: '' }),
};

describe('one statement, the same user as a read', () => {
  for (const [name, make] of Object.entries(newUsers)) {
    test(name, async () => {
      const u = make();
      expect(isPlainNewUser(project, u)).toBe(true);
      const before = woken;
      const { user, channel } = await createUser(services(), { project, user: u });
      const loaded = (await users.load(database.db, project.id, user.id))!;
      // The API's views of what the write returned, of the row built before it, and of a read afterwards.
      expect(serverUserView(user)).toEqual(serverUserView(loaded));
      expect(clientUserView(user)).toEqual(clientUserView(loaded));
      expect(serverUserView(plainUserRow(project, u, { id: user.id, createdAt: new Date(serverUserView(loaded).signed_up_at_millis) })))
        .toEqual(serverUserView(loaded));
      expect(channel).toEqual(u.primaryEmail ? await channels.findPrimaryEmail(database.db, project.id, user.id) : null);
      // No webhook endpoint in this project: nothing queued, no worker woken.
      expect(await count(database.db, 'webhook_deliveries', project.id)).toBe(0);
      await Bun.sleep(30);
      expect(woken).toBe(before);
    });
  }
});

test('the user.created event goes to each enabled endpoint subscribed to it, as a read shows the user', async () => {
  const before = woken;
  const { user } = await createUser(services(), { project: hooked, user: { primaryEmail: email(), primaryEmailAuthEnabled: true, passwordHash: 'h', clientMetadata: { b: 2, a: 1 } } });
  const rows = rowsOf<{ endpoint_id: string; event_type: string; payload: unknown }>(await database.db.execute(sql`
    select endpoint_id, event_type, payload from webhook_deliveries where project_id = ${hooked.id}`));
  const endpoints = new Map((await webhooks.listEndpoints(database.db, hooked.id)).map((e) => [e.id, e.url]));
  expect(rows.map((r) => endpoints.get(r.endpoint_id)).sort()).toEqual(['https://hooks.example.com/all', 'https://hooks.example.com/users']);
  const loaded = (await users.load(database.db, hooked.id, user.id))!;
  for (const r of rows) {
    expect(r.event_type).toBe('user.created');
    const payload = typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload;
    expect(payload).toEqual({ type: 'user.created', data: serverUserView(loaded) });
  }
  await Bun.sleep(30);
  expect(woken).toBeGreaterThan(before);
});

test('an address someone signs in with: refused as USER_EMAIL_ALREADY_EXISTS, and nothing is written', async () => {
  const address = email();
  await createUser(services(), { project: hooked, user: { primaryEmail: address, primaryEmailAuthEnabled: true, passwordHash: 'h' } });
  const counts = async () => Promise.all((['users', 'contact_channels', 'webhook_deliveries'] as const).map((t) => count(database.db, t, hooked.id)));
  const before = await counts();
  // The caller says it checked (the sign-up's rate-limit statement does): the unique index decides.
  const refused = await createUser(services(), { project: hooked, user: { primaryEmail: address, primaryEmailAuthEnabled: true, passwordHash: 'h' }, emailCheckedFree: true })
    .then(() => null, (err: unknown) => err);
  expect(refused).toBeInstanceOf(KnownErrors.UserEmailAlreadyExists);
  expect(await counts()).toEqual(before);
});

test('ten sign-ups with one address at once: one user, nine refusals', async () => {
  const address = email();
  const results = await Promise.allSettled(Array.from({ length: 10 }, () =>
    createUser(services(), { project, user: { primaryEmail: address, primaryEmailAuthEnabled: true, passwordHash: 'h' }, emailCheckedFree: true })));
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(KnownErrors.UserEmailAlreadyExists);
  const [row] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from users where project_id = ${project.id} and primary_email = ${address}`));
  expect(Number(row!.n)).toBe(1);
});

test('inside a transaction it writes its user row once (the channel\'s summary trigger finds it current)', async () => {
  await database.db.transaction(async (tx) => {
    const { user } = await createUser({ db: tx, events: new Events(wakers) }, { project, user: { primaryEmail: email(), primaryEmailAuthEnabled: true, passwordHash: 'h' } });
    const [row] = rowsOf<{ n: number }>(await tx.execute(sql`select n_tup_upd as n from pg_stat_xact_user_tables where relname = 'users'`));
    expect(Number(row?.n ?? 0)).toBe(0);
    expect((await users.load(tx, project.id, user.id))?.primary_email_auth_enabled).toBe(true);
  });
});

test('a user with an OAuth link, default permissions or a personal team is not plain (the transaction path writes those)', () => {
  expect(isPlainNewUser(project, { oauthAccounts: [{ providerId: 'github', accountId: '1' }] })).toBe(false);
  const config = defaultProjectConfig();
  expect(isPlainNewUser({ ...project, config: { ...config, create_team_on_sign_up: true } }, {})).toBe(false);
  expect(isPlainNewUser({ ...project, config: { ...config, user_default_permissions: [{ id: 'member' }] } }, {})).toBe(false);
});

describe('a sign-up\'s first session, written with the user', () => {
  const signUp = (p: projects.Project, address: string, o: { sessionFor?: string } = {}) => {
    const id = crypto.randomUUID();
    const session = sessions.newSession({ projectId: p.id, userId: o.sessionFor ?? id, expiresInMs: 60_000, used: { ipInfo: null } });
    return { session, created: createUser(services(), { project: p, id, session, emailCheckedFree: true, user: { primaryEmail: address, primaryEmailAuthEnabled: true, passwordHash: 'h' } }) };
  };

  for (const [name, p] of [['a plain new user: in its one statement', () => project], ['with a personal team: in its transaction', () => teamed]] as const) {
    test(name, async () => {
      const { session, created } = signUp(p(), email());
      const { user, session: written } = await created;
      expect(written?.sessionId).toBeString();
      expect(written?.usedAt).toBeInstanceOf(Date);
      expect(await sessions.findByRefreshToken(database.db, p().id, session.refreshToken)).toMatchObject({ id: written!.sessionId, userId: user.id });
      if (p() === teamed) expect(user.selected_team).not.toBeNull();
    });
  }

  test('refused (the address is taken): no user, no session', async () => {
    const address = email();
    await signUp(project, address).created;
    for (const p of [project, teamed]) {
      if (p === teamed) await signUp(teamed, address).created;
      const usersBefore = await count(database.db, 'users', p.id);
      const { session, created } = signUp(p, address);
      expect(await created.then(() => null, (err: unknown) => err)).toBeInstanceOf(KnownErrors.UserEmailAlreadyExists);
      expect(await sessions.findByRefreshToken(database.db, p.id, session.refreshToken)).toBeNull();
      expect(await count(database.db, 'users', p.id)).toBe(usersBefore);
    }
  });

  test('a session made for another user is refused before anything is written', async () => {
    for (const p of [project, teamed]) {
      const usersBefore = await count(database.db, 'users', p.id);
      const { session, created } = signUp(p, email(), { sessionFor: crypto.randomUUID() });
      expect((await created.then(() => null, (err: Error) => err))?.message).toContain('another user');
      expect(await sessions.findByRefreshToken(database.db, p.id, session.refreshToken)).toBeNull();
      expect(await count(database.db, 'users', p.id)).toBe(usersBefore);
    }
  });
});
