// A SCIM Group (RFC 7643 §4.2) as Gatehouse keeps it: a name, an external id and members (users of the team's
// SCIM), and the PATCH forms Okta and Entra ID send to rename a group and change its members. Pure.
import { ScimError, scimInvalidValue } from './scim-error';
import { isObject, lowerKeys, patchOperations } from './user-resource';

export interface ScimGroupFields { displayName: string; externalId: string | null; memberIds: string[] }
export interface GroupPatch {
  displayName?: string;
  externalId?: string | null;
  /** Changes of the member list, in the order sent. */
  members: MemberChange[];
}
export type MemberChange = { kind: 'replace' | 'add' | 'remove'; ids: string[] };

/** The member list after the changes, in order. */
export function applyMemberChanges(current: Iterable<string>, changes: MemberChange[]): Set<string> {
  const members = new Set(current);
  for (const change of changes) {
    if (change.kind === 'replace') members.clear();
    for (const id of change.ids) if (change.kind === 'remove') members.delete(id); else members.add(id);
  }
  return members;
}


function displayName(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw scimInvalidValue('displayName must be a non-empty string.');
  if (value.length > 1000) throw scimInvalidValue('displayName is longer than 1000 characters.');
  return value;
}

function externalId(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > 1000) throw scimInvalidValue('externalId must be a string of at most 1000 characters.');
  return value;
}

/** `[{ value: id }, ...]` (a single object is taken as a list of one, as some providers send). */
function memberIds(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((m) => {
    const id = isObject(m) ? lowerKeys(m).get('value') : undefined;
    if (typeof id !== 'string' || id === '') throw scimInvalidValue('Each member must be an object with a value (a user id).');
    return id;
  });
}

export function parseGroupResource(body: unknown): ScimGroupFields {
  if (!isObject(body)) throw new ScimError(400, 'The body must be a SCIM Group object.', 'invalidSyntax');
  const k = lowerKeys(body);
  return { displayName: displayName(k.get('displayname')), externalId: externalId(k.get('externalid')), memberIds: [...new Set(memberIds(k.get('members')))] };
}

const MEMBER_FILTER_PATH = /^members\[\s*value\s+eq\s+"([^"]+)"\s*\]$/i;

export function parseGroupPatch(body: unknown): GroupPatch {
  const patch: GroupPatch = { members: [] };
  const set = (key: string, value: unknown, op: 'add' | 'replace' | 'remove') => {
    const lower = key.toLowerCase();
    if (lower === 'displayname') {
      if (op === 'remove') throw new ScimError(400, 'displayName cannot be removed.', 'mutability');
      patch.displayName = displayName(value);
    } else if (lower === 'externalid') {
      patch.externalId = op === 'remove' ? null : externalId(value);
    } else if (lower === 'members') {
      if (op === 'replace') patch.members.push({ kind: 'replace', ids: memberIds(value) });
      else if (op === 'add') patch.members.push({ kind: 'add', ids: memberIds(value) });
      // `remove` of members with no value removes them all (RFC 7644 §3.5.2.2); with a value, those listed (Entra ID).
      else if (value === undefined || value === null) patch.members.push({ kind: 'replace', ids: [] });
      else patch.members.push({ kind: 'remove', ids: memberIds(value) });
    }
    // id and other attributes: not changed by a PATCH (id is immutable; others are not kept).
  };
  for (const { op, path, value } of patchOperations(body)) {
    const member = path ? MEMBER_FILTER_PATH.exec(path) : null;
    if (member) {
      if (op !== 'remove') throw new ScimError(400, `${op} is not supported on ${path}.`, 'invalidPath');
      patch.members.push({ kind: 'remove', ids: [member[1]!] });
    } else if (path) {
      set(path, value, op);
    } else {
      if (op === 'remove') throw new ScimError(400, 'A remove operation needs a path.', 'noTarget');
      if (!isObject(value)) throw scimInvalidValue('An operation without a path needs an object value.');
      for (const [key, v] of Object.entries(value)) set(key, v, op);
    }
  }
  return patch;
}
