// The provisioning log's words outside any component: every SCIM event of the contract worded by the catalogue,
// a group update told apart by what changed, the user, group and token named, and the filter the service accepts.
import { describe, expect, test } from 'bun:test';
import { AUDIT_EVENTS, AuditLogQuery } from '@gatehouse/shared/schemas/audit-log';
import type { AuditLogEntry } from '@gatehouse/shared/client';
import { auditLogQuery } from '@gatehouse/shared/client/models/audit-log';
import { groupNames, provisionedUserIds, provisioningFilter, provisioningWords, subjectName, tokenName } from '../src/renderer/lib/provisioning-log';
import { schemaProblems } from '../src/renderer/lib/schema-check';
import { en } from '../src/renderer/messages/en';

const TEAM = crypto.randomUUID();
const TOKEN = crypto.randomUUID();
const entry = (o: Partial<AuditLogEntry>): AuditLogEntry => ({
  id: '1', event: 'scim.user_provisioned', actor: { kind: 'scim_token', userId: null, ip: null }, userId: null, target: null,
  details: { team_id: TEAM, scim_token_id: TOKEN }, requestId: null, createdAt: new Date(0), ...o,
});

describe('provisioning log words', () => {
  test('every SCIM event has its own words in the catalogue, with the name in them', () => {
    const scim = AUDIT_EVENTS.filter((e) => e.startsWith('scim.'));
    expect(scim.length).toBeGreaterThanOrEqual(8);
    for (const event of scim) {
      const { key } = provisioningWords(entry({ event }));
      expect(key).not.toBe('enterprise.log.other');
      expect(en[key]).toContain('{name}');
    }
    expect(new Set(scim.map((event) => provisioningWords(entry({ event })).key)).size).toBe(scim.length);
  });

  test('a user entry names the user, the name the provider gave, and the token', () => {
    const w = provisioningWords(entry({ event: 'scim.user_provisioned', userId: 'u1', target: 'u1', details: { team_id: TEAM, scim_token_id: TOKEN, user_name: 'peter@initech.example' } }));
    expect(w).toEqual({ key: 'enterprise.log.userProvisioned', userId: 'u1', userName: 'peter@initech.example', groupId: null, groupName: null, tokenId: TOKEN });
    // A deleted user: the subject may be gone; the target still names them.
    expect(provisioningWords(entry({ event: 'scim.user_deleted', userId: null, target: 'u2' })).userId).toBe('u2');
    expect(provisioningWords(entry({ event: 'scim.user_deactivated', userId: 'u3' })).key).toBe('enterprise.log.userDeactivated');
    // An entry written before tokens were named has none.
    expect(provisioningWords(entry({ details: { team_id: TEAM } })).tokenId).toBeNull();
  });

  test('a group update says what changed', () => {
    const g = (changed: unknown, more: Record<string, unknown> = {}) =>
      provisioningWords(entry({ event: 'scim.group_updated', target: 'g1', details: { team_id: TEAM, changed, ...more } }));
    expect(g(['display_name'], { display_name: 'Accounts' })).toMatchObject({ key: 'enterprise.log.groupRenamed', groupId: 'g1', groupName: 'Accounts', userId: null });
    expect(g(['members']).key).toBe('enterprise.log.groupMembersChanged');
    expect(g(['display_name', 'members']).key).toBe('enterprise.log.groupRenamedAndMembers');
    expect(g([]).key).toBe('enterprise.log.groupUpdated');
    expect(g('members').key).toBe('enterprise.log.groupUpdated'); // not a list: nothing known
    expect(provisioningWords(entry({ event: 'scim.group_created', target: 'g1', details: { display_name: 'Finance' } }))).toMatchObject({ key: 'enterprise.log.groupPushed', groupName: 'Finance' });
    expect(provisioningWords(entry({ event: 'scim.group_deleted', target: 'g1' })).key).toBe('enterprise.log.groupDeleted');
  });

  test('a group is called by its current name, else the latest name the log gave it', () => {
    const entries = [
      entry({ id: '4', event: 'scim.group_deleted', target: 'g2' }),
      entry({ id: '3', event: 'scim.group_updated', target: 'g2', details: { changed: ['display_name'], display_name: 'Payroll' } }),
      entry({ id: '2', event: 'scim.group_created', target: 'g2', details: { display_name: 'Pay' } }),
      entry({ id: '1', event: 'scim.group_created', target: 'g1', details: { display_name: 'Fin' } }),
    ];
    const names = groupNames(entries, [{ id: 'g1', displayName: 'Finance' }]);
    expect(names.get('g1')).toBe('Finance');
    expect(names.get('g2')).toBe('Payroll');
    expect(names.get('g3')).toBeUndefined();
  });

  test('the users named, and the filter: this team’s SCIM events, a page of ten, accepted by the service', () => {
    expect(provisionedUserIds([entry({ userId: 'u1' }), entry({ event: 'scim.group_created', target: 'g1' }), entry({ event: 'scim.user_deleted', target: 'u2' })])).toEqual(['u1', 'u2']);
    const f = provisioningFilter(TEAM);
    expect(f).toEqual({ events: ['scim'], teamId: TEAM, limit: 10 });
    const q = Object.fromEntries(new URLSearchParams(auditLogQuery(f)));
    expect(q).toEqual({ event: 'scim', team_id: TEAM, limit: '10' });
    // Checked as the service checks it (its uuid format included).
    expect(schemaProblems(AuditLogQuery, { event: q.event, team_id: q.team_id, limit: 10 })).toEqual([]);
    expect(schemaProblems(AuditLogQuery, { event: q.event, team_id: 'not-a-uuid', limit: 10 }).map((p) => p.path)).toEqual(['/team_id']);
    expect(Object.keys(AuditLogQuery.properties)).toContain('team_id');
  });

  test('the name in the words: a user label, else the provider\'s name, else deleted or still loading; a group then and now', () => {
    const user = provisioningWords(entry({ event: 'scim.user_updated', userId: 'u1' }));
    const groups = new Map([['g1', 'Finance team']]);
    expect(subjectName(user, 'peter@initech.example', groups)).toEqual({ text: 'peter@initech.example' });
    expect(subjectName(user, undefined, groups)).toEqual({ key: 'enterprise.logLoading' });
    expect(subjectName(user, null, groups)).toEqual({ key: 'enterprise.logDeletedUser' });
    const provisioned = provisioningWords(entry({ event: 'scim.user_provisioned', userId: 'u1', details: { user_name: 'peter' } }));
    expect(subjectName(provisioned, null, groups)).toEqual({ text: 'peter' });
    expect(subjectName(provisioningWords(entry({ event: 'scim.group_created', target: 'g1', details: { display_name: 'Finance' } })), undefined, groups)).toEqual({ text: 'Finance' });
    expect(subjectName(provisioningWords(entry({ event: 'scim.group_updated', target: 'g1', details: { changed: ['members'] } })), undefined, groups)).toEqual({ text: 'Finance team' });
    expect(subjectName(provisioningWords(entry({ event: 'scim.group_deleted', target: 'g9' })), undefined, groups)).toEqual({ text: 'g9' });
    for (const key of ['enterprise.logLoading', 'enterprise.logDeletedUser', 'enterprise.logTokenUnknown', 'enterprise.logTokenRevoked'] as const) expect(en[key]).toBeString();
  });

  test('the token: its description, untitled, revoked since, or not named', () => {
    const tokens = [{ id: 't1', description: 'Okta' }, { id: 't2', description: '' }];
    expect(tokenName('t1', tokens)).toEqual({ text: 'Okta' });
    expect(tokenName('t2', tokens)).toEqual({ key: 'enterprise.untitled' });
    expect(tokenName('t3', tokens)).toEqual({ key: 'enterprise.logTokenRevoked' });
    expect(tokenName(null, tokens)).toEqual({ key: 'enterprise.logTokenUnknown' });
  });
});
