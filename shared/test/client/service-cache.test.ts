// Client caches against the real service: per-request sessions do not pile up, and mutations refresh the cached
// entries that hooks subscribe to (client-library §4.6, §4.7).
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sharedService, uniqueEmail, type SharedService } from '../../../service/test/support/service.ts';
import { newProject, type TestProject } from '../../../service/test/support/projects.ts';
import { cachedReadsSymbol, stackAppInternalsSymbol, type CachedRead } from '../../src/client/index.ts';
import { CALLBACK, adminFor, clientFor, serverFor, signedUpClient } from './service-helpers.ts';

setDefaultTimeout(90_000);

let svc: SharedService;
let project: TestProject;

beforeAll(async () => {
  svc = await sharedService();
  project = await newProject(svc, { config: { client_team_creation_enabled: true, allow_user_api_keys: true, allow_team_api_keys: true } });
}, 180_000);

/** Subscribes like a hook would, loads the entry, and exposes the notification count and the current value. */
async function watch<T>(read: CachedRead<T>) {
  let notes = 0;
  const unsubscribe = read.subscribe(() => notes++);
  await read.read();
  const start = notes;
  return {
    /** Notifications since the entry was first loaded. */
    get changes() {
      return notes - start;
    },
    get value(): T {
      const snap = read.peek();
      if (snap.status !== 'ok') throw new Error(`entry is ${snap.status}`);
      return snap.value;
    },
    unsubscribe,
  };
}

describe('session-keyed entries are released with their session (§4.6)', () => {
  test('200 per-request getUser({tokenStore: request}) calls do not leave 200 cache entries', async () => {
    const app = serverFor(project);
    const user = await app.createUser({ primaryEmail: uniqueEmail('req') });
    const tokens = (await user.createSession()).getTokens();
    const header = JSON.stringify(tokens);
    const perRequest = async () => {
      for (let i = 0; i < 200; i++) {
        const request = new Request('http://backend.local/', { headers: { 'x-stack-auth': header } });
        expect((await app.getUser({ tokenStore: request }))?.id).toBe(user.id);
      }
    };
    await perRequest();
    const cache = app._core.currentUserCache('server');
    for (let i = 0; i < 50 && cache.size > 20; i++) {
      Bun.gc(true);
      await Bun.sleep(10);
    }
    expect(cache.size).toBeLessThan(20);
  });
});

describe('seeding the current user (internal setCurrentUser)', () => {
  test('takes a promise of the user JSON; the hook read waits for it and makes no /users/me request', async () => {
    const { email, password, user } = await signedUpClient(project);
    const json = user.toClientJson();
    const paths: string[] = [];
    const app = clientFor(project, {
      fetch: (input: string, init?: RequestInit) => {
        paths.push(`${init?.method ?? 'GET'} ${new URL(input).pathname}`);
        return fetch(input, init);
      },
    });
    // a fresh sign-in: this session's current-user entry is empty, as in a browser that got the user from SSR
    expect((await app.signInWithCredential({ email, password, noRedirect: true })).status).toBe('ok');
    paths.length = 0;
    let resolve!: (v: unknown) => void;
    const rendered = new Promise((r) => (resolve = r));
    const seeded = app[stackAppInternalsSymbol].setCurrentUser(rendered);
    const read = app[cachedReadsSymbol].currentUser().read();
    resolve({ ...json, display_name: 'Rendered on the server' });
    await seeded;
    expect((await read)?.displayName).toBe('Rendered on the server');
    expect(paths).toEqual([]);
    // null means "nobody signed in" for this session until the next fetch
    await app[stackAppInternalsSymbol].setCurrentUser(Promise.resolve(null));
    expect(await app[cachedReadsSymbol].currentUser().read()).toBeNull();
    expect((await app.getUser())?.id).toBe(json.id);
  });
});

