// What the owner console relies on when it runs a team through the admin app: subscribed reads (members,
// invitations, a member's permissions, the team list) follow each change made through the same app.
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sharedService, uniqueEmail, type SharedService } from '../../../service/test/support/service.ts';
import { newProject, type TestProject } from '../../../service/test/support/projects.ts';
import { cachedReadsSymbol } from '../../src/client/index.ts';
import type { CachedRead } from '../../src/client/cache.ts';
import { CALLBACK, adminFor, mailTo } from './service-helpers.ts';

setDefaultTimeout(90_000);

let svc: SharedService;
let project: TestProject;

beforeAll(async () => {
  svc = await sharedService();
  project = await newProject(svc);
}, 180_000);

/** Subscribes like a React hook does and waits until the cached value satisfies `ok`. */
async function until<T>(read: CachedRead<T>, ok: (v: T) => boolean): Promise<T> {
  const unsubscribe = read.subscribe(() => {});
  try {
    await read.read();
    for (let i = 0; i < 100; i++) {
      const snap = read.peek();
      if (snap.status === 'ok' && ok(snap.value)) return snap.value;
      await Bun.sleep(20);
    }
    throw new Error(`the cached read never matched: ${JSON.stringify(read.peek())}`);
  } finally {
    unsubscribe();
  }
}

describe('admin app teams: cached reads after changes', () => {
  test('invitations: sent and revoked through the admin app, the cached list follows both', async () => {
    const app = adminFor(project);
    const team = await app.createTeam({ displayName: 'Invites' });
    const invitations = team[cachedReadsSymbol].invitations();
    const unsubscribe = invitations.subscribe(() => {});
    try {
      expect(await invitations.read()).toEqual([]);
      const email = uniqueEmail('invitee');
      await team.inviteUser({ email, callbackUrl: `${CALLBACK}/team-invitation` });
      const mail = await mailTo(svc, email);
      expect(mail.subject).toMatch(/Invites/);
      // No new fetch by the caller: the write refreshed the entry.
      const pending = invitations.peek();
      expect(pending.status === 'ok' && pending.value.map((i) => i.recipientEmail)).toEqual([email]);
      await (pending.status === 'ok' ? pending.value[0]! : null)!.revoke();
      const after = invitations.peek();
      expect(after.status === 'ok' && after.value).toEqual([]);
    } finally {
      unsubscribe();
    }
  });

  test('members, a member\'s direct and contained permissions, and the team list follow adds, grants, revokes and deletes', async () => {
    const app = adminFor(project);
    await app.createTeamPermissionDefinition({ id: 'docs_editor', containedPermissionIds: ['$read_members'] });
    const user = await app.createUser({ primaryEmail: uniqueEmail('member') });
    const team = await app.createTeam({ displayName: 'Members' });
    const members = team[cachedReadsSymbol].users();
    await until(members, (m) => m.length === 0);
    await team.addUser(user.id);
    const [member] = await until(members, (m) => m.length === 1);
    expect(member!.id).toBe(user.id);

    const direct = member![cachedReadsSymbol].permissions(team, false);
    const held = member![cachedReadsSymbol].permissions(team, true);
    const ids = (l: { id: string }[]) => l.map((p) => p.id).sort();
    const before = ids(await until(direct, () => true));
    await member!.grantPermission(team, 'docs_editor');
    await until(direct, (l) => ids(l).includes('docs_editor'));
    await until(held, (l) => ids(l).includes('docs_editor') && ids(l).includes('$read_members'));
    await member!.revokePermission(team, 'docs_editor');
    expect(ids(await until(direct, (l) => !ids(l).includes('docs_editor')))).toEqual(before);

    await team.removeUser(user.id);
    await until(members, (m) => m.length === 0);

    const teams = app.serverReads.teams();
    await until(teams, (l) => l.some((t) => t.id === team.id));
    await team.delete();
    await until(teams, (l) => !l.some((t) => t.id === team.id));
  });
});
