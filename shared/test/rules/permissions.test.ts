import { describe, expect, test } from 'bun:test';
import {
  CUSTOM_PERMISSION_ID_MESSAGE,
  CUSTOM_PERMISSION_ID_PATTERN,
  PERMISSION_ID_MESSAGE,
  PERMISSION_ID_PATTERN,
  TEAM_SYSTEM_PERMISSIONS,
  customPermissionIdProblem,
  expandPermissions,
  findCycle,
  isSystemPermission,
  permissionIdProblem,
  permissionIdProblems,
} from '../../src/rules/permissions';

describe('permission ids', () => {
  test('messages are exact', () => {
    expect(PERMISSION_ID_MESSAGE).toBe(
      'Only lowercase letters, numbers, ":", "_" and optional "$" at the beginning are allowed',
    );
    expect(CUSTOM_PERMISSION_ID_MESSAGE).toBe('Only lowercase letters, numbers, ":", "_" are allowed');
  });

  test('patterns', () => {
    for (const ok of ['read', 'a:b_c', '0', 'team:read_all']) {
      expect(PERMISSION_ID_PATTERN.test(ok)).toBe(true);
      expect(CUSTOM_PERMISSION_ID_PATTERN.test(ok)).toBe(true);
    }
    expect(PERMISSION_ID_PATTERN.test('$update_team')).toBe(true);
    expect(CUSTOM_PERMISSION_ID_PATTERN.test('$update_team')).toBe(false);
    for (const bad of ['', 'Read', 'a-b', 'a b', 'a$', '$$a', 'é', 'a.b']) {
      expect(PERMISSION_ID_PATTERN.test(bad)).toBe(false);
    }
  });

  test('six system permissions with exact descriptions', () => {
    expect(Object.fromEntries(TEAM_SYSTEM_PERMISSIONS.map((p) => [p.id, p.description]))).toEqual({
      $update_team: 'Update the team information',
      $delete_team: 'Delete the team',
      $read_members: 'Read and list the other members of the team',
      $remove_members: 'Remove other members from the team',
      $invite_members: 'Invite other users to the team',
      $manage_api_keys: 'Create and manage API keys for the team',
    });
    const ids = TEAM_SYSTEM_PERMISSIONS.map((p) => p.id);
    expect(ids).toEqual([...ids].sort());
    expect(isSystemPermission('$manage_api_keys')).toBe(true);
    expect(isSystemPermission('$nope')).toBe(false);
    expect(isSystemPermission('update_team')).toBe(false);
  });

  test('permissionIdProblem', () => {
    expect(permissionIdProblem('read')).toBeUndefined();
    expect(permissionIdProblem('$read_members')).toBeUndefined();
    expect(permissionIdProblem('$read_everything')).toBe('Invalid system permission');
    expect(permissionIdProblem('Bad')).toBe(PERMISSION_ID_MESSAGE);
    expect(permissionIdProblems('$Bad')).toEqual([PERMISSION_ID_MESSAGE, 'Invalid system permission']);
    expect(customPermissionIdProblem('$read_members')).toBe(CUSTOM_PERMISSION_ID_MESSAGE);
    expect(customPermissionIdProblem('my:perm')).toBeUndefined();
  });
});

describe('expandPermissions', () => {
  const defs = new Map<string, string[]>([
    ['admin', ['member', '$update_team', '$delete_team']],
    ['member', ['$read_members', '$invite_members']],
    ['viewer', []],
  ]);

  test('transitive closure includes the direct ids', () => {
    expect([...expandPermissions(['admin'], defs)].sort()).toEqual(
      ['$delete_team', '$invite_members', '$read_members', '$update_team', 'admin', 'member'].sort(),
    );
    expect([...expandPermissions(['member', 'viewer'], defs)].sort()).toEqual(
      ['$invite_members', '$read_members', 'member', 'viewer'].sort(),
    );
    expect(expandPermissions([], defs).size).toBe(0);
    expect([...expandPermissions(['unknown'], defs)]).toEqual(['unknown']);
  });

  test('terminates on cycles', () => {
    const cyclic = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['self', ['self']],
    ]);
    expect([...expandPermissions(['a'], cyclic)].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect([...expandPermissions(['self'], cyclic)]).toEqual(['self']);
  });

  test('a 10 000-long chain does not overflow the stack', () => {
    const chain = new Map<string, string[]>();
    for (let i = 0; i < 10_000; i++) chain.set(`p${i}`, [`p${i + 1}`]);
    const all = expandPermissions(['p0'], chain);
    expect(all.size).toBe(10_001);
    expect(all.has('p10000')).toBe(true);
  });
});

describe('findCycle', () => {
  const defs = new Map<string, string[]>([
    ['a', ['b']],
    ['b', ['c']],
    ['c', []],
    ['x', ['$read_members']],
  ]);

  test('no cycle', () => {
    expect(findCycle(defs, 'a', ['b', 'x'])).toBeUndefined();
    expect(findCycle(defs, 'c', ['x', '$update_team'])).toBeUndefined();
    expect(findCycle(defs, 'new', ['a'])).toBeUndefined();
    expect(findCycle(defs, 'a', [])).toBeUndefined();
  });

  test('self-containment', () => {
    expect(findCycle(defs, 'a', ['a'])).toEqual(['a', 'a']);
    expect(findCycle(new Map(), 'z', ['z'])).toEqual(['z', 'z']);
  });

  test('indirect cycle returns the path', () => {
    expect(findCycle(defs, 'c', ['a'])).toEqual(['c', 'a', 'b', 'c']);
    expect(findCycle(defs, 'b', ['x', 'c', 'a'])).toEqual(['b', 'a', 'b']);
  });

  test("id's old contained list is ignored (it is being replaced)", () => {
    // a currently contains b; replacing it with [] while b→a exists is fine.
    const withBack = new Map([...defs, ['b', ['a']]]);
    expect(findCycle(withBack, 'a', [])).toBeUndefined();
    expect(findCycle(withBack, 'a', ['c'])).toBeUndefined();
    expect(findCycle(withBack, 'a', ['b'])).toEqual(['a', 'b', 'a']);
  });

  test('tolerates cycles elsewhere in the graph', () => {
    const messy = new Map([
      ['p', ['q']],
      ['q', ['p']],
    ]);
    expect(findCycle(messy, 'r', ['p'])).toBeUndefined();
    expect(findCycle(messy, 'p', ['q'])).toEqual(['p', 'q', 'p']);
  });

  test('10 000-long chain, closing it yields the whole path', () => {
    const chain = new Map<string, string[]>();
    for (let i = 0; i < 10_000; i++) chain.set(`p${i}`, [`p${i + 1}`]);
    const cycle = findCycle(chain, 'p10000', ['p0']);
    expect(cycle).toHaveLength(10_002);
    expect(cycle![0]).toBe('p10000');
    expect(cycle![1]).toBe('p0');
    expect(cycle![10_000]).toBe('p9999');
    expect(cycle![10_001]).toBe('p10000');
    expect(findCycle(chain, 'p10001', ['p0'])).toBeUndefined();
  });
});
