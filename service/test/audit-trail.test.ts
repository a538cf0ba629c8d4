// The queue of the project users' audit entries (observability/audit-trail.ts): written within its delay without
// anyone reading the log, in the order they happened, before an owner-plane entry written at once, and on stop; each
// entry keeps the time it was queued, not the time it was inserted.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config';
import type { Database } from '../src/db';
import { AuditTrail } from '../src/observability/audit-trail';
import * as auditLog from '../src/repo/audit-log';
import { openTestDatabase } from './support/pglite-template';
import { isolatedDatabase } from './support/isolated-database';

setDefaultTimeout(120_000);
let dir = '';
let database: Database;
let scratch: Awaited<ReturnType<typeof isolatedDatabase>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-audit-trail-'));
  const config = loadConfig({ GATEHOUSE_DATA_DIR: dir, GATEHOUSE_DEV_OIDC: 'false', NODE_ENV: 'test' });
  scratch = await isolatedDatabase();
  database = await openTestDatabase({ databaseUrl: scratch.url, dataDir: config.dataDir });
});

afterAll(async () => {
  await database.close();
  await scratch.drop();
  rmSync(dir, { recursive: true, force: true });
});

const entry = (projectId: string, event: auditLog.AuditRecord['event'], subjectUserId: string | null = null): auditLog.AuditRecord => ({
  projectId, event, actorKind: 'client', actorUserId: null, ip: '203.0.113.9', requestId: null, target: null, subjectUserId, details: {},
});
const events = async (projectId: string) => (await auditLog.listForProject(database.db, projectId, { limit: 50 })).map((r) => r.event);

describe('audit trail', () => {
  test('queued entries are written within the delay, with the time they were queued', async () => {
    const trail = new AuditTrail(database.db);
    const p = `p-${crypto.randomUUID()}`;
    const user = crypto.randomUUID();
    const before = Date.now();
    trail.add([entry(p, 'sign_in.failed', user), entry(p, 'sign_in.succeeded', user)]);
    expect(await events(p)).toEqual([]);
    await Bun.sleep(150);
    const queuedAt = Date.now();
    for (let i = 0; i < 40 && (await events(p)).length < 2; i++) await Bun.sleep(25);
    expect(await events(p)).toEqual(['sign_in.succeeded', 'sign_in.failed']);
    const rows = await auditLog.listForProject(database.db, p, { limit: 50, userId: user });
    for (const r of rows) expect(r.createdAt.getTime()).toBeGreaterThanOrEqual(before - 5);
    for (const r of rows) expect(r.createdAt.getTime()).toBeLessThan(queuedAt);
    await trail.stop();
  });

  test('an entry written at once takes the queue along, after it; stop writes what is left', async () => {
    const trail = new AuditTrail(database.db);
    const p = `p-${crypto.randomUUID()}`;
    trail.add([entry(p, 'sign_in.succeeded')]);
    await trail.write([entry(p, 'api_key.created')]);
    expect(await events(p)).toEqual(['api_key.created', 'sign_in.succeeded']);
    trail.add([entry(p, 'session.revoked')]);
    await trail.stop();
    expect(await events(p)).toEqual(['session.revoked', 'api_key.created', 'sign_in.succeeded']);
  });
});
