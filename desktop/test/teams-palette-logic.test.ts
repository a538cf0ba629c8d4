// The Teams screens' and the command palette's rules, outside any component.
import { describe, expect, test } from 'bun:test';
import { parseRoute, routeHash } from '../src/renderer/lib/routes';
import {
  filterTeams, grantableIds, invitationCallbackUrl, jsonText, memberPermissionRows, parseJsonText, teamFormBody, validateTeamForm,
} from '../src/renderer/lib/teams';
import { entryForPendingEnter, filterEntries, projectEntries, screenEntries, teamEntries, userEntries, userRoute, userSearchQuery } from '../src/renderer/lib/palette';
import { en } from '../src/renderer/messages/en';

describe('item routes', () => {
  test('a team page round-trips; the item belongs to a known screen only', () => {
    const r = { name: 'project', connectionId: 'c 1', projectId: 'p', screen: 'teams', itemId: 'a/b' } as const;
    expect(routeHash(r)).toBe('#/c/c%201/p/p/teams/a%2Fb');
    expect(parseRoute(routeHash(r))).toEqual(r);
    expect(parseRoute('#/c/x/p/y/teams')).toEqual({ name: 'project', connectionId: 'x', projectId: 'y', screen: 'teams' });
    expect('itemId' in parseRoute('#/c/x/p/y/teams')).toBe(false);
    // An unknown screen falls back to the overview, and its "item" is not carried along.
    expect(parseRoute('#/c/x/p/y/nope/123')).toEqual({ name: 'project', connectionId: 'x', projectId: 'y', screen: 'overview' });
  });
});

describe('teams', () => {
  const teams = [
    { id: '2b', displayName: 'beta' },
    { id: '1a', displayName: 'Alpha' },
    { id: '3c', displayName: 'Alphabet soup' },
  ];
  test('search by name (any case) or exact id, sorted by name', () => {
    expect(filterTeams(teams, '').map((t) => t.id)).toEqual(['1a', '3c', '2b']);
    expect(filterTeams(teams, '  ALPHA ').map((t) => t.id)).toEqual(['1a', '3c']);
    expect(filterTeams(teams, '2b').map((t) => t.id)).toEqual(['2b']);
    expect(filterTeams(teams, 'b').map((t) => t.id)).toEqual(['3c', '2b']);
    expect(filterTeams(teams, 'zzz')).toEqual([]);
  });

  const texts = { required: 'Required', image: 'Image' };
  test('team form: name required, image a URL or empty (none), checked with the service schema', () => {
    expect(validateTeamForm({ displayName: '  ', profileImageUrl: '' }, texts)).toEqual({ displayName: 'Required' });
    expect(validateTeamForm({ displayName: 'A', profileImageUrl: '' }, texts)).toEqual({});
    expect(validateTeamForm({ displayName: 'A', profileImageUrl: 'https://example.com/a.png' }, texts)).toEqual({});
    expect(validateTeamForm({ displayName: 'A', profileImageUrl: 'not a url' }, texts)).toEqual({ profileImageUrl: 'Image contains spaces' });
    expect(validateTeamForm({ displayName: 'A', profileImageUrl: 'nope' }, texts)).toEqual({ profileImageUrl: 'Image is not a valid URL' });
    expect(validateTeamForm({ displayName: '', profileImageUrl: 'nope' }, texts)).toEqual({ displayName: 'Required', profileImageUrl: 'Image is not a valid URL' });
    expect(Object.keys(validateTeamForm({ displayName: 'x'.repeat(5000), profileImageUrl: '' }, texts))).toEqual(['displayName']);
    expect(teamFormBody({ displayName: ' A ', profileImageUrl: ' ' })).toEqual({ displayName: 'A', profileImageUrl: null });
  });

  test("metadata text: empty is null, JSON is parsed, anything else refused with the catalogue's text", () => {
    expect(parseJsonText('')).toEqual({ ok: true, value: null });
    expect(parseJsonText('  \n')).toEqual({ ok: true, value: null });
    expect(parseJsonText('{"a": [1, "x"]}')).toEqual({ ok: true, value: { a: [1, 'x'] } });
    expect(parseJsonText('42')).toEqual({ ok: true, value: 42 });
    const bad = parseJsonText('{a: 1}');
    expect(bad.ok).toBe(false);
    expect(bad.ok ? '' : bad.text).toBe(en['validation.json']);
    expect(parseJsonText("{'a': 1}").ok).toBe(false);
    expect(jsonText(null)).toBe('');
    expect(jsonText(undefined)).toBe('');
    expect(parseJsonText(jsonText({ k: { n: 1 } }))).toEqual({ ok: true, value: { k: { n: 1 } } });
  });

  test('member permissions: granted ones first, contained ones with the grants that bring them', () => {
    const defs = new Map<string, readonly string[]>([
      ['editor', ['reader', '$read_members']],
      ['reader', ['viewer']],
      ['viewer', []],
      ['admin', ['$update_team']],
    ]);
    // What the service lists with recursive=true is what is shown, even where the definitions say less.
    const rows = memberPermissionRows(['editor', 'viewer'], ['editor', 'reader', 'viewer', '$read_members', 'extra'], defs);
    expect(rows).toEqual([
      { id: 'editor', direct: true, via: [] },
      { id: 'viewer', direct: true, via: ['editor'] },
      { id: '$read_members', direct: false, via: ['editor'] },
      { id: 'extra', direct: false, via: [] },
      { id: 'reader', direct: false, via: ['editor'] },
    ]);
    expect(memberPermissionRows([], [], defs)).toEqual([]);
    // A cycle in the definitions does not loop.
    const cyclic = new Map<string, readonly string[]>([['a', ['b']], ['b', ['a']]]);
    expect(memberPermissionRows(['a'], ['a', 'b'], cyclic)).toEqual([
      { id: 'a', direct: true, via: [] },
      { id: 'b', direct: false, via: ['a'] },
    ]);
  });

  test('grantable: every definition not granted directly (contained ones may still be granted)', () => {
    expect(grantableIds(['reader', '$invite_members', 'editor'], ['editor'])).toEqual(['$invite_members', 'reader']);
  });

  test('invitation link: the project app\'s handler on its first trusted domain, else the service\'s', () => {
    expect(invitationCallbackUrl([{ domain: 'https://app.example.com/', handlerPath: '/handler/' }, { domain: 'https://b', handlerPath: '/h' }], 'http://x'))
      .toBe('https://app.example.com/handler/team-invitation');
    expect(invitationCallbackUrl([], 'http://127.0.0.1:8102/')).toBe('http://127.0.0.1:8102/handler/team-invitation');
  });
});

