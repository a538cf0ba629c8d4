// Housekeeping against a real database (PGlite in a temp dir, or a scratch Postgres database under DATABASE_URL):
// dead rows of every kind go, live ones (and those still in their grace period) stay.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { rowsOf, type Database, type DB } from '../src/db/index';
import { openTestDatabase } from './support/pglite-template';
import {
  authorizationCodes, cliAuthAttempts, emailAttempts, emails, oauthProviderRecords, oauthStates, projects, rateLimits, sessions, users,
  verificationCodes, webhookDeliveries, webhookEndpoints,
} from '../src/db/schema';
import { runHousekeeping, startHousekeeping, type HousekeepingTable } from '../src/housekeeping';
import { isolatedDatabase } from './support/isolated-database';

const P = crypto.randomUUID();
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

let dir: string;
let scratch: Awaited<ReturnType<typeof isolatedDatabase>>;
let database: Database;
let db: DB;
let userId: string;
let endpointId: string;
let seq = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-housekeeping-'));
  scratch = await isolatedDatabase();
  database = await openTestDatabase({ databaseUrl: scratch.url, dataDir: dir, poolSize: 4 });
  db = database.db;
  await db.insert(projects).values({ id: P, displayName: 'Housekeeping', config: {} });
  [{ id: userId }] = await db.insert(users).values({ projectId: P }).returning({ id: users.id }) as [{ id: string }];
  [{ id: endpointId }] = await db.insert(webhookEndpoints)
    .values({ projectId: P, url: 'http://127.0.0.1:9/hook', secretEncrypted: 'x' })
    .returning({ id: webhookEndpoints.id }) as [{ id: string }];
});

