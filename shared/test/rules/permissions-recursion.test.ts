// Permission containment beyond the basics: diamonds, deep nesting, system leaves, and cycle detection on
// graphs shaped like the ones the definition endpoints build.
import { describe, expect, test } from 'bun:test';
import { TEAM_SYSTEM_PERMISSION_IDS, expandPermissions, findCycle } from '../../src/rules/permissions';

const sorted = (s: Iterable<string>) => [...s].sort();

describe('expandPermissions', () => {
  test('a diamond yields each permission once', () => {
    const defs = new Map([
      ['top', ['left', 'right']],
      ['left', ['base']],
      ['right', ['base']],
      ['base', ['$read_members']],
    ]);
    const all = [...expandPermissions(['top'], defs)];
    expect(sorted(all)).toEqual(['$read_members', 'base', 'left', 'right', 'top']);
    expect(new Set(all).size).toBe(all.length);
  });

  test('several direct grants that overlap', () => {
    const defs = new Map([
      ['a', ['b', '$update_team']],
      ['b', ['$read_members']],
      ['c', ['b']],
    ]);
    expect(sorted(expandPermissions(['a', 'c', 'b'], defs))).toEqual(['$read_members', '$update_team', 'a', 'b', 'c']);
  });

  test('deep nesting reaches the system permission at the bottom', () => {
    const defs = new Map<string, string[]>();
    for (let i = 0; i < 50; i++) defs.set(`level${i}`, i === 49 ? ['$delete_team'] : [`level${i + 1}`]);
    const all = expandPermissions(['level0'], defs);
    expect(all.size).toBe(51);
    expect(all.has('$delete_team')).toBe(true);
    // Starting midway only includes what is below.
    expect(expandPermissions(['level40'], defs).size).toBe(11);
  });

  test('admin-like definition containing every system permission', () => {
    const defs = new Map([['admin', [...TEAM_SYSTEM_PERMISSION_IDS]]]);
    expect(sorted(expandPermissions(['admin'], defs))).toEqual(sorted(['admin', ...TEAM_SYSTEM_PERMISSION_IDS]));
  });

  test('a wide fan-out of nested groups', () => {
    const defs = new Map<string, string[]>();
    const leaves: string[] = [];
    for (let g = 0; g < 20; g++) {
      const members = Array.from({ length: 20 }, (_, i) => `g${g}_p${i}`);
      leaves.push(...members);
      defs.set(`group${g}`, members);
    }
    defs.set('everything', Array.from({ length: 20 }, (_, g) => `group${g}`));
    expect(expandPermissions(['everything'], defs).size).toBe(1 + 20 + 400);
  });
});

describe('findCycle', () => {
  test('a diamond closed at the bottom is a cycle; an open diamond is not', () => {
    const defs = new Map([
      ['top', ['left', 'right']],
      ['left', ['base']],
      ['right', ['base']],
      ['base', []],
    ]);
    expect(findCycle(defs, 'base', ['$read_members'])).toBeUndefined();
    const cycle = findCycle(defs, 'base', ['top'])!;
    expect(cycle[0]).toBe('base');
    expect(cycle[cycle.length - 1]).toBe('base');
    expect(cycle).toHaveLength(4); // base -> top -> left|right -> base
    expect(findCycle(defs, 'extra', ['top', 'left'])).toBeUndefined();
  });

  test('every link of a reported cycle exists in the graph', () => {
    const defs = new Map([
      ['a', ['b', 'x']],
      ['b', ['c']],
      ['c', ['d']],
      ['d', []],
      ['x', ['y']],
      ['y', []],
    ]);
    const cycle = findCycle(defs, 'd', ['a'])!;
    expect(cycle).toEqual(['d', 'a', 'b', 'c', 'd']);
    const withNew = new Map([...defs, ['d', ['a']]]);
    for (let i = 0; i + 1 < cycle.length; i++) expect(withNew.get(cycle[i]!)).toContain(cycle[i + 1]!);
  });

  test('system permissions never close a cycle', () => {
    const defs = new Map([['a', ['$read_members']]]);
    expect(findCycle(defs, 'b', ['a', '$read_members'])).toBeUndefined();
  });
});