describe('command palette', () => {
  const screens = screenEntries('c', 'p1', (s) => `Label ${s}`, ['overview', 'teams', 'api-keys']);
  const projects = projectEntries('c', [{ id: 'p1', name: 'Docs' }, { id: 'p2', name: 'Shop' }], 'p1');
  const users = userEntries('c', 'p1', [
    { id: 'u1', primaryEmail: 'ann@example.com', displayName: 'Ann' },
    { id: 'u2', primaryEmail: null, displayName: 'No Mail' },
    { id: 'u3', primaryEmail: null, displayName: null },
  ]);

  test('teams: found by name or id once something is typed, each to its page', () => {
    const teams = teamEntries('c', 'p1', [{ id: 't-1', displayName: 'Research crew' }, { id: 't-2', displayName: 'Sales' }]);
    expect(filterEntries(teams, '')).toEqual([]);
    expect(filterEntries(teams, 'crew').map((e) => [e.label, routeHash(e.route)])).toEqual([['Research crew', '#/c/c/p/p1/teams/t-1']]);
    expect(filterEntries(teams, 'T-2').map((e) => e.label)).toEqual(['Sales']);
  });

  test('Enter before the user search answered goes to the first entry of that query\'s answer, and only then', () => {
    expect(entryForPendingEnter('ann@', null, users)).toBeNull();
    expect(entryForPendingEnter('ann@', 'an', users)).toBeNull();
    expect(entryForPendingEnter('ann@', 'ann@', users)?.id).toBe('user:u1');
    expect(entryForPendingEnter('ann@', 'ann@', [])).toBeNull();
    expect(entryForPendingEnter(null, 'ann@', users)).toBeNull();
  });

  test('screens and projects go to their routes; the open project is not offered', () => {
    expect(screens.map((e) => [e.label, routeHash(e.route)])).toEqual([
      ['Label overview', '#/c/c/p/p1/overview'],
      ['Label teams', '#/c/c/p/p1/teams'],
      ['Label api-keys', '#/c/c/p/p1/api-keys'],
    ]);
    expect(projects.map((e) => [e.label, e.description, routeHash(e.route)])).toEqual([['Shop', 'p2', '#/c/c/p/p2/overview']]);
  });

  test('users are labelled by email and go to their user page', () => {
    expect(users.map((e) => [e.label, e.description])).toEqual([['ann@example.com', 'Ann'], ['No Mail', undefined], ['u3', undefined]]);
    expect(users[0]!.route).toEqual(userRoute('c', 'p1', 'u1'));
    expect(routeHash(users[0]!.route)).toBe('#/c/c/p/p1/users/u1');
  });

  test('filter: words against label, description and keywords; users kept as the service found them', () => {
    const all = [...screens, ...projects, ...users];
    expect(filterEntries(all, '').map((e) => e.id)).toEqual(['screen:overview', 'screen:teams', 'screen:api-keys', 'project:p2']);
    expect(filterEntries(all, 'TEAMS').map((e) => e.id)).toEqual(['screen:teams', 'user:u1', 'user:u2', 'user:u3']);
    expect(filterEntries(all, 'api keys').map((e) => e.id).filter((id) => !id.startsWith('user:'))).toEqual(['screen:api-keys']);
    expect(filterEntries(all, 'p2').map((e) => e.id).filter((id) => !id.startsWith('user:'))).toEqual(['project:p2']);
  });

  test('a user search starts at two characters without spaces', () => {
    expect(userSearchQuery('')).toBeNull();
    expect(userSearchQuery(' a ')).toBeNull();
    expect(userSearchQuery(' an ')).toBe('an');
    expect(userSearchQuery('ann@example.com')).toBe('ann@example.com');
    expect(userSearchQuery('api keys')).toBeNull();
  });
});
