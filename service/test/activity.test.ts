// Session activity is written in batches (auth/activity.ts). A batch and a user delete must take the user row and
// its sessions in the same order, or each can hold what the other waits for: Postgres then ends the deadlock by
// failing one of them (the delete would answer 500). Two transactions must overlap for this, which needs two
// connections, so this test runs on PostgreSQL (DATABASE_URL, or the machine's local server) in both runs.
import { afterAll, beforeAll, expect, spyOn, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { ActivityRecorder } from '../src/auth/activity';
import { openDatabase, rowsOf, type Database } from '../src/db/index';
import { projects, sessions as sessionsTable, users as usersTable } from '../src/db/schema';
import * as sessions from '../src/repo/sessions';
import * as users from '../src/repo/users';
import * as projectsRepo from '../src/repo/projects';
import { sql } from 'drizzle-orm';
import { isolatedDatabase } from './support/isolated-database';

let scratch: Awaited<ReturnType<typeof isolatedDatabase>>;
let database: Database;
beforeAll(async () => {
  scratch = await isolatedDatabase({ postgres: true });
  database = await openDatabase({ databaseUrl: scratch.url!, dataDir: '/nonexistent', poolSize: 4 });
  await database.db.insert(projects).values({ id: 'activity-project', displayName: 'Activity', config: {} });
}, 60_000);
afterAll(async () => {
  await database?.close();
  await scratch?.drop();
});

test('a batch flushed while the user is being deleted waits for the delete; neither fails', async () => {
  const { db } = database;
  const [user] = await db.insert(usersTable).values({ projectId: 'activity-project' }).returning({ id: usersTable.id });
  const { sessionId } = await sessions.create(db, { projectId: 'activity-project', userId: user!.id });
  const recorder = new ActivityRecorder(db, 60_000);
  recorder.record(sessionId, 'activity-project', user!.id, null);
  const errors = spyOn(console, 'error').mockImplementation(() => {});
  try {
    let flushed: Promise<void> | undefined;
    await db.transaction(async (tx) => {
      // The delete's first step: the user row (users.removeWithTeams locks it before anything else).
      await tx.select({ id: usersTable.id }).from(usersTable).where(eq(usersTable.id, user!.id)).for('update');
      // The batch starts now and gets as far as it can while the user row is held.
      flushed = recorder.flush();
      await Bun.sleep(500);
      // The rest of the delete: memberships, the user and, by cascade, its sessions.
      expect(await users.removeWithTeams(tx, 'activity-project', user!.id)).toEqual([]);
    });
    await flushed;
    expect(errors).not.toHaveBeenCalled();
    expect(await db.select().from(usersTable).where(eq(usersTable.id, user!.id))).toEqual([]);
    expect(await db.select().from(sessionsTable).where(eq(sessionsTable.id, sessionId))).toEqual([]);
  } finally {
    errors.mockRestore();
  }
}, 30_000);

test('a batch that holds a user while the project is being deleted: the delete waits for it; neither fails', async () => {
  const { db } = database;
  await db.insert(projects).values({ id: 'activity-doomed', displayName: 'Doomed', config: {} });
  const [user] = await db.insert(usersTable).values({ projectId: 'activity-doomed' }).returning({ id: usersTable.id });
  await sessions.create(db, { projectId: 'activity-doomed', userId: user!.id });
  let deleted: Promise<boolean> | undefined;
  // A batch's steps (repo/activity.ts) by hand, so that the delete can start between them: the user locked first...
  await db.transaction(async (tx) => {
    await tx.execute(sql`select id from users where id = ${user!.id} for no key update`);
    deleted = db.transaction((del) => projectsRepo.removeWithOwnership(del, 'activity-doomed'));
    await Bun.sleep(500);
    // ...then the daily-activity row, whose foreign key needs the project row. Had the delete taken the project row
    // first, each would now wait for the other, and PostgreSQL would fail one of them (deadlock detected).
    await tx.execute(sql`insert into user_activity_days (project_id, user_id, day) values ('activity-doomed', ${user!.id}, current_date)`);
  });
  expect(await deleted).toBe(true);
  expect(await db.select().from(usersTable).where(eq(usersTable.id, user!.id))).toEqual([]);
}, 30_000);

test('while a batch is being written, reads still show its activity (pending in memory, not yet in the database)', async () => {
  const { db } = database;
  const [user] = await db.insert(usersTable).values({ projectId: 'activity-project' }).returning({ id: usersTable.id });
  const { sessionId } = await sessions.create(db, { projectId: 'activity-project', userId: user!.id });
  const recorder = new ActivityRecorder(db, 60_000);
  const ipInfo = { ip: '192.0.2.7', countryCode: null, regionCode: null, cityName: null, latitude: null, longitude: null, tzIdentifier: null };
  recorder.record(sessionId, 'activity-project', user!.id, ipInfo);
  const flushed = recorder.flush();
  // The write has started and not committed: the session's activity must not vanish from view meanwhile.
  expect(recorder.pendingFor(sessionId)?.ipInfo).toEqual(ipInfo);
  expect(recorder.pendingForUser(user!.id)).toBeInstanceOf(Date);
  await flushed;
  expect(recorder.pendingFor(sessionId)).toBeUndefined();
  const [row] = await db.select().from(sessionsTable).where(eq(sessionsTable.id, sessionId));
  expect(row!.lastUsedIpInfo).toEqual(ipInfo);
}, 30_000);

test("a user's repeated activity in a day leaves the day's row as it is, unless it brings a new country", async () => {
  const { db } = database;
  const [user] = await db.insert(usersTable).values({ projectId: 'activity-project' }).returning({ id: usersTable.id });
  const { sessionId } = await sessions.create(db, { projectId: 'activity-project', userId: user!.id });
  const recorder = new ActivityRecorder(db, 60_000);
  const ipInfo = (countryCode: string | null) => ({ ip: '192.0.2.8', countryCode, regionCode: null, cityName: null, latitude: null, longitude: null, tzIdentifier: null });
  // xmin changes with every rewrite of the row, even one that writes the values it holds.
  const day = async () => rowsOf<{ xmin: string; country_code: string | null }>(await db.execute(
    sql`select xmin::text, country_code from user_activity_days where user_id = ${user!.id}`));
  recorder.record(sessionId, 'activity-project', user!.id, ipInfo('DE'));
  await recorder.flush();
  const [first] = await day();
  expect(first!.country_code).toBe('DE');
  for (const country of ['DE', null]) {
    recorder.record(sessionId, 'activity-project', user!.id, ipInfo(country));
    await recorder.flush();
    expect(await day()).toEqual([first!]);
  }
  recorder.record(sessionId, 'activity-project', user!.id, ipInfo('FR'));
  await recorder.flush();
  expect((await day()).map((r) => r.country_code)).toEqual(['FR']);
}, 30_000);
