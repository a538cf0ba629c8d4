// SCIM 2.0 provisioning of a team (issue 28; RFC 7643, 7644) over HTTP: the request sequences Okta and Microsoft
// Entra ID send when they provision, update, deactivate and delete a user and push a group (from their published
// SCIM guides), each followed by the team's state as Gatehouse's own API shows it; groups mapped to team
// permissions; sessions ended at once on deactivation; tokens of other teams and projects refused; SCIM's errors.
// Domains are verified through a real DNS server on loopback.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { expectKnownError } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { serverCreateTeam } from './support/teams';
import { sharedServiceWithDns, teamWithVerifiedDomain, uniqueDomain, type ServiceWithDns } from './support/team-enterprise';

setDefaultTimeout(60_000);
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

let env: ServiceWithDns;
let p: TestProject;

beforeAll(async () => {
  env = await sharedServiceWithDns();
  p = await newProject(env.svc);
});
afterAll(() => env?.stop());

interface ScimTeam { teamId: string; domain: string; base: string; token: string }

async function scimTeam(project = p): Promise<ScimTeam> {
  const domain = uniqueDomain();
  const { teamId } = await teamWithVerifiedDomain(project, env.dns, domain);
  const created = await project.server.post(`/teams/${teamId}/scim-tokens`, { description: 'Okta' });
  expect(created.status).toBe(201);
  return { teamId, domain, base: created.body.scim_base_url, token: created.body.token };
}