afterAll(async () => {
  await database?.close();
  await scratch?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const ago = (now: Date, ms: number) => new Date(now.getTime() - ms);
const unique = (p: string) => `${p}-${++seq}-${crypto.randomUUID()}`;

/** Inserts one row per age into `table`; returns the keys of the rows inserted. */
type Seeder = (now: Date, spec: Record<string, unknown>) => Promise<string>;
const seed: Record<HousekeepingTable, Seeder> = {
  verification_codes: async (_now, s) => {
    const h = unique('code');
    const [r] = await db.insert(verificationCodes).values({ projectId: P, type: 'otp', codeHash: h, nonceHash: h, expiresAt: s.expiresAt as Date, ...s }).returning({ id: verificationCodes.id });
    return r!.id;
  },
  oauth_states: async (_now, s) => {
    const k = unique('state');
    await db.insert(oauthStates).values({ innerState: k, projectId: P, data: {}, expiresAt: s.expiresAt as Date });
    return k;
  },
  authorization_codes: async (_now, s) => {
    const k = unique('authcode');
    await db.insert(authorizationCodes).values({
      codeHash: k, projectId: P, userId, redirectUri: 'http://localhost/cb', codeChallenge: 'c', codeChallengeMethod: 'S256',
      isNewUser: false, expiresAt: s.expiresAt as Date,
    });
    return k;
  },
  cli_auth_attempts: async (_now, s) => {
    const [r] = await db.insert(cliAuthAttempts).values({
      projectId: P, pollingCodeHash: unique('poll'), loginCodeHash: unique('login'), expiresAt: s.expiresAt as Date, usedAt: (s.usedAt as Date) ?? null,
    }).returning({ id: cliAuthAttempts.id });
    return r!.id;
  },
  rate_limits: async (_now, s) => {
    const k = unique('sign_in_ip');
    await db.insert(rateLimits).values({ key: k, windowStart: s.windowStart as Date, count: 3 });
    return k;
  },
  sessions: async (_now, s) => {
    const [r] = await db.insert(sessions).values({ projectId: P, userId, refreshTokenHash: unique('rt'), expiresAt: (s.expiresAt as Date | null) ?? null }).returning({ id: sessions.id });
    return r!.id;
  },
  webhook_deliveries: async (_now, s) => {
    const [r] = await db.insert(webhookDeliveries).values({
      projectId: P, endpointId, eventType: 'user.created', payload: {}, status: s.status as string, createdAt: s.createdAt as Date,
    }).returning({ id: webhookDeliveries.id });
    return r!.id;
  },
  email_attempts: async (_now, s) => {
    // Its mail is recent and pending, so only the attempt's own age decides (no cascade from the mail).
    const [mail] = await db.insert(emails).values({ projectId: P, to: ['a@example.com'], subject: 's', text: 't', senderConfig: {} }).returning({ id: emails.id });
    const [r] = await db.insert(emailAttempts).values({ projectId: P, emailId: mail!.id, error: s.error ?? null, createdAt: s.createdAt as Date }).returning({ id: emailAttempts.id });
    return r!.id;
  },
  emails: async (_now, s) => {
    const [r] = await db.insert(emails).values({
      projectId: P, to: ['a@example.com'], subject: 's', text: 't', senderConfig: {}, status: s.status as string, createdAt: s.createdAt as Date,
    }).returning({ id: emails.id });
    return r!.id;
  },
  oauth_provider_records: async (_now, s) => {
    const [r] = await db.insert(oauthProviderRecords).values({
      projectId: P, model: 'AccessToken', idHash: unique('at'), payload: {}, expiresAt: (s.expiresAt as Date | null) ?? null,
    }).returning({ idHash: oauthProviderRecords.idHash });
    return r!.idHash;
  },
};

const keyColumn: Record<HousekeepingTable, string> = {
  verification_codes: 'id', oauth_states: 'inner_state', authorization_codes: 'code_hash', cli_auth_attempts: 'id',
  rate_limits: 'key', sessions: 'id', webhook_deliveries: 'id', email_attempts: 'id', emails: 'id', oauth_provider_records: 'id_hash',
};

async function present(table: HousekeepingTable, keys: string[]): Promise<string[]> {
  if (!keys.length) return [];
  const rows = rowsOf<{ k: string }>(await db.execute(sql`
    select ${sql.identifier(keyColumn[table])}::text as k from ${sql.identifier(table)}
    where ${sql.identifier(keyColumn[table])}::text in (${sql.join(keys.map((k) => sql`${k}`), sql`, `)})`));
  return rows.map((r) => r.k).sort();
}

/** Per table: rows that must go and rows that must stay, relative to `now`. */
function cases(now: Date): Record<HousekeepingTable, { dead: Record<string, unknown>[]; live: Record<string, unknown>[] }> {
  return {
    verification_codes: {
      dead: [
        { expiresAt: ago(now, DAY + MIN) },
        { expiresAt: ago(now, 3 * DAY), usedAt: ago(now, 4 * DAY) },
        { type: 'totp_step', expiresAt: ago(now, DAY + HOUR), usedAt: ago(now, DAY + 2 * HOUR) },
      ],
      live: [
        { expiresAt: ago(now, -HOUR) },
        { expiresAt: ago(now, HOUR) }, // expired, but a late attempt still gets VERIFICATION_CODE_EXPIRED
        { expiresAt: ago(now, DAY - MIN), usedAt: ago(now, DAY) }, // used: still VERIFICATION_CODE_ALREADY_USED
        { type: 'totp_step', expiresAt: ago(now, -MIN), usedAt: now },
      ],
    },
    oauth_states: {
      dead: [{ expiresAt: ago(now, HOUR + MIN) }, { expiresAt: ago(now, 5 * DAY) }],
      live: [{ expiresAt: ago(now, HOUR - MIN) }, { expiresAt: ago(now, -10 * MIN) }],
    },
    authorization_codes: {
      dead: [{ expiresAt: ago(now, MIN) }, { expiresAt: ago(now, DAY) }],
      live: [{ expiresAt: ago(now, -MIN) }],
    },
    cli_auth_attempts: {
      dead: [{ expiresAt: ago(now, DAY + MIN) }, { expiresAt: ago(now, 2 * DAY), usedAt: ago(now, 2 * DAY + HOUR) }],
      live: [{ expiresAt: ago(now, DAY - MIN) }, { expiresAt: ago(now, -HOUR) }],
    },
    rate_limits: {
      // The longest default window is the MFA rule's hour.
      dead: [{ windowStart: ago(now, HOUR + 1000) }, { windowStart: ago(now, DAY) }],
      // 30 s short of the window: still live when the second run below, on the database clock, comes later.
      live: [{ windowStart: ago(now, HOUR - 30_000) }, { windowStart: now }],
    },
    sessions: {
      dead: [{ expiresAt: ago(now, MIN) }, { expiresAt: ago(now, 400 * DAY) }],
      live: [{ expiresAt: ago(now, -MIN) }, { expiresAt: null }],
    },
    webhook_deliveries: {
      dead: [{ status: 'delivered', createdAt: ago(now, 30 * DAY + HOUR) }, { status: 'failed', createdAt: ago(now, 60 * DAY) }],
      live: [
        { status: 'delivered', createdAt: ago(now, 30 * DAY - HOUR) },
        { status: 'failed', createdAt: ago(now, 29 * DAY) },
        { status: 'pending', createdAt: ago(now, 60 * DAY) },
        { status: 'sending', createdAt: ago(now, 60 * DAY) },
      ],
    },
    oauth_provider_records: {
      dead: [{ expiresAt: ago(now, MIN) }, { expiresAt: ago(now, 30 * DAY) }],
      live: [{ expiresAt: ago(now, -MIN) }, { expiresAt: null }],
    },
    email_attempts: {
      dead: [{ createdAt: ago(now, 90 * DAY + HOUR) }, { createdAt: ago(now, 200 * DAY), error: { errorType: 'CONNECTION_FAILED' } }],
      live: [{ createdAt: ago(now, 90 * DAY - HOUR) }, { createdAt: ago(now, HOUR), error: { errorType: 'CONNECTION_FAILED' } }],
    },
    emails: {
      dead: [{ status: 'sent', createdAt: ago(now, 90 * DAY + HOUR) }, { status: 'failed', createdAt: ago(now, 200 * DAY) }],
      live: [
        { status: 'sent', createdAt: ago(now, 90 * DAY - HOUR) },
        { status: 'pending', createdAt: ago(now, 200 * DAY) },
        { status: 'sending', createdAt: ago(now, 200 * DAY) },
      ],
    },
  };
}

describe('runHousekeeping', () => {
  test('deletes exactly the dead rows of every table, and is idempotent', async () => {
    const now = new Date();
    const all = cases(now);
    const inserted = {} as Record<HousekeepingTable, { dead: string[]; live: string[] }>;
    for (const table of Object.keys(all) as HousekeepingTable[]) {
      inserted[table] = { dead: [], live: [] };
      for (const s of all[table].dead) inserted[table].dead.push(await seed[table](now, s));
      for (const s of all[table].live) inserted[table].live.push(await seed[table](now, s));
      expect(await present(table, [...inserted[table].dead, ...inserted[table].live])).toHaveLength(all[table].dead.length + all[table].live.length);
    }

    const counts = await runHousekeeping(db, now);
    for (const table of Object.keys(all) as HousekeepingTable[]) {
      expect({ table, deleted: counts[table] }).toEqual({ table, deleted: inserted[table].dead.length });
      expect({ table, dead: await present(table, inserted[table].dead) }).toEqual({ table, dead: [] });
      expect({ table, live: await present(table, inserted[table].live) }).toEqual({ table, live: [...inserted[table].live].sort() });
    }

    // Again, on the database clock this time: nothing left to delete.
    const again = await runHousekeeping(db);
    expect(again).toEqual(Object.fromEntries(Object.keys(again).map((k) => [k, 0])) as typeof again);
  });

  test('a pruned mail takes its logged attempts with it', async () => {
    const now = new Date();
    const mail = await seed.emails(now, { status: 'failed', createdAt: ago(now, 100 * DAY) });
    // Attempts recent enough to stay on their own: only the cascade removes them.
    const [a] = await db.insert(emailAttempts).values({ projectId: P, emailId: mail, error: { errorType: 'TIMEOUT' } }).returning({ id: emailAttempts.id });
    const [b] = await db.insert(emailAttempts).values({ projectId: P, emailId: mail, error: null }).returning({ id: emailAttempts.id });
    const counts = await runHousekeeping(db, now);
    expect(counts.emails).toBe(1);
    expect(await present('emails', [mail])).toEqual([]);
    expect(await present('email_attempts', [a!.id, b!.id])).toEqual([]);
  });

  test('drains a backlog larger than one batch', async () => {
    const now = new Date();
    const keys: string[] = [];
    for (let i = 0; i < 25; i++) keys.push(await seed.oauth_states(now, { expiresAt: ago(now, 2 * HOUR) }));
    const live = await seed.oauth_states(now, { expiresAt: ago(now, -HOUR) });
    const counts = await runHousekeeping(db, now, { batchSize: 10 });
    expect(counts.oauth_states).toBe(25);
    expect(await present('oauth_states', [...keys, live])).toEqual([live]);
  });

  test('rate-limit rows live as long as the longest configured window', async () => {
    const now = new Date();
    const inLongWindow = await seed.rate_limits(now, { windowStart: ago(now, HOUR) });
    const pastIt = await seed.rate_limits(now, { windowStart: ago(now, 2 * HOUR + MIN) });
    const counts = await runHousekeeping(db, now, { rateLimits: 'sign_in_account=3/7200' });
    expect(counts.rate_limits).toBe(1);
    expect(await present('rate_limits', [inLongWindow, pastIt])).toEqual([inLongWindow]);
  });

  test('concurrent runs (several instances) delete each row once', async () => {
    const now = new Date();
    const keys: string[] = [];
    for (let i = 0; i < 30; i++) keys.push(await seed.sessions(now, { expiresAt: ago(now, HOUR) }));
    const runs = await Promise.all([1, 2, 3].map(() => runHousekeeping(db, now, { batchSize: 7 })));
    expect(runs.reduce((n, c) => n + c.sessions, 0)).toBe(30);
    expect(await present('sessions', keys)).toEqual([]);
  });

  test('the worker runs shortly after start and stops cleanly', async () => {
    const now = new Date();
    const key = await seed.authorization_codes(now, { expiresAt: ago(now, MIN) });
    const worker = startHousekeeping(db, { initialDelayMs: 10, intervalMs: 60_000, logger: { error: () => {} } });
    try {
      const end = Date.now() + 20_000;
      while ((await present('authorization_codes', [key])).length && Date.now() < end) await Bun.sleep(20);
      expect(await present('authorization_codes', [key])).toEqual([]);
    } finally {
      await worker.stop();
    }
  });
});
