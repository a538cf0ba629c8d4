// The admin app's listing of a user's sessions against the real service: impersonation sessions are included
// (labelled), where the user's own server-access listing hides them (protocol-auth §2.7, §2.8).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startService, uniqueEmail, type RunningService } from '../../../service/test/support/service.ts';
import { newProject, type TestProject } from '../../../service/test/support/projects.ts';
import { adminFor } from './service-helpers.ts';

setDefaultTimeout(90_000);
let svc: RunningService;
let project: TestProject;

// Its own service, given time to start: a cold start on the shared, busy test machine can exceed a minute.
beforeAll(async () => {
  svc = await startService({ startTimeoutMs: 240_000 });
  project = await newProject(svc);
}, 300_000);
afterAll(() => svc?.stop());

describe('admin app: listUserSessions', () => {
  test('lists impersonation and ordinary sessions of that user only; revoking one removes it', async () => {
    const app = adminFor(project);
    const user = await app.createUser({ primaryEmail: uniqueEmail('sessions') });
    const other = await app.createUser({ primaryEmail: uniqueEmail('other') });
    await user.createSession({ isImpersonation: true });
    await user.createSession();
    await other.createSession();

    const listed = await app.listUserSessions(user.id);
    expect(listed.map((s) => s.isImpersonation).sort()).toEqual([false, true]);
    expect(listed.every((s) => s.userId === user.id && s.createdAt instanceof Date)).toBe(true);
    // The server-access listing the user object uses hides the impersonation.
    expect((await user.getActiveSessions()).map((s) => s.isImpersonation)).toEqual([false]);

    const impersonation = listed.find((s) => s.isImpersonation)!;
    await user.revokeSession(impersonation.id);
    expect((await app.listUserSessions(user.id)).map((s) => s.isImpersonation)).toEqual([false]);
  });
});
