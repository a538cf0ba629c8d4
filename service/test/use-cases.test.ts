// Use cases tested in-process, with a database and no HTTP (docs/architecture.md): the service's Services over a
// copy of the migrated PGlite template (under DATABASE_URL, a PostgreSQL database of its own), and the use cases called with plain values as a route (or a new entry point,
// such as an OAuth provider or SSO) would call them. What they return, what they throw, and what they leave in the
// database: rows, webhook deliveries, rate-limit counters, statements.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { defaultProjectConfig } from '@gatehouse/shared/schemas/projects';
import { loadConfig } from '../src/config';
import { rowsOf, type Database } from '../src/db';
import { sealBytes } from '../src/db/secrets-at-rest';
import { hashSecret } from '../src/db/secret-hash';
import { createServices, type Services } from '../src/services';
import * as projects from '../src/repo/projects';
import * as sessions from '../src/repo/sessions';
import * as users from '../src/repo/users';
import * as webhooks from '../src/repo/webhooks';
import type { Caller } from '../src/auth/caller';
import { signInWithPassword } from '../src/auth/password-sign-in';
import { createUser } from '../src/users/create';
import { createTeam, deleteTeam } from '../src/teams/team-changes';
import { addTeamMember, removeTeamMember } from '../src/teams/membership';
import { openTestDatabase } from './support/pglite-template';
import { isolatedDatabase } from './support/isolated-database';

setDefaultTimeout(120_000);
let dir = '';
let database: Database;
let scratch: Awaited<ReturnType<typeof isolatedDatabase>>;
let services: Services;
let project: projects.Project;
let statements: string[] | null = null;
const origin = { ip: '203.0.113.7', headers: new Headers({ 'user-agent': 'Mozilla/5.0 (use-case test)' }), proxyTrusted: false };
const email = () => `u-${crypto.randomUUID()}@example.com`;
/** What the promise rejects with (undefined if it resolves). */
const thrown = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-use-cases-'));
  const config = loadConfig({ GATEHOUSE_DATA_DIR: dir, GATEHOUSE_DEV_OIDC: 'false', NODE_ENV: 'test' });
  scratch = await isolatedDatabase();
  database = await openTestDatabase({ databaseUrl: scratch.url, dataDir: config.dataDir, poolSize: 4, logQuery: (q) => statements?.push(q) });
  services = await createServices(config, database);
  project = await projects.create(services.db, { displayName: 'Use cases', config: defaultProjectConfig() });
  // Events are written as deliveries to the project's endpoints: one endpoint makes them visible.
  await webhooks.insertEndpoint(services.db, { projectId: project.id, url: 'https://hooks.example.com/in', description: null, enabled: true, eventTypes: null, secretEncrypted: 'unused' });
});

afterAll(async () => {
  for (const stop of services.onStop) await stop();
  await database.close();
  await scratch.drop();
  rmSync(dir, { recursive: true, force: true });
});

const eventsOf = async (type: string) => rowsOf<{ payload: { data: Record<string, unknown> } }>(await services.db.execute(
  sql`select payload from webhook_deliveries where project_id = ${project.id} and event_type = ${type} order by created_at`,
)).map((r) => r.payload.data);

const counters = async () => rowsOf<{ key: string; count: number }>(await services.db.execute(sql`select key, count from rate_limits where key like ${`sign_in_%:${project.id}:%`}`));

describe('createUser', () => {
  test('creates the user with its sign-in email and emits user.created in the same transaction', async () => {
    const address = email();
    const { user, channel } = await createUser(services, { project, user: { primaryEmail: address, primaryEmailAuthEnabled: true, displayName: 'Ada' } });
    expect(user).toMatchObject({ primary_email: address, display_name: 'Ada', primary_email_auth_enabled: true });
    expect(channel?.value).toBe(address);
    expect((await users.load(services.db, project.id, user.id))?.id).toBe(user.id);
    expect((await eventsOf('user.created')).some((d) => d.id === user.id && d.primary_email === address)).toBe(true);
  });

  test('a second user with the same sign-in email is USER_EMAIL_ALREADY_EXISTS, and leaves no user nor event behind', async () => {
    const address = email();
    await createUser(services, { project, user: { primaryEmail: address, primaryEmailAuthEnabled: true } });
    const before = (await eventsOf('user.created')).length;
    const [{ n: usersBefore }] = rowsOf<{ n: number }>(await services.db.execute(sql`select count(*)::int as n from users where project_id = ${project.id}`));
    expect(await thrown(createUser(services, { project, user: { primaryEmail: address, primaryEmailAuthEnabled: true } }))).toBeInstanceOf(KnownErrors.UserEmailAlreadyExists);
    expect((await eventsOf('user.created')).length).toBe(before);
    const [{ n: usersAfter }] = rowsOf<{ n: number }>(await services.db.execute(sql`select count(*)::int as n from users where project_id = ${project.id}`));
    expect(usersAfter).toBe(usersBefore);
  });
});