/** A SCIM request as an identity provider sends it. */
async function scim(t: Pick<ScimTeam, 'base' | 'token'>, method: string, path: string, body?: unknown, token = t.token) {
  const res = await fetch(t.base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/scim+json', ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), body: text ? JSON.parse(text) : null };
}

const members = async (teamId: string) => ((await p.server.get(`/users?team_id=${teamId}`)).body.items as { id: string; primary_email: string; display_name: string }[]);
const teamPermissions = async (teamId: string, userId: string) =>
  ((await p.server.get(`/team-permissions?team_id=${teamId}&user_id=${userId}`)).body.items as { id: string }[]).map((i) => i.id).sort();

describe('Okta', () => {
  test('provision, read, update with PUT, deactivate and reactivate with PATCH', async () => {
    const t = await scimTeam();
    const email = `test.user@${t.domain}`;
    // Okta first looks the user up by userName.
    const lookup = await scim(t, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}&startIndex=1&count=100`);
    expect(lookup).toMatchObject({ status: 200, body: { schemas: [LIST], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] } });
    expect(lookup.type).toBe('application/scim+json; charset=utf-8');

    const created = await scim(t, 'POST', '/Users', {
      schemas: [USER], userName: email, name: { givenName: 'Test', familyName: 'User' },
      emails: [{ primary: true, value: email, type: 'work' }], displayName: 'Test User', locale: 'en-US',
      externalId: '00ujl29u0le5T6Aj10h7', groups: [], password: '1mz050nq', active: true,
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.body).toEqual({
      schemas: [USER], id, externalId: '00ujl29u0le5T6Aj10h7', userName: email, name: { givenName: 'Test', familyName: 'User' },
      displayName: 'Test User', emails: [{ value: email, type: 'work', primary: true }], active: true,
      meta: { resourceType: 'User', created: expect.any(String), lastModified: expect.any(String), location: `${t.base}/Users/${id}` },
    });
    // The team now has the member, with a verified address it signs in with.
    const user = (await p.server.get(`/users/${id}`)).body;
    expect(user).toMatchObject({ primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true, display_name: 'Test User', has_password: false });
    expect((await members(t.teamId)).map((m) => m.id)).toEqual([id]);
    expect(await teamPermissions(t.teamId, id)).toEqual(['member']); // the project's default member permissions

    expect((await scim(t, 'GET', `/Users/${id}`)).body).toEqual(created.body);
    const found = await scim(t, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${email.toUpperCase()}"`)}&startIndex=1&count=100`);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(id);

    // Profile update: Okta sends the whole user with PUT.
    const put = await scim(t, 'PUT', `/Users/${id}`, {
      schemas: [USER], id, userName: email, name: { givenName: 'Another', familyName: 'User' },
      emails: [{ primary: true, value: email, type: 'work' }], displayName: 'Another User', externalId: '00ujl29u0le5T6Aj10h7', active: true,
    });
    expect(put.status).toBe(200);
    expect(put.body.name).toEqual({ givenName: 'Another', familyName: 'User' });
    expect((await p.server.get(`/users/${id}`)).body.display_name).toBe('Another User');

    // Deactivation.
    const off = await scim(t, 'PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] });
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    expect(await members(t.teamId)).toEqual([]);
    expect((await scim(t, 'GET', `/Users/${id}`)).body.active).toBe(false); // still readable by the provider
    expect((await scim(t, 'GET', `/Users?filter=${encodeURIComponent('active eq false')}`)).body.totalResults).toBe(1);

    // Reactivation.
    const on = await scim(t, 'PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: true } }] });
    expect(on.body.active).toBe(true);
    expect((await members(t.teamId)).map((m) => m.id)).toEqual([id]);

    // The provisioning log: the project's audit log, the identity provider as the actor.
    const log = (await p.admin.get(`/internal/audit-log?user_id=${id}`)).body.items as { event: string; actor: { kind: string }; details: { team_id?: string } }[];
    const scimEntries = log.filter((e) => e.event.startsWith('scim.'));
    expect(scimEntries.map((e) => e.event)).toEqual(['scim.user_reactivated', 'scim.user_deactivated', 'scim.user_updated', 'scim.user_provisioned']);
    expect(scimEntries.every((e) => e.actor.kind === 'scim_token' && e.details.team_id === t.teamId)).toBe(true);
  });

  test('push a group, rename it, add and remove a member, delete it', async () => {
    const t = await scimTeam();
    const user = (await scim(t, 'POST', '/Users', { schemas: [USER], userName: `pat@${t.domain}`, name: { givenName: 'Pat', familyName: 'Lee' }, emails: [{ primary: true, value: `pat@${t.domain}`, type: 'work' }], active: true })).body;
    const created = await scim(t, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Test SCIMv2', members: [] });
    expect(created.status).toBe(201);
    const gid = created.body.id;
    expect(created.body).toEqual({ schemas: [GROUP], id: gid, displayName: 'Test SCIMv2', members: [], meta: { resourceType: 'Group', created: expect.any(String), lastModified: expect.any(String), location: `${t.base}/Groups/${gid}` } });

    const renamed = await scim(t, 'PATCH', `/Groups/${gid}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { id: gid, displayName: 'Test SCIMv2 renamed' } }] });
    expect(renamed.body.displayName).toBe('Test SCIMv2 renamed');

    const added = await scim(t, 'PATCH', `/Groups/${gid}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: user.id, display: user.userName }] }] });
    expect(added.body.members).toEqual([{ value: user.id, display: user.userName, $ref: `${t.base}/Users/${user.id}` }]);
    expect((await p.server.get(`/teams/${t.teamId}/scim-groups`)).body.items).toEqual([
      { id: gid, team_id: t.teamId, display_name: 'Test SCIMv2 renamed', external_id: null, member_count: 1, permission_ids: [], created_at_millis: expect.any(Number) },
    ]);

    const removed = await scim(t, 'PATCH', `/Groups/${gid}`, { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: `members[value eq "${user.id}"]` }] });
    expect(removed.body.members).toEqual([]);

    expect((await scim(t, 'DELETE', `/Groups/${gid}`)).status).toBe(204);
    expect(await scim(t, 'GET', `/Groups/${gid}`)).toMatchObject({ status: 404, body: { schemas: [ERROR], status: '404' } });

    // The team's provisioning log (`team_id`): only its SCIM changes, each naming the token and, for a group
    // update, what changed. Another team's SCIM changes are not in it.
    const other = await scimTeam();
    await scim(other, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Elsewhere', members: [] });
    const tokenId = (await p.server.get(`/teams/${t.teamId}/scim-tokens`)).body.items[0].id;
    const log = (await p.admin.get(`/internal/audit-log?event=scim&team_id=${t.teamId}`)).body.items as { event: string; target: string; details: Record<string, unknown> }[];
    expect(log.map((e) => [e.event, e.details.changed ?? null])).toEqual([
      ['scim.group_deleted', null], ['scim.group_updated', ['members']], ['scim.group_updated', ['members']],
      ['scim.group_updated', ['display_name']], ['scim.group_created', null], ['scim.user_provisioned', null],
    ]);
    expect(log.every((e) => e.details.team_id === t.teamId && e.details.scim_token_id === tokenId)).toBe(true);
    expect(log[3]!.details.display_name).toBe('Test SCIMv2 renamed');
    expect((await p.admin.get(`/internal/audit-log?team_id=${other.teamId}`)).body.items.map((e: { event: string }) => e.event)).toEqual(['scim.group_created']);
    expectKnownError(await p.admin.get('/internal/audit-log?team_id=nope'), 'SCHEMA_ERROR', 400);
  });
});

describe('Microsoft Entra ID', () => {
  test('provision, update by path, disable with a string boolean, delete', async () => {
    const t = await scimTeam();
    const userName = `Test_User_${crypto.randomUUID()}`;
    const email = `Test_User_${crypto.randomUUID().slice(0, 8)}@${t.domain}`;
    expect((await scim(t, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`)).body.totalResults).toBe(0);
    const created = await scim(t, 'POST', '/Users', {
      schemas: [USER, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef', userName, active: true,
      emails: [{ primary: true, type: 'work', value: email }], meta: { resourceType: 'User' },
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' }, roles: [],
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Sales' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.body.emails).toEqual([{ value: email.toLowerCase(), type: 'work', primary: true }]);
    expect((await p.server.get(`/users/${id}`)).body.display_name).toBe('givenName familyName');
    expect((await scim(t, 'GET', `/Users?filter=${encodeURIComponent('externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"')}`)).body.Resources.map((r: { id: string }) => r.id)).toEqual([id]);
    expect((await scim(t, 'GET', `/Users?filter=${encodeURIComponent(`emails[type eq "work"].value eq "${email}"`)}`)).body.totalResults).toBe(1);

    const newEmail = `updated.${crypto.randomUUID().slice(0, 6)}@${t.domain}`;
    const updated = await scim(t, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: newEmail },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
        { op: 'Add', path: 'title', value: 'Engineer' }, // an attribute Gatehouse does not keep: accepted, ignored
      ],
    });
    expect(updated.status).toBe(200);
    expect(updated.body.name).toEqual({ formatted: 'givenName familyName', familyName: 'updatedFamilyName', givenName: 'givenName' });
    expect((await p.server.get(`/users/${id}`)).body).toMatchObject({ primary_email: newEmail, primary_email_verified: true });

    // Entra ID's "False" (a string) disables.
    const disabled = await scim(t, 'PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    expect(disabled.body.active).toBe(false);
    expect(await members(t.teamId)).toEqual([]);

    expect((await scim(t, 'DELETE', `/Users/${id}`)).status).toBe(204);
    expect(await scim(t, 'GET', `/Users/${id}`)).toMatchObject({ status: 404, body: { schemas: [ERROR], status: '404', detail: `User ${id} not found.` } });
    // The Gatehouse user stays (it may belong to other teams); it is no member of this one.
    expect((await p.server.get(`/users/${id}`)).status).toBe(200);
  });

  test('a group: create, find without members, add and remove members by value, rename, delete', async () => {
    const t = await scimTeam();
    const u = (await scim(t, 'POST', '/Users', { schemas: [USER], userName: `new.user@${t.domain}`, active: true })).body;
    const g = (await scim(t, 'POST', '/Groups', { schemas: [GROUP], externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159', displayName: 'displayName', meta: { resourceType: 'Group' } })).body;
    const found = await scim(t, 'GET', `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "displayName"')}`);
    expect(found.body.Resources).toEqual([{ schemas: [GROUP], id: g.id, externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159', displayName: 'displayName', meta: expect.any(Object) }]);

    await scim(t, 'PATCH', `/Groups/${g.id}`, { schemas: [PATCH_OP], Operations: [{ name: 'addMember', op: 'add', path: 'members', value: [{ displayName: 'new User', value: u.id }] }] });
    expect((await scim(t, 'GET', `/Groups/${g.id}`)).body.members.map((m: { value: string }) => m.value)).toEqual([u.id]);
    await scim(t, 'PATCH', `/Groups/${g.id}`, { schemas: [PATCH_OP], Operations: [{ name: 'removeMember', op: 'remove', path: 'members', value: [{ displayName: 'new User', value: u.id }] }] });
    expect((await scim(t, 'GET', `/Groups/${g.id}`)).body.members).toEqual([]);
    const renamed = await scim(t, 'PATCH', `/Groups/${g.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'displayName', value: '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName' }] });
    expect(renamed.body.displayName).toBe('1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName');
    expect((await scim(t, 'DELETE', `/Groups/${g.id}`)).status).toBe(204);
  });
});

describe('what provisioning does to accounts', () => {
  test('an existing user at a verified domain is linked, not duplicated; deactivation ends their sessions at once', async () => {
    const t = await scimTeam();
    const person = await signUp(p, { email: `existing@${t.domain}` });
    const created = await scim(t, 'POST', '/Users', { schemas: [USER], userName: person.email, name: { formatted: 'Existing Person' }, active: true });
    expect(created.status).toBe(201);
    expect(created.body.id).toBe(person.userId);
    expect((await p.server.get(`/users?query=${encodeURIComponent(person.email)}`)).body.items).toHaveLength(1);
    expect((await p.server.get(`/users/${person.userId}`)).body.display_name).toBe('Existing Person');
    expect((await p.client.get('/users/me', { accessToken: person.accessToken })).status).toBe(200);
    expect((await p.client.get('/users/me/identity-providers', { accessToken: person.accessToken })).body.items).toEqual([
      { team_id: t.teamId, team_display_name: expect.any(String), connection_display_name: null, connection_type: null, provisioned_by_scim: true },
    ]);

    const off = await scim(t, 'PATCH', `/Users/${person.userId}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] });
    expect(off.status).toBe(200);
    expectKnownError(await p.client.get('/users/me', { accessToken: person.accessToken }), 'ACCESS_TOKEN_EXPIRED', 401);
    expectKnownError(await p.client.post('/auth/sessions/current/refresh', undefined, { refreshToken: person.refreshToken }), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    // The account itself still signs in (it is the project's user); it is no longer in the team.
    const again = await p.client.post('/auth/password/sign-in', { email: person.email, password: person.password });
    expect(again.status).toBe(200);
    expect(await members(t.teamId)).toEqual([]);
  });

  test('addresses outside the team\'s verified domains are refused, whoever owns them', async () => {
    const t = await scimTeam();
    const outsider = await signUp(p); // @example.com: not the team's
    for (const userName of [outsider.email, `someone@${uniqueDomain()}`, 'no-address-at-all']) {
      const res = await scim(t, 'POST', '/Users', { schemas: [USER], userName, active: true });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidValue' });
    }
    // The outsider's account was not touched, and is in no team of the customer.
    expect((await p.client.get('/users/me', { accessToken: outsider.accessToken })).status).toBe(200);
    expect(await members(t.teamId)).toEqual([]);
    // Nor may an update move a user to an outside address.
    const u = (await scim(t, 'POST', '/Users', { schemas: [USER], userName: `in@${t.domain}`, active: true })).body;
    const moved = await scim(t, 'PATCH', `/Users/${u.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'emails[type eq "work"].value', value: outsider.email }] });
    expect(moved).toMatchObject({ status: 400, body: { scimType: 'invalidValue' } });
    expect((await p.server.get(`/users/${u.id}`)).body.primary_email).toBe(`in@${t.domain}`);
  });

  test('groups grant the team permissions the owner maps them to; a permission granted by hand stays', async () => {
    const t = await scimTeam();
    expect((await p.admin.post('/team-permission-definitions', { id: 'billing' })).status).toBe(201);
    expect((await p.admin.post('/team-permission-definitions', { id: 'deploy' })).status).toBe(201);
    const a = (await scim(t, 'POST', '/Users', { schemas: [USER], userName: `a@${t.domain}`, active: true })).body;
    const b = (await scim(t, 'POST', '/Users', { schemas: [USER], userName: `b@${t.domain}`, active: true })).body;
    // b was granted `billing` by hand before any group mapping.
    expect((await p.server.post(`/team-permissions/${t.teamId}/${b.id}/billing`, {})).status).toBe(201);
    const g = (await scim(t, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Finance', members: [{ value: a.id }, { value: b.id }] })).body;

    const mapped = await p.admin.patch(`/teams/${t.teamId}/scim-groups/${g.id}`, { permission_ids: ['billing', 'deploy', 'billing'] });
    expect(mapped.status).toBe(200);
    expect(mapped.body).toMatchObject({ permission_ids: ['billing', 'deploy'], member_count: 2 });
    expect(await teamPermissions(t.teamId, a.id)).toEqual(['billing', 'deploy', 'member']);
    expect(await teamPermissions(t.teamId, b.id)).toEqual(['billing', 'deploy', 'member']);

    // Out of the group: SCIM's grants go, the hand-granted one stays.
    await scim(t, 'PATCH', `/Groups/${g.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: 'members', value: [{ value: a.id }, { value: b.id }] }] });
    expect(await teamPermissions(t.teamId, a.id)).toEqual(['member']);
    expect(await teamPermissions(t.teamId, b.id)).toEqual(['billing', 'member']);

    // Back in with PUT (the whole member list), then the mapping narrowed, then the group deleted.
    await scim(t, 'PUT', `/Groups/${g.id}`, { schemas: [GROUP], displayName: 'Finance', members: [{ value: a.id }] });
    expect(await teamPermissions(t.teamId, a.id)).toEqual(['billing', 'deploy', 'member']);
    await p.server.patch(`/teams/${t.teamId}/scim-groups/${g.id}`, { permission_ids: ['deploy'] });
    expect(await teamPermissions(t.teamId, a.id)).toEqual(['deploy', 'member']);
    await scim(t, 'DELETE', `/Groups/${g.id}`);
    expect(await teamPermissions(t.teamId, a.id)).toEqual(['member']);

    expectKnownError(await p.server.patch(`/teams/${t.teamId}/scim-groups/${g.id}`, { permission_ids: [] }), 'SCIM_GROUP_NOT_FOUND', 404);
    const h = (await scim(t, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Other' })).body;
    expectKnownError(await p.server.patch(`/teams/${t.teamId}/scim-groups/${h.id}`, { permission_ids: ['no-such-permission'] }), 'PERMISSION_NOT_FOUND', 404);
  });
});

describe('tokens', () => {
  test('a token works only for its team: another team, another project, a revoked or missing token get 401', async () => {
    const t = await scimTeam();
    const second = await scimTeam();
    const other = await newProject(env.svc);
    const foreign = await scimTeam(other);
    expect((await scim(t, 'GET', '/Users')).status).toBe(200);
    for (const token of [second.token, foreign.token, 'gh_scim_not-a-token', '']) {
      const res = await scim(t, 'GET', '/Users', undefined, token);
      expect(res).toMatchObject({ status: 401, body: { schemas: [ERROR], status: '401' } });
    }
    const bare = await fetch(`${t.base}/Users`);
    expect(bare.status).toBe(401);

    const tokens = (await p.server.get(`/teams/${t.teamId}/scim-tokens`)).body.items;
    expect(tokens).toEqual([{ id: expect.any(String), team_id: t.teamId, description: 'Okta', created_at_millis: expect.any(Number), last_used_at_millis: expect.any(Number) }]);
    expect(JSON.stringify(tokens)).not.toContain(t.token.slice(8));
    expect((await p.server.delete(`/teams/${t.teamId}/scim-tokens/${tokens[0].id}`)).status).toBe(200);
    expect((await scim(t, 'GET', '/Users')).status).toBe(401);
    expectKnownError(await p.server.delete(`/teams/${t.teamId}/scim-tokens/${tokens[0].id}`), 'SCIM_TOKEN_NOT_FOUND', 404);
  });

  test('creating tokens: the value once, with the base URL; a client may not; an unknown team', async () => {
    const team = await serverCreateTeam(p);
    const created = await p.admin.post(`/teams/${team.id}/scim-tokens`, {});
    expect(created.body).toMatchObject({ team_id: team.id, description: '', scim_base_url: `${env.svc.url}/scim/v2/${team.id}`, last_used_at_millis: null });
    expect(created.body.token).toMatch(/^gh_scim_[A-Za-z0-9_-]{43}$/);
    const user = await signUp(p);
    expect((await p.client.post(`/teams/${team.id}/scim-tokens`, {}, { accessToken: user.accessToken })).body.code).toBe('INSUFFICIENT_ACCESS_TYPE');
    expectKnownError(await p.server.post(`/teams/${crypto.randomUUID()}/scim-tokens`, {}), 'TEAM_NOT_FOUND', 404);
  });
});

describe('SCIM protocol', () => {
  test('discovery documents', async () => {
    const t = await scimTeam();
    const spc = await scim(t, 'GET', '/ServiceProviderConfig');
    expect(spc.body).toMatchObject({ patch: { supported: true }, bulk: { supported: false }, filter: { supported: true, maxResults: 1000 }, authenticationSchemes: [{ type: 'oauthbearertoken' }] });
    expect((await scim(t, 'GET', '/ResourceTypes')).body.Resources.map((r: { id: string }) => r.id)).toEqual(['User', 'Group']);
    expect((await scim(t, 'GET', '/ResourceTypes/User')).body.endpoint).toBe('/Users');
    expect((await scim(t, 'GET', '/Schemas')).body.Resources.map((s: { id: string }) => s.id)).toEqual([USER, GROUP]);
    expect((await scim(t, 'GET', `/Schemas/${USER}`)).body.attributes.map((a: { name: string }) => a.name)).toContain('userName');
  });

  test('paging with startIndex and count', async () => {
    const t = await scimTeam();
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4, 5]) ids.push((await scim(t, 'POST', '/Users', { schemas: [USER], userName: `p${n}@${t.domain}`, active: true })).body.id);
    const page = await scim(t, 'GET', '/Users?startIndex=2&count=2');
    expect(page.body).toMatchObject({ totalResults: 5, startIndex: 2, itemsPerPage: 2 });
    expect(page.body.Resources.map((r: { id: string }) => r.id)).toEqual(ids.slice(1, 3));
    expect((await scim(t, 'GET', '/Users?startIndex=0&count=-3')).body).toMatchObject({ totalResults: 5, startIndex: 1, itemsPerPage: 0 });
    expect((await scim(t, 'GET', '/Users?startIndex=5&count=10')).body.Resources.map((r: { id: string }) => r.id)).toEqual([ids[4]]);
  });

  test('errors in SCIM\'s format: filters, uniqueness, bad bodies, unknown members', async () => {
    const t = await scimTeam();
    for (const filter of ['userName co "a"', 'title eq "x"', 'userName eq', 'userName eq "a" or userName eq "b"', 'emails[type eq "home"].value eq "a@b.c"', 'userName eq "unterminated']) {
      const res = await scim(t, 'GET', `/Users?filter=${encodeURIComponent(filter)}`);
      expect(res).toMatchObject({ status: 400, body: { schemas: [ERROR], status: '400', scimType: 'invalidFilter' } });
    }
    const first = await scim(t, 'POST', '/Users', { schemas: [USER], userName: `dup@${t.domain}`, externalId: 'ext-1', active: true });
    expect(first.status).toBe(201);
    expect(await scim(t, 'POST', '/Users', { schemas: [USER], userName: `DUP@${t.domain}`, active: true })).toMatchObject({ status: 409, body: { scimType: 'uniqueness' } });
    expect(await scim(t, 'POST', '/Users', { schemas: [USER], userName: `other@${t.domain}`, externalId: 'ext-1', active: true })).toMatchObject({ status: 409, body: { scimType: 'uniqueness' } });
    expect(await scim(t, 'POST', '/Users', { schemas: [USER], active: true })).toMatchObject({ status: 400, body: { scimType: 'invalidValue', detail: 'userName is required.' } });
    expect(await scim(t, 'PATCH', `/Users/${first.body.id}`, { schemas: [PATCH_OP], Operations: [] })).toMatchObject({ status: 400, body: { scimType: 'invalidSyntax' } });
    expect(await scim(t, 'PATCH', `/Users/${first.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'move', path: 'active' }] })).toMatchObject({ status: 400, body: { scimType: 'invalidSyntax' } });
    expect(await scim(t, 'PATCH', `/Users/${crypto.randomUUID()}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] })).toMatchObject({ status: 404 });
    expect(await scim(t, 'POST', '/Groups', { schemas: [GROUP], displayName: 'G', members: [{ value: crypto.randomUUID() }] })).toMatchObject({ status: 400, body: { scimType: 'invalidValue' } });
    expect((await scim(t, 'GET', '/Groups')).body.totalResults).toBe(0); // nothing half-written

    const raw = await fetch(`${t.base}/Users`, { method: 'POST', headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/scim+json' }, body: '{"userName": ' });
    expect(raw.status).toBe(400);
    expect((await raw.json()).scimType).toBe('invalidSyntax');
    const form = await fetch(`${t.base}/Users`, { method: 'POST', headers: { authorization: `Bearer ${t.token}`, 'content-type': 'text/plain' }, body: 'x' });
    expect(form.status).toBe(415);
  });

  test('concurrent creates of one user resolve exactly once', async () => {
    const t = await scimTeam();
    const body = { schemas: [USER], userName: `race@${t.domain}`, active: true };
    const results = await Promise.all([1, 2, 3, 4].map(() => scim(t, 'POST', '/Users', body)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect((await members(t.teamId))).toHaveLength(1);
    expect((await p.server.get(`/users?query=${encodeURIComponent(body.userName)}`)).body.items).toHaveLength(1);
  });
});
