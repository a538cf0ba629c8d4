// ASVS 5.1.3 and 5.2.2 (issue 30): metadata keys that reach a prototype (`__proto__`, `constructor`, `prototype`, at
// any depth) and display names with control or bidirectional override characters are refused with SCHEMA_ERROR,
// and nothing of the refused request is written.
import { describe, expect, test } from 'bun:test';
import { expectKnownError, type ApiResponse } from './support/service';
import { signUp } from './support/projects';
import { serverCreateTeam, addMember } from './support/teams';
import { setupSuite } from './support/suite';

const { p } = await setupSuite();

function expectProblem(res: ApiResponse, problem: string) {
  expectKnownError(res, 'SCHEMA_ERROR', 400);
  expect(res.body.error).toContain(`  - ${problem}`);
}

// JSON.parse makes "__proto__" an own key, as a request body parsed by the service has it.
const withKey = (key: string, depth: number) => JSON.parse(`${'{"a":'.repeat(depth)}{"${key}":{"isAdmin":true}}${'}'.repeat(depth)}`);

describe('reserved metadata keys', () => {
  test('a client cannot store __proto__, constructor or prototype in client_metadata, at the top or deeper', async () => {
    const u = await signUp(p);
    await p.client.patch('/users/me', { client_metadata: { theme: 'dark' } }, { accessToken: u.accessToken });
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const top = await p.client.patch('/users/me', { client_metadata: withKey(key, 0) }, { accessToken: u.accessToken });
      expectProblem(top, `body.client_metadata.${key} is a reserved key (__proto__, constructor and prototype are not allowed)`);
      const deep = await p.client.patch('/users/me', { display_name: 'Changed', client_metadata: { list: [withKey(key, 2)] } }, { accessToken: u.accessToken });
      expectProblem(deep, `body.client_metadata.list[0].a.a.${key} is a reserved key (__proto__, constructor and prototype are not allowed)`);
    }
    const me = await p.client.get('/users/me', { accessToken: u.accessToken });
    expect(me.body.client_metadata).toEqual({ theme: 'dark' });
    expect(me.body.display_name).toBeNull();
  });

  test('the server keys are held to it too, for users and teams, on create and update', async () => {
    const created = await p.server.post('/users', { primary_email: 'x@example.com', server_metadata: withKey('__proto__', 1) });
    expectProblem(created, 'body.server_metadata.a.__proto__ is a reserved key (__proto__, constructor and prototype are not allowed)');
    const u = await signUp(p);
    expectProblem(await p.server.patch(`/users/${u.userId}`, { client_read_only_metadata: withKey('constructor', 0) }),
      'body.client_read_only_metadata.constructor is a reserved key (__proto__, constructor and prototype are not allowed)');
    expectProblem(await p.server.post('/teams', { display_name: 'T', client_metadata: withKey('prototype', 0) }),
      'body.client_metadata.prototype is a reserved key (__proto__, constructor and prototype are not allowed)');
    const team = await serverCreateTeam(p);
    expectProblem(await p.server.patch(`/teams/${team.id}`, { server_metadata: withKey('__proto__', 3) }),
      'body.server_metadata.a.a.a.__proto__ is a reserved key (__proto__, constructor and prototype are not allowed)');
  });

  test('the words as values, and keys that merely contain them, are stored', async () => {
    const u = await signUp(p);
    const metadata = { role: 'constructor', tags: ['__proto__', 'prototype'], prototypes: 1, Constructor: 2 };
    const res = await p.client.patch('/users/me', { client_metadata: metadata }, { accessToken: u.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.client_metadata).toEqual(metadata);
  });
});

describe('display names', () => {
  const unsafe = ['Ann\u202Eevil', 'Ann\u2066x\u2069', 'Ann\nSmith', 'Bell\u0007', 'C1\u0085'];

  test('a user cannot name themselves with control or bidirectional override characters', async () => {
    const u = await signUp(p);
    for (const name of unsafe) {
      expectProblem(await p.client.patch('/users/me', { display_name: name }, { accessToken: u.accessToken }),
        'body.display_name must not contain control or bidirectional override characters');
    }
    expectProblem(await p.server.post('/users', { display_name: unsafe[0] }), 'body.display_name must not contain control or bidirectional override characters');
    const me = await p.client.get('/users/me', { accessToken: u.accessToken });
    expect(me.body.display_name).toBeNull();
    const ok = await p.client.patch('/users/me', { display_name: 'Zoë محمد 张伟 👩‍💻' }, { accessToken: u.accessToken });
    expect(ok.status).toBe(200);
    expect(ok.body.display_name).toBe('Zoë محمد 张伟 👩‍💻');
  });

  test('teams and team member profiles are held to it too', async () => {
    for (const name of unsafe) {
      expectProblem(await p.server.post('/teams', { display_name: name }), 'body.display_name must not contain control or bidirectional override characters');
    }
    const team = await serverCreateTeam(p);
    expectProblem(await p.server.patch(`/teams/${team.id}`, { display_name: unsafe[0] }), 'body.display_name must not contain control or bidirectional override characters');
    const u = await signUp(p);
    await addMember(p, team.id, u.userId);
    expectProblem(await p.client.patch(`/team-member-profiles/${team.id}/me`, { display_name: unsafe[1] }, { accessToken: u.accessToken }),
      'body.display_name must not contain control or bidirectional override characters');
    const read = await p.server.get(`/teams/${team.id}`);
    expect(read.body.display_name).toBe(team.display_name);
  });
});