// §4.7: every mutation refreshes the entries it changes, so a subscribed hook is notified and sees new data without
// refetching itself. Each check: subscribe, load, mutate, then look at the entry (not at a fresh promise read).
describe('client mutations refresh subscribed entries (§4.7)', () => {
  test('current user: update and its wrappers, setPassword / updatePassword', async () => {
    const { app, user, password } = await signedUpClient(project);
    const me = await watch(app[cachedReadsSymbol].currentUser());
    await user.update({ displayName: 'One' });
    expect(me.value?.displayName).toBe('One');
    await user.setDisplayName('Two');
    expect(me.value?.displayName).toBe('Two');
    await user.setClientMetadata({ theme: 'dark' });
    expect(me.value?.clientMetadata).toEqual({ theme: 'dark' });
    const before = me.changes;
    expect(await user.updatePassword({ oldPassword: password, newPassword: 'another-horse-2' })).toBeUndefined();
    expect(me.changes).toBeGreaterThan(before);
    me.unsubscribe();

    // setPassword: a user without a password, signed in through server-made tokens
    const created = await serverFor(project).createUser({ primaryEmail: uniqueEmail('nopw') });
    const tokens = (await created.createSession()).getTokens();
    const passwordless = await watch(clientFor(project)[cachedReadsSymbol].currentUser({ tokenStore: tokens }));
    expect(passwordless.value?.hasPassword).toBe(false);
    expect(await passwordless.value!.setPassword({ password: 'third-horse-3' })).toBeUndefined();
    expect(passwordless.value?.hasPassword).toBe(true);
  });

  test('createTeam refreshes my teams and (through the selection) the current user; team update/delete refresh my teams', async () => {
    const { app, user } = await signedUpClient(project);
    const me = await watch(app[cachedReadsSymbol].currentUser());
    const teams = await watch(user[cachedReadsSymbol].teams());
    expect(teams.value).toEqual([]);
    const team = await user.createTeam({ displayName: 'Cached' });
    expect(teams.value.map((t) => t.id)).toEqual([team.id]);
    expect(me.value?.selectedTeam?.id).toBe(team.id);
    await user.setSelectedTeam(null);
    expect(me.value?.selectedTeam).toBeNull();
    await team.update({ displayName: 'Cached 2' });
    expect(teams.value[0]!.displayName).toBe('Cached 2');
    await team.delete();
    expect(teams.value).toEqual([]);
  });

  test('team invitations, my team profile and team API keys', async () => {
    const { user } = await signedUpClient(project);
    const team = await user.createTeam({ displayName: 'Inviting' });
    const invitations = await watch(team[cachedReadsSymbol].invitations());
    await team.inviteUser({ email: uniqueEmail('inv'), callbackUrl: `${CALLBACK}/team-invitation` });
    expect(invitations.value.length).toBe(1);
    await invitations.value[0]!.revoke();
    expect(invitations.value).toEqual([]);

    const profile = await watch(user[cachedReadsSymbol].teamProfile(team));
    await (await user.getTeamProfile(team)).update({ displayName: 'Captain' });
    expect(profile.value.displayName).toBe('Captain');

    const keys = await watch(team[cachedReadsSymbol].apiKeys());
    const key = await team.createApiKey({ description: 'team key', expiresAt: null });
    expect(keys.value.map((k) => k.id)).toEqual([key.id]);
    await key.revoke();
    expect(keys.value[0]!.whyInvalid()).toBe('manually-revoked');
  });

  test('contact channel create / update / delete refresh my channels', async () => {
    const { user } = await signedUpClient(project);
    const channels = await watch(user[cachedReadsSymbol].contactChannels());
    expect(channels.value.length).toBe(1);
    const created = await user.createContactChannel({ type: 'email', value: uniqueEmail('extra'), usedForAuth: false });
    expect(channels.value.map((c) => c.id)).toContain(created.id);
    await created.update({ usedForAuth: true });
    expect(channels.value.find((c) => c.id === created.id)?.usedForAuth).toBe(true);
    await created.delete();
    expect(channels.value.map((c) => c.id)).not.toContain(created.id);
    expect(channels.value.length).toBe(1);
  });

  test('user API key create and revoke refresh my key list', async () => {
    const { user } = await signedUpClient(project);
    const keys = await watch(user[cachedReadsSymbol].apiKeys());
    expect(keys.value).toEqual([]);
    const key = await user.createApiKey({ description: 'mine', expiresAt: new Date(Date.now() + 86_400_000) });
    expect(keys.value.map((k) => k.id)).toEqual([key.id]);
    await keys.value[0]!.update({ description: 'renamed' });
    expect(keys.value[0]!.description).toBe('renamed');
    await key.revoke();
    expect(keys.value[0]!.isValid()).toBe(false);
  });

  test('signOut invalidates the session and the subscribed current user becomes null', async () => {
    const { app, user } = await signedUpClient(project);
    const me = await watch(app[cachedReadsSymbol].currentUser());
    expect(me.value?.id).toBe(user.id);
    await user.signOut();
    const until = Date.now() + 20_000; // the entry refreshes in the background: allow for a busy machine
    while (me.value !== null && Date.now() < until) await Bun.sleep(10);
    expect(me.value).toBeNull();
  });
});