describe('signInWithPassword', () => {
  const password = 'correct horse battery staple';
  let address = '';
  let userId = '';

  beforeAll(async () => {
    address = email();
    const { user } = await createUser(services, { project, user: { primaryEmail: address, primaryEmailAuthEnabled: true, passwordHash: await services.passwords.hash(password) } });
    userId = user.id;
  });

  test('issues a session in two statements, the refund riding in the session insert (the counters go back to 0)', async () => {
    statements = [];
    const tokens = await signInWithPassword(services, { project, email: address, password, origin });
    const seen = statements;
    statements = null;
    expect(tokens.user_id).toBe(userId);
    expect(await sessions.findByRefreshToken(services.db, project.id, tokens.refresh_token)).toMatchObject({ userId });
    expect(await services.tokens.verify(tokens.access_token)).toMatchObject({ sub: userId, aud: project.id });
    expect(seen.map((q) => q.trim().split(/\s+/).slice(0, 3).join(' '))).toEqual(['with hit as', 'with refund as']);
    // Hit (per IP, per account from that IP) and given back.
    expect((await counters()).map((c) => c.count)).toEqual([0, 0]);
  });

  test('a wrong password is EMAIL_PASSWORD_MISMATCH and stays counted; an unknown email answers the same', async () => {
    expect(await thrown(signInWithPassword(services, { project, email: address, password: 'not the password at all', origin }))).toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
    expect((await counters()).map((c) => c.count).sort()).toEqual([1, 1]);
    expect(await thrown(signInWithPassword(services, { project, email: email(), password, origin }))).toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
  });

  test('a user with TOTP gets MULTI_FACTOR_AUTHENTICATION_REQUIRED, no session, and the attempt given back', async () => {
    const mfaAddress = email();
    const { user } = await createUser(services, { project, user: {
      primaryEmail: mfaAddress, primaryEmailAuthEnabled: true, passwordHash: await services.passwords.hash(password),
      totpSecret: sealBytes('totp-secret', crypto.getRandomValues(new Uint8Array(20))),
    } });
    const mfaOrigin = { ...origin, ip: '203.0.113.8' };
    const error = await thrown(signInWithPassword(services, { project, email: mfaAddress, password, origin: mfaOrigin }));
    expect(error).toBeInstanceOf(KnownErrors.MultiFactorAuthenticationRequired);
    expect(await sessions.listForUser(services.db, project.id, user.id, { includeImpersonation: true })).toEqual([]);
    // Both of the attempt's counters (per IP, and per account from that IP) were hit and given back.
    const keys = [`sign_in_ip:${project.id}:${hashSecret('ip:203.0.113.8')}`, `sign_in_account:${project.id}:${hashSecret(`email:${mfaAddress}|ip:203.0.113.8`)}`];
    const mine = (await counters()).filter((c) => keys.includes(c.key));
    expect(mine.map((c) => c.count)).toEqual([0, 0]);
  });

  test('with password sign-in off for the project: PASSWORD_AUTHENTICATION_NOT_ENABLED before anything is counted', async () => {
    const closed = { ...project, config: { ...project.config, credential_enabled: false } };
    const before = await counters();
    expect(await thrown(signInWithPassword(services, { project: closed, email: address, password, origin }))).toBeInstanceOf(KnownErrors.PasswordAuthenticationNotEnabled);
    expect(await counters()).toEqual(before);
  });
});

describe('a team operation', () => {
  test('a server creates a team with a creator, a client member may not remove another member, deleting emits team.deleted', async () => {
    const { user: creator } = await createUser(services, { project, user: { primaryEmail: email(), primaryEmailAuthEnabled: true } });
    const { user: other } = await createUser(services, { project, user: { primaryEmail: email(), primaryEmailAuthEnabled: true } });
    const server: Caller = { type: 'server', project };
    const team = await createTeam(services, { caller: server, fields: { displayName: 'Builders' }, creatorUserId: creator.id });
    expect((await eventsOf('team.created')).some((d) => d.id === team.id && d.display_name === 'Builders')).toBe(true);
    expect((await eventsOf('team_membership.created')).length).toBe(0);

    // A member without $remove_members may leave the team, not remove others.
    await addTeamMember(services, { project, teamId: team.id, userId: other.id });
    expect((await eventsOf('team_membership.created')).some((d) => d.team_id === team.id && d.user_id === other.id)).toBe(true);
    const asOther: Caller = { type: 'client', project, userId: other.id };
    expect(await thrown(removeTeamMember(services, { caller: asOther, teamId: team.id, userId: creator.id }))).toBeInstanceOf(KnownErrors.TeamPermissionRequired);
    await removeTeamMember(services, { caller: asOther, teamId: team.id, userId: other.id });
    expect((await eventsOf('team_membership.deleted')).some((d) => d.team_id === team.id && d.user_id === other.id)).toBe(true);

    await deleteTeam(services, { caller: server, teamId: team.id });
    expect(await eventsOf('team.deleted')).toContainEqual({ id: team.id });
    expect(await thrown(deleteTeam(services, { caller: server, teamId: team.id }))).toBeInstanceOf(KnownErrors.TeamNotFound);
  });
});
