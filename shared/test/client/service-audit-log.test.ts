// The admin app's audit log call against the real service (issue 26): entries as models, newest first, the filters
// (kinds and groups, user, time) sent as the service reads them, paging with the cursor, a bad filter as SCHEMA_ERROR.
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sharedService, type RunningService } from '../../../service/test/support/service.ts';
import { newProject, signUp, type TestProject } from '../../../service/test/support/projects.ts';
import { KnownErrors } from '../../src/known-errors.ts';
import { adminFor } from './service-helpers.ts';

setDefaultTimeout(90_000);
let svc: RunningService;
let project: TestProject;
let user: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  svc = await sharedService();
  project = await newProject(svc);
  user = await signUp(project);
  expect((await project.client.post('/auth/password/sign-in', { email: user.email, password: 'wrong-password-1' })).status).toBe(400);
  expect((await project.client.post('/auth/password/sign-in', { email: user.email, password: user.password })).status).toBe(200);
}, 180_000);

describe('admin app: audit log', () => {
  test('entries newest first, as models; filtered by kind, group, user and time', async () => {
    const app = adminFor(project);
    const all = await app.listAuditLog();
    expect(all.entries.map((e) => e.event)).toEqual(['sign_in.succeeded', 'sign_in.failed', 'api_key.created', 'project.created']);
    const [ok, failed] = all.entries;
    expect(ok).toMatchObject({ userId: user.userId, actor: { kind: 'client', userId: null }, details: { method: 'password' } });
    expect(ok!.createdAt).toBeInstanceOf(Date);
    expect(failed).toMatchObject({ userId: user.userId, details: { error: 'EMAIL_PASSWORD_MISMATCH' } });
    expect(all.nextCursor).toBeNull();

    expect((await app.listAuditLog({ events: ['sign_in'] })).entries.map((e) => e.event)).toEqual(['sign_in.succeeded', 'sign_in.failed']);
    expect((await app.listAuditLog({ events: ['sign_in.failed', 'project'] })).entries.map((e) => e.event)).toEqual(['sign_in.failed', 'project.created']);
    expect((await app.listAuditLog({ userId: user.userId })).entries.map((e) => e.id)).toEqual([ok!.id, failed!.id]);
    expect((await app.listAuditLog({ until: failed!.createdAt, events: ['sign_in'] })).entries).toEqual([]);
    expect((await app.listAuditLog({ since: new Date(ok!.createdAt.getTime() + 1) })).entries).toEqual([]);
  });

  test('pages with the cursor; a bad filter is a SCHEMA_ERROR', async () => {
    const app = adminFor(project);
    const first = await app.listAuditLog({ limit: 3 });
    expect(first.entries).toHaveLength(3);
    expect(first.nextCursor).toBeTruthy();
    const second = await app.listAuditLog({ limit: 3, cursor: first.nextCursor! });
    expect(second.entries.map((e) => e.event)).toEqual(['project.created']);
    expect(second.nextCursor).toBeNull();
    await expect(app.listAuditLog({ events: ['sign_in.nope'] })).rejects.toBeInstanceOf(KnownErrors.SchemaError);
    await expect(app.listAuditLog({ userId: 'not-a-uuid' })).rejects.toBeInstanceOf(KnownErrors.SchemaError);
  });
});