describe('server mutations refresh subscribed entries (§4.7)', () => {
  test('user update refreshes the user and every list; createUser refreshes lists', async () => {
    const app = serverFor(project);
    const tag = crypto.randomUUID().slice(0, 8);
    const user = await app.createUser({ primaryEmail: `${tag}-a@example.com` });
    const byId = await watch(app.serverReads.user(user.id));
    const list = await watch(app.serverReads.users({ query: tag }));
    expect(list.value.map((u) => u.id)).toEqual([user.id]);
    await user.update({ displayName: 'Server renamed' });
    expect(byId.value?.displayName).toBe('Server renamed');
    expect(list.value[0]!.displayName).toBe('Server renamed');
    await user.setServerMetadata({ plan: 'pro' });
    expect(byId.value?.serverMetadata).toEqual({ plan: 'pro' });
    const second = await app.createUser({ primaryEmail: `${tag}-b@example.com` });
    expect(list.value.map((u) => u.id).sort()).toEqual([user.id, second.id].sort());
    await second.delete();
    expect(list.value.map((u) => u.id)).toEqual([user.id]);
  });

  test('server channel create / update / delete refresh that user\'s channels and the user', async () => {
    const app = serverFor(project);
    const user = await app.createUser({ primaryEmail: uniqueEmail('srvch') });
    const byId = await watch(app.serverReads.user(user.id));
    const channels = await watch(user[cachedReadsSymbol].contactChannels());
    const created = await user.createContactChannel({ type: 'email', value: uniqueEmail('srvextra'), usedForAuth: false });
    expect(channels.value.map((c) => c.id)).toContain(created.id);
    const userChanges = byId.changes;
    await created.update({ isVerified: true, isPrimary: true });
    expect(channels.value.find((c) => c.id === created.id)).toMatchObject({ isVerified: true, isPrimary: true });
    expect(byId.changes).toBeGreaterThan(userChanges);
    expect(byId.value?.primaryEmail).toBe(created.value);
    await created.delete();
    expect(channels.value.map((c) => c.id)).not.toContain(created.id);
  });

  test('teams: create / update / delete, members, permissions, invitations, profiles, API keys', async () => {
    const app = serverFor(project);
    const alice = await app.createUser({ primaryEmail: uniqueEmail('salice') });
    const bob = await app.createUser({ primaryEmail: uniqueEmail('sbob') });
    const all = await watch(app.serverReads.teams());
    const team = await app.createTeam({ displayName: 'Server cached', creatorUserId: alice.id });
    expect(all.value.map((t) => t.id)).toContain(team.id);
    await team.update({ displayName: 'Server cached 2' });
    expect(all.value.find((t) => t.id === team.id)?.displayName).toBe('Server cached 2');

    const members = await watch(team[cachedReadsSymbol].users());
    await team.addUser(bob.id);
    expect(members.value.map((m) => m.id).sort()).toEqual([alice.id, bob.id].sort());

    const recursive = await watch(bob[cachedReadsSymbol].permissions(team, true));
    const direct = await watch(bob[cachedReadsSymbol].permissions(team, false));
    await bob.grantPermission(team, '$remove_members');
    expect(recursive.value.map((p) => p.id)).toContain('$remove_members');
    expect(direct.value.map((p) => p.id)).toContain('$remove_members');
    await bob.revokePermission(team, '$remove_members');
    expect(recursive.value.map((p) => p.id)).not.toContain('$remove_members');
    expect(direct.value.map((p) => p.id)).not.toContain('$remove_members');

    const profile = await watch(bob[cachedReadsSymbol].teamProfile(team));
    await (await bob.getTeamProfile(team)).update({ displayName: 'Bobby' });
    expect(profile.value.displayName).toBe('Bobby');

    const invitations = await watch(team[cachedReadsSymbol].invitations());
    await team.inviteUser({ email: uniqueEmail('sinv'), callbackUrl: `${CALLBACK}/team-invitation` });
    expect(invitations.value.length).toBe(1);

    await team.removeUser(bob.id);
    expect(members.value.map((m) => m.id)).toEqual([alice.id]);

    const own = await bob.createTeam({ displayName: 'Bob solo' });
    expect(all.value.map((t) => t.id)).toContain(own.id);
    await team.delete();
    expect(all.value.map((t) => t.id)).not.toContain(team.id);
  });

  test('server user API keys: create and revoke refresh that user\'s list', async () => {
    const app = serverFor(project);
    const user = await app.createUser({ primaryEmail: uniqueEmail('skeys') });
    const keys = await watch(user[cachedReadsSymbol].apiKeys());
    const key = await user.createApiKey({ description: 'server-made', expiresAt: null });
    expect(keys.value.map((k) => k.id)).toEqual([key.id]);
    await key.revoke();
    expect(keys.value[0]!.whyInvalid()).toBe('manually-revoked');
  });
});

