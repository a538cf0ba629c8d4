// GET /users/me/export (issue 30, ASVS 8.3.2): the signed-in user's data as one JSON document: profile, contact
// channels, sessions, teams and OAuth accounts, never a secret.
import { describe, expect, test } from 'bun:test';
import { expectKnownError } from './support/service';
import { signUp } from './support/projects';
import { setupSuite } from './support/suite';
import { serverCreateTeam, addMember } from './support/teams';

const { p } = await setupSuite();

describe('GET /users/me/export', () => {
  test('profile, channels, sessions, teams and OAuth accounts of the signed-in user only', async () => {
    const u = await signUp(p, { password: 'export-password-1' });
    const other = await signUp(p);
    await p.client.patch('/users/me', { display_name: 'Ada', client_metadata: { theme: 'dark' } }, { accessToken: u.accessToken });
    await p.server.patch(`/users/${u.userId}`, { server_metadata: { internal_note: 'server only' } });
    const second = await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password });
    const team = await serverCreateTeam(p, { display_name: 'Analysts' });
    await addMember(p, team.id, u.userId);
    await serverCreateTeam(p, { display_name: 'Not mine' });
    const linked = await p.server.post('/users', { primary_email: `o-${crypto.randomUUID()}@example.com`, oauth_providers: [{ id: 'github', account_id: 'gh-42', email: 'gh@example.com' }] });
    expect(linked.status).toBe(201);

    const res = await p.client.get('/users/me/export', { accessToken: u.accessToken });
    expect(res.status).toBe(200);
    const d = res.body;
    expect(Object.keys(d).sort()).toEqual(['contact_channels', 'exported_at_millis', 'oauth_accounts', 'project_id', 'sessions', 'teams', 'user']);
    expect(d.project_id).toBe(p.id);
    expect(d.user).toMatchObject({ id: u.userId, display_name: 'Ada', primary_email: u.email, client_metadata: { theme: 'dark' } });
    expect(d.user).not.toHaveProperty('server_metadata');
    expect(d.contact_channels.map((c: any) => c.value)).toEqual([u.email]);
    expect(d.sessions).toHaveLength(2);
    expect(d.sessions.filter((s: any) => s.is_current_session)).toHaveLength(1);
    expect(d.teams.map((t: any) => t.display_name)).toEqual(['Analysts']);
    expect(d.oauth_accounts).toEqual([]);
    for (const secret of [u.password, u.refreshToken, second.body.refresh_token, 'server only', other.email]) expect(res.text).not.toContain(secret);

    // A user with a connected account sees it, without any token.
    const session = await p.server.post('/auth/sessions', { user_id: linked.body.id, expires_in_millis: 60_000 });
    const theirs = await p.client.get('/users/me/export', { accessToken: session.body.access_token });
    expect(theirs.body.oauth_accounts).toEqual([{ provider_id: 'github', account_id: 'gh-42', email: 'gh@example.com', used_for_auth: true, connected_at_millis: expect.any(Number) }]);
  });

  test('needs a signed-in user', async () => {
    expectKnownError(await p.client.get('/users/me/export'), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    expectKnownError(await p.server.get('/users/me/export'), 'INSUFFICIENT_ACCESS_TYPE', 401);
  });
});
