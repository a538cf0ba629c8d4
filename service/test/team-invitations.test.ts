// /team-invitations over HTTP with real mail: send (the code comes from the mail in the SMTP fixture), list,
// revoke, check, details, accept (single use, even when concurrent), client permission checks, isolation.
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { expectKnownError, sharedService, uniqueEmail } from './support/service';
import { extractCode, extractCodeLink } from './support/smtp';
import { newProject, signUp, type TestProject } from './support/projects';
import { serverCreateTeam, teamWithCreatorAndMember } from './support/teams';

setDefaultTimeout(60_000);

const CALLBACK = 'http://localhost:3000/handler/team-invitation';

async function invite(p: TestProject, teamId: string, email = uniqueEmail('invitee')) {
  const svc = await sharedService();
  const res = await p.server.post('/team-invitations/send-code', { team_id: teamId, email, callback_url: CALLBACK });
  expect(res.status).toBe(200);
  const mail = await svc.mailbox.waitForMail((m) => m.to.includes(email));
  return { id: res.body.id as string, email, code: extractCode(mail)!, mail, body: res.body };
}

describe('send, list, check, details, accept', () => {
  test('the full round trip', async () => {
    const p = await newProject(await sharedService(), { displayName: 'Invite Co' });
    const team = await serverCreateTeam(p, { display_name: 'Rowers' });
    const { id, email, code, mail, body } = await invite(p, team.id);
    expect(body).toEqual({ success: true, id });
    expect(mail.subject).toContain('Rowers');
    expect(extractCodeLink(mail)!.startsWith(`${CALLBACK}?code=`)).toBe(true);
    expect(code).toHaveLength(45);

    const list = await p.server.get(`/team-invitations?team_id=${team.id}`);
    expect(list.status).toBe(200);
    expect(list.body.is_paginated).toBe(false);
    expect(list.body.items).toHaveLength(1);
    const item = list.body.items[0];
    expect(Object.keys(item).sort()).toEqual(['expires_at_millis', 'id', 'recipient_email', 'team_id']);
    expect(item).toMatchObject({ id, team_id: team.id, recipient_email: email });
    expect(Math.abs(item.expires_at_millis - (Date.now() + 7 * 24 * 3600_000))).toBeLessThan(120_000);

    const check = await p.client.post('/team-invitations/accept/check-code', { code });
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ is_code_valid: true });

    const u = await signUp(p);
    expectKnownError(await p.client.post('/team-invitations/accept/details', { code }), 'USER_AUTHENTICATION_REQUIRED', 401);
    const details = await p.client.post('/team-invitations/accept/details', { code: code.toUpperCase() }, { accessToken: u.accessToken });
    expect(details.body).toEqual({ team_id: team.id, team_display_name: 'Rowers' });

    expectKnownError(await p.client.post('/team-invitations/accept', { code }), 'USER_AUTHENTICATION_REQUIRED', 401);
    // The accepting user's email need not match the invited one.
    const accepted = await p.client.post('/team-invitations/accept', { code }, { accessToken: u.accessToken });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({});
    const perms = await p.server.get(`/team-permissions?team_id=${team.id}&user_id=${u.userId}`);
    expect(perms.body.items).toEqual([{ id: 'member', team_id: team.id, user_id: u.userId }]);
    expect((await p.server.get(`/team-invitations?team_id=${team.id}`)).body.items).toEqual([]);

    const reused = await p.client.post('/team-invitations/accept', { code }, { accessToken: (await signUp(p)).accessToken });
    expectKnownError(reused, 'VERIFICATION_CODE_ALREADY_USED', 409);
    expectKnownError(await p.client.post('/team-invitations/accept/check-code', { code }), 'VERIFICATION_CODE_ALREADY_USED', 409);
  });

  test('accepting when already a member succeeds and uses the code', async () => {
    const p = await newProject(await sharedService());
    const { team, member } = await teamWithCreatorAndMember(p);
    const { code } = await invite(p, team.id);
    const res = await p.client.post('/team-invitations/accept', { code }, { accessToken: member.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expectKnownError(await p.client.post('/team-invitations/accept/check-code', { code }), 'VERIFICATION_CODE_ALREADY_USED', 409);
  });

  test('concurrent accepts of one code: exactly one succeeds', async () => {
    const p = await newProject(await sharedService());
    const team = await serverCreateTeam(p);
    const { code } = await invite(p, team.id);
    const users = await Promise.all(Array.from({ length: 8 }, () => signUp(p)));
    const results = await Promise.all(users.map((u) => p.client.post('/team-invitations/accept', { code }, { accessToken: u.accessToken })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expectKnownError(r, 'VERIFICATION_CODE_ALREADY_USED', 409);
    expect((await p.server.get(`/users?team_id=${team.id}`)).body.items).toHaveLength(1);
  });

  test('code errors', async () => {
    const p = await newProject(await sharedService());
    const u = await signUp(p);
    const short = await p.client.post('/team-invitations/accept', { code: 'abc' }, { accessToken: u.accessToken });
    expectKnownError(short, 'SCHEMA_ERROR', 400);
    expect(short.body.error).toContain('body.code must be exactly 45 characters');
    const unknown = 'a'.repeat(45);
    expectKnownError(await p.client.post('/team-invitations/accept', { code: unknown }, { accessToken: u.accessToken }), 'VERIFICATION_CODE_NOT_FOUND', 404);
    expectKnownError(await p.client.post('/team-invitations/accept/check-code', { code: unknown }), 'VERIFICATION_CODE_NOT_FOUND', 404);
    expectKnownError(await p.client.post('/team-invitations/accept/details', { code: unknown }, { accessToken: u.accessToken }), 'VERIFICATION_CODE_NOT_FOUND', 404);

    // Twenty wrong guesses on the code's nonce burn it.
    const team = await serverCreateTeam(p);
    const { code } = await invite(p, team.id);
    const wrong = (code.startsWith('zzzzzz') ? 'yyyyyy' : 'zzzzzz') + code.slice(6);
    for (let i = 0; i < 20; i++) expectKnownError(await p.client.post('/team-invitations/accept/check-code', { code: wrong }), 'VERIFICATION_CODE_NOT_FOUND', 404);
    expectKnownError(await p.client.post('/team-invitations/accept', { code }, { accessToken: u.accessToken }), 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED', 400);
  });
});

describe('client permissions, revoke, errors', () => {
  test('send-code: user, membership, $invite_members; trusted callback; server needs an existing team', async () => {
    const p = await newProject(await sharedService());
    const { team, creator, member } = await teamWithCreatorAndMember(p);
    const outsider = await signUp(p);
    const body = { team_id: team.id, email: uniqueEmail('inv'), callback_url: CALLBACK };
    expectKnownError(await p.client.post('/team-invitations/send-code', body), 'USER_AUTHENTICATION_REQUIRED', 401);
    expectKnownError(await p.client.post('/team-invitations/send-code', body, { accessToken: outsider.accessToken }), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    const ok = await p.client.post('/team-invitations/send-code', body, { accessToken: member.accessToken });
    expect(ok.status).toBe(200);
    await p.server.delete(`/team-permissions/${team.id}/${member.userId}/member`);
    const denied = await p.client.post('/team-invitations/send-code', body, { accessToken: member.accessToken });
    expectKnownError(denied, 'TEAM_PERMISSION_REQUIRED', 401);
    expect(denied.body.details.permission_id).toBe('$invite_members');

    const untrusted = await p.client.post('/team-invitations/send-code', { ...body, callback_url: 'https://evil.example.com/accept' }, { accessToken: creator.accessToken });
    expectKnownError(untrusted, 'REDIRECT_URL_NOT_WHITELISTED', 400);
    expectKnownError(await p.server.post('/team-invitations/send-code', { ...body, team_id: crypto.randomUUID() }), 'TEAM_NOT_FOUND', 404);
    expectKnownError(await p.server.post('/team-invitations/send-code', { ...body, email: 'not-an-email' }), 'SCHEMA_ERROR', 400);

    const trusted = await newProject(await sharedService(), { config: { allow_localhost: false, domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }] } });
    const t2 = await serverCreateTeam(trusted);
    expectKnownError(await trusted.server.post('/team-invitations/send-code', { ...body, team_id: t2.id }), 'REDIRECT_URL_NOT_WHITELISTED', 400);
    const viaDomain = await trusted.server.post('/team-invitations/send-code', { ...body, team_id: t2.id, callback_url: 'https://app.example.com/handler/team-invitation' });
    expect(viaDomain.status).toBe(200);
  });

  test('list: team_id required; client needs membership, $read_members, then $invite_members', async () => {
    const p = await newProject(await sharedService());
    const { team, creator, member } = await teamWithCreatorAndMember(p);
    const outsider = await signUp(p);
    await invite(p, team.id);
    const missing = await p.server.get('/team-invitations');
    expectKnownError(missing, 'SCHEMA_ERROR', 400);
    expect(missing.body.error).toContain('query.team_id must be defined');
    expectKnownError(await p.server.get(`/team-invitations?team_id=${crypto.randomUUID()}`), 'TEAM_NOT_FOUND', 404);
    expectKnownError(await p.client.get(`/team-invitations?team_id=${team.id}`, { accessToken: outsider.accessToken }), 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    expect((await p.client.get(`/team-invitations?team_id=${team.id}`, { accessToken: member.accessToken })).body.items).toHaveLength(1);
    expect((await p.client.get(`/team-invitations?team_id=${team.id}`, { accessToken: creator.accessToken })).body.items).toHaveLength(1);

    await p.server.delete(`/team-permissions/${team.id}/${member.userId}/member`);
    await p.server.post(`/team-permissions/${team.id}/${member.userId}/$invite_members`, {});
    const noRead = await p.client.get(`/team-invitations?team_id=${team.id}`, { accessToken: member.accessToken });
    expect(noRead.body.details?.permission_id).toBe('$read_members');
    await p.server.delete(`/team-permissions/${team.id}/${member.userId}/$invite_members`);
    await p.server.post(`/team-permissions/${team.id}/${member.userId}/$read_members`, {});
    const noInvite = await p.client.get(`/team-invitations?team_id=${team.id}`, { accessToken: member.accessToken });
    expectKnownError(noInvite, 'TEAM_PERMISSION_REQUIRED', 401);
    expect(noInvite.body.details.permission_id).toBe('$invite_members');
  });

  test('revoke: only an invitation of the named team; client needs $remove_members; unknown is a 404', async () => {
    const p = await newProject(await sharedService());
    const { team, creator, member } = await teamWithCreatorAndMember(p);
    const otherTeam = await serverCreateTeam(p, { creator_user_id: creator.userId });
    const inv = await invite(p, team.id);

    expectKnownError(await p.client.delete(`/team-invitations/${inv.id}?team_id=${team.id}`, { accessToken: member.accessToken }), 'TEAM_PERMISSION_REQUIRED', 401);
    const wrongTeam = await p.client.delete(`/team-invitations/${inv.id}?team_id=${otherTeam.id}`, { accessToken: creator.accessToken });
    expectKnownError(wrongTeam, 'VERIFICATION_CODE_NOT_FOUND', 404);
    expectKnownError(await p.server.delete(`/team-invitations/${crypto.randomUUID()}?team_id=${team.id}`), 'VERIFICATION_CODE_NOT_FOUND', 404);
    expectKnownError(await p.server.delete(`/team-invitations/${inv.id}`), 'SCHEMA_ERROR', 400);
    expectKnownError(await p.server.delete(`/team-invitations/not-a-uuid?team_id=${team.id}`), 'SCHEMA_ERROR', 400);
    expectKnownError(await p.server.delete(`/team-invitations/${inv.id}?team_id=${crypto.randomUUID()}`), 'TEAM_NOT_FOUND', 404);

    const revoked = await p.client.delete(`/team-invitations/${inv.id}?team_id=${team.id}`, { accessToken: creator.accessToken });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true });
    expect((await p.server.get(`/team-invitations?team_id=${team.id}`)).body.items).toEqual([]);
    expectKnownError(await p.client.post('/team-invitations/accept', { code: inv.code }, { accessToken: member.accessToken }), 'VERIFICATION_CODE_NOT_FOUND', 404);
  });

  test("deleting the team removes its invitations; another project's code is unknown", async () => {
    const svc = await sharedService();
    const a = await newProject(svc);
    const b = await newProject(svc);
    const teamA = await serverCreateTeam(a);
    const teamB = await serverCreateTeam(b);
    const invA = await invite(a, teamA.id);
    const invB = await invite(b, teamB.id);
    const ua = await signUp(a);
    expectKnownError(await a.client.post('/team-invitations/accept', { code: invB.code }, { accessToken: ua.accessToken }), 'VERIFICATION_CODE_NOT_FOUND', 404);
    expectKnownError(await a.server.get(`/team-invitations?team_id=${teamB.id}`), 'TEAM_NOT_FOUND', 404);
    expectKnownError(await a.server.delete(`/team-invitations/${invB.id}?team_id=${teamB.id}`), 'TEAM_NOT_FOUND', 404);
    expectKnownError(await a.server.delete(`/team-invitations/${invB.id}?team_id=${teamA.id}`), 'VERIFICATION_CODE_NOT_FOUND', 404);

    expect((await a.server.delete(`/teams/${teamA.id}`)).status).toBe(200);
    expectKnownError(await a.client.post('/team-invitations/accept', { code: invA.code }, { accessToken: ua.accessToken }), 'VERIFICATION_CODE_NOT_FOUND', 404);
    expect((await b.server.get(`/team-invitations?team_id=${teamB.id}`)).body.items).toHaveLength(1);
  });
});
