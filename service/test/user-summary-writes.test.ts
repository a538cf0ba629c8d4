// The user row's summary columns (drizzle/0003, 0035) are written only when they change. A sign-up inserts the user
// with its primary email summarised already, so its channel's trigger leaves the row alone (issue 31: the second
// version of the row cost 2 ms of PostgreSQL per sign-up); a change the summary shows still writes it. Counted with
// pg_stat_xact_user_tables: the rows this transaction updated. On PostgreSQL under DATABASE_URL, else on PGlite.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { defaultProjectConfig } from '@gatehouse/shared/schemas/projects';
import { rowsOf, type Database, type DB } from '../src/db/index';
import * as projects from '../src/repo/projects';
import { insertUser } from '../src/repo/user-writes';
import { openTestDatabase } from './support/pglite-template';
import { isolatedDatabase } from './support/isolated-database';

let database: Database;
let scratch: Awaited<ReturnType<typeof isolatedDatabase>>;
let project: projects.Project;
const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-summary-writes-'));

beforeAll(async () => {
  scratch = await isolatedDatabase();
  database = await openTestDatabase({ databaseUrl: scratch.url, dataDir });
  project = await projects.create(database.db, { displayName: 'Summary', config: defaultProjectConfig() });
}, 300_000);

afterAll(async () => {
  await database?.close();
  await scratch?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Rows of users this transaction has updated so far (a statement-level count kept by the backend). */
async function userRowsUpdated(tx: DB): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await tx.execute(sql`select n_tup_upd as n from pg_stat_xact_user_tables where relname = 'users'`));
  return Number(row?.n ?? 0);
}

interface Summary { primary_email: string | null; primary_email_verified: boolean; primary_email_auth_enabled: boolean; has_passkey: boolean }
async function summaryOf(db: DB, id: string): Promise<Summary> {
  const [row] = rowsOf<Summary>(await db.execute(sql`
    select primary_email, primary_email_verified, primary_email_auth_enabled, has_passkey from users where id = ${id}`));
  return row!;
}

const email = () => `summary-${crypto.randomUUID()}@example.com`;

test('a sign-up with a primary email writes its user row once, summarised', async () => {
  const address = email();
  await database.db.transaction(async (tx) => {
    const { id, channel } = await insertUser(tx, project, { primaryEmail: address, primaryEmailAuthEnabled: true, passwordHash: 'argon2-hash-placeholder' }, { emailCheckedFree: true });
    expect(channel?.value).toBe(address);
    expect(await userRowsUpdated(tx)).toBe(0);
    expect(await summaryOf(tx, id)).toEqual({ primary_email: address, primary_email_verified: false, primary_email_auth_enabled: true, has_passkey: false });
  });
});

test('a sign-up without an email, then one with a verified email: the summary matches the channels', async () => {
  const verified = email();
  await database.db.transaction(async (tx) => {
    const anonymous = await insertUser(tx, project, { isAnonymous: true });
    const withEmail = await insertUser(tx, project, { primaryEmail: verified, primaryEmailVerified: true });
    expect(await userRowsUpdated(tx)).toBe(0);
    expect(await summaryOf(tx, anonymous.id)).toEqual({ primary_email: null, primary_email_verified: false, primary_email_auth_enabled: false, has_passkey: false });
    expect(await summaryOf(tx, withEmail.id)).toEqual({ primary_email: verified, primary_email_verified: true, primary_email_auth_enabled: false, has_passkey: false });
  });
});

test('a change the summary shows still writes the row; one it does not show writes nothing', async () => {
  const address = email();
  const { id } = await database.db.transaction((tx) => insertUser(tx, project, { primaryEmail: address, primaryEmailAuthEnabled: true }, { emailCheckedFree: true }));
  await database.db.transaction(async (tx) => {
    // A second, non-primary channel: the summary (the primary email) is unchanged.
    await tx.execute(sql`insert into contact_channels (project_id, user_id, type, value, is_primary) values (${project.id}, ${id}, 'email', ${email()}, false)`);
    expect(await userRowsUpdated(tx)).toBe(0);
    // Verifying the primary email changes the summary.
    await tx.execute(sql`update contact_channels set is_verified = true where user_id = ${id} and is_primary`);
    expect(await userRowsUpdated(tx)).toBe(1);
    // A passkey too.
    await tx.execute(sql`insert into passkeys (project_id, user_id, credential_id, public_key) values (${project.id}, ${id}, ${crypto.randomUUID()}, '\\x00'::bytea)`);
    expect(await userRowsUpdated(tx)).toBe(2);
  });
  expect(await summaryOf(database.db, id)).toEqual({ primary_email: address, primary_email_verified: true, primary_email_auth_enabled: true, has_passkey: true });
  // The primary channel removed: the summary empties.
  await database.db.execute(sql`delete from contact_channels where user_id = ${id} and is_primary`);
  expect(await summaryOf(database.db, id)).toEqual({ primary_email: null, primary_email_verified: false, primary_email_auth_enabled: false, has_passkey: true });
});
