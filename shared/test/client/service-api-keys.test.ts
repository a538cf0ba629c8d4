// User and team API keys through the client and server apps, against the real service (the same scenarios as
// wire.test.ts runs against a fake).
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sharedService } from '../../../service/test/support/service.ts';
import { newProject, type TestProject } from '../../../service/test/support/projects.ts';
import { serverFor, signedUpClient } from './service-helpers.ts';

setDefaultTimeout(90_000);

let project: TestProject;

beforeAll(async () => {
  project = await newProject(await sharedService(), { config: { allow_user_api_keys: true, allow_team_api_keys: true, client_team_creation_enabled: true } });
}, 180_000);

describe('API keys (real service)', () => {
  test('client: create (first view), list (last four), revoke; the server checks keys with getUser({apiKey})', async () => {
    const { user } = await signedUpClient(project);
    const expiresAt = new Date(Date.now() + 86_400_000);
    const created = await user.createApiKey({ description: 'd', expiresAt });
    expect(created).toMatchObject({ type: 'user', userId: user.id, description: 'd', isPublic: false });
    expect(typeof created.value).toBe('string');
    expect(created.expiresAt).toEqual(expiresAt);
    const [listed] = await user.listApiKeys();
    expect(listed!.id).toBe(created.id);
    expect(listed!.value).toEqual({ lastFour: created.value.slice(-4) });
    expect(listed!.isValid()).toBe(true);

    const server = serverFor(project);
    expect((await server.getUser({ apiKey: created.value }))?.id).toBe(user.id);
    expect(await server.getUser({ apiKey: 'gh_uk_nope' })).toBeNull();

    await listed!.revoke();
    const [after] = await user.listApiKeys();
    expect(after!.whyInvalid()).toBe('manually-revoked');
    expect(await server.getUser({ apiKey: created.value })).toBeNull();
  });

  test('client team keys need $manage_api_keys (the creator has it); server: getTeam({apiKey}), expiry moves', async () => {
    const { user } = await signedUpClient(project);
    const team = await user.createTeam({ displayName: 'Keys' });
    const tk = await team.createApiKey({ description: 'ci', expiresAt: null, isPublic: true });
    expect(tk).toMatchObject({ type: 'team', teamId: team.id, isPublic: true, expiresAt: undefined });
    expect((await team.listApiKeys()).map((k) => k.id)).toEqual([tk.id]);

    const server = serverFor(project);
    const found = (await server.getTeam({ apiKey: tk.value }))!;
    expect(found.id).toBe(team.id);
    expect(await server.getUser({ apiKey: tk.value })).toBeNull(); // WRONG_API_KEY_TYPE → null
    const [serverKey] = await found.listApiKeys();
    await serverKey!.update({ expiresAt: new Date(Date.now() - 1000) });
    const [expired] = await found.listApiKeys();
    expect(expired!.whyInvalid()).toBe('expired');
    expect(await server.getTeam({ apiKey: tk.value })).toBeNull();

    const su = (await server.getUser(user.id))!;
    const own = await su.createApiKey({ description: 'by server', expiresAt: null });
    expect((await su.listApiKeys()).map((k) => k.id)).toEqual([own.id]);
  });
});