describe('admin mutations refresh subscribed entries (§4.7)', () => {
  test('project update refreshes the admin and the client project view of the app', async () => {
    const p = await newProject(svc);
    const app = adminFor(p);
    const admin = await watch(app.adminReads.project());
    const client = await watch(app[cachedReadsSymbol].project());
    await admin.value.update({ displayName: 'Renamed by admin' });
    expect(admin.value.displayName).toBe('Renamed by admin');
    expect(client.value.displayName).toBe('Renamed by admin');
  });

  test('internal API keys, permission definitions and email templates refresh their lists', async () => {
    const p = await newProject(svc);
    const app = adminFor(p);
    const keys = await watch(app.adminReads.internalApiKeys());
    const created = await app.createInternalApiKey({
      description: 'cached',
      expiresAt: new Date(Date.now() + 86_400_000),
      hasPublishableClientKey: true,
      hasSecretServerKey: false,
      hasSuperSecretAdminKey: false,
    });
    expect(keys.value.map((k) => k.id)).toContain(created.id);
    await keys.value.find((k) => k.id === created.id)!.revoke();
    expect(keys.value.find((k) => k.id === created.id)!.whyInvalid()).toBe('manually-revoked');

    const teamDefs = await watch(app.adminReads.teamPermissionDefinitions());
    await app.createTeamPermissionDefinition({ id: 'cached_editor', containedPermissionIds: [] });
    expect(teamDefs.value.map((d) => d.id)).toContain('cached_editor');
    await app.updateTeamPermissionDefinition('cached_editor', { description: 'Edits' });
    expect(teamDefs.value.find((d) => d.id === 'cached_editor')?.description).toBe('Edits');
    await app.deleteTeamPermissionDefinition('cached_editor');
    expect(teamDefs.value.map((d) => d.id)).not.toContain('cached_editor');

    const projectDefs = await watch(app.adminReads.projectPermissionDefinitions());
    await app.createProjectPermissionDefinition({ id: 'cached_beta', containedPermissionIds: [] });
    expect(projectDefs.value.map((d) => d.id)).toEqual(['cached_beta']);
    await app.deleteProjectPermissionDefinition('cached_beta');
    expect(projectDefs.value).toEqual([]);

    await (await app.getProject()).update({
      config: { emailConfig: { type: 'standard', host: '127.0.0.1', port: svc.mailbox.port, username: 'u', password: 'p', senderName: 'T', senderEmail: 't@example.com' } },
    });
    const templates = await watch(app.adminReads.emailTemplates());
    await app.updateEmailTemplate('magic_link', { subject: 'Code {{ otp }}' });
    expect(templates.value.find((t) => t.type === 'magic_link')).toMatchObject({ subject: 'Code {{ otp }}', isDefault: false });
    await app.resetEmailTemplate('magic_link');
    expect(templates.value.find((t) => t.type === 'magic_link')?.isDefault).toBe(true);
  });
});
