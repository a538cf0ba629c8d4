// The Audit log screen's rules outside any component: the kind choices (every event of the contract worded by the
// catalogue), the time ranges, the filter asked for, the actor and subject of an entry, the facts shown.
import { describe, expect, test } from 'bun:test';
import { AUDIT_EVENTS, AUDIT_EVENT_GROUPS, AuditLogQuery } from '@gatehouse/shared/schemas/audit-log';
import type { AuditLogEntry } from '@gatehouse/shared/client';
import {
  NO_AUDIT_FILTER, actorWords, auditFilter, detailFacts, eventTone, isFilteredLog, isKind, kindChoices, rangeStart, subjectOf, userIdsOf,
} from '../src/renderer/lib/audit-log';
import { schemaProblems } from '../src/renderer/lib/schema-check';
import { en } from '../src/renderer/messages/en';

const entry = (o: Partial<AuditLogEntry>): AuditLogEntry => ({
  id: '1', event: 'sign_in.succeeded', actor: { kind: 'client', userId: null, ip: '127.0.0.1' }, userId: null, target: null, details: {},
  requestId: null, createdAt: new Date(0), ...o,
});

describe('audit log rules', () => {
  test('every event and group is offered, worded by the catalogue, and accepted by the service', () => {
    const offered = kindChoices().flatMap((c) => c.kinds);
    expect(offered.filter((k) => k.includes('.')).sort()).toEqual([...AUDIT_EVENTS].sort());
    for (const g of AUDIT_EVENT_GROUPS) expect(en).toHaveProperty([`audit.group.${g}`]);
    for (const k of offered) {
      expect(en).toHaveProperty([k.includes('.') ? `audit.event.${k}` : `audit.all.${k}`]);
      expect(schemaProblems(AuditLogQuery, { event: k })).toEqual([]);
    }
    // A group of one event is offered as that event only.
    expect(kindChoices().find((c) => c.group === 'access')!.kinds).toEqual(['access.refused']);
    expect(kindChoices().find((c) => c.group === 'sign_in')!.kinds).toEqual(['sign_in', 'sign_in.succeeded', 'sign_in.failed', 'sign_in.locked_out']);
  });

  test('time ranges start that long before now; all time has no start', () => {
    const now = Date.UTC(2026, 10, 27, 12);
    expect(rangeStart('24h', now)).toEqual(new Date(Date.UTC(2026, 10, 26, 12)));
    expect(rangeStart('7d', now)).toEqual(new Date(Date.UTC(2026, 10, 20, 12)));
    expect(rangeStart('30d', now)).toEqual(new Date(Date.UTC(2026, 9, 28, 12)));
    expect(rangeStart('all', now)).toBeUndefined();
  });

  test('the filter asks only for what is chosen', () => {
    expect(auditFilter(NO_AUDIT_FILTER, 1_000)).toEqual({});
    expect(isFilteredLog(NO_AUDIT_FILTER)).toBe(false);
    const userId = '7d3f0c9e-1c2b-4d8e-9a6f-0b1c2d3e4f50';
    expect(auditFilter({ kind: 'sign_in', range: '24h', userId }, 86_400_000 + 5, 10)).toEqual({ events: ['sign_in'], userId, since: new Date(5), limit: 10 });
    expect(auditFilter({ kind: 'nonsense', range: 'all', userId: '' }, 0)).toEqual({});
    expect(isKind('sign_in.failed') && isKind('mfa') && !isKind('mfa.nope')).toBe(true);
  });

  test('who acted: a key, the owner, the user signing in, or an anonymous client', () => {
    const u = 'u-1';
    expect(actorWords(entry({ userId: u }))).toEqual({ key: 'audit.actor.user', userId: u });
    expect(actorWords(entry({ event: 'sign_in.failed' }))).toEqual({ key: 'audit.actor.client', userId: null });
    expect(actorWords(entry({ event: 'session.revoked', userId: u, actor: { kind: 'client', userId: u, ip: null } }))).toEqual({ key: 'audit.actor.user', userId: u });
    expect(actorWords(entry({ event: 'password.changed', userId: u, actor: { kind: 'server_key', userId: null, ip: null } }))).toEqual({ key: 'audit.actor.server_key', userId: null });
    expect(actorWords(entry({ event: 'api_key.created', actor: { kind: 'admin_token', userId: 'owner', ip: null } }))).toEqual({ key: 'audit.actor.admin_token', userId: null });
    // The owner who created the project is not a user of it.
    expect(actorWords(entry({ event: 'project.created', actor: { kind: 'client', userId: 'owner', ip: null } }))).toEqual({ key: 'audit.actor.admin_token', userId: null });
    expect(userIdsOf([entry({ userId: u }), entry({ event: 'api_key.created', target: 'k' })])).toEqual([u, u]);
  });

  test('what it concerns, its facts, and its tone', () => {
    expect(subjectOf(entry({ userId: 'u', target: 'u' }))).toEqual({ userId: 'u' });
    expect(subjectOf(entry({ target: 'key-1' }))).toEqual({ id: 'key-1' });
    expect(subjectOf(entry({}))).toBeNull();
    expect(detailFacts(entry({ details: { method: 'password', error: 'EMAIL_PASSWORD_MISMATCH' } }))).toEqual([
      { name: 'method', value: 'password' }, { name: 'error', value: 'EMAIL_PASSWORD_MISMATCH' },
    ]);
    expect(detailFacts(entry({ details: { fields: ['config'], config_fields: ['allow_localhost'], kinds: ['secret_server_key'], expires_at_millis: 5 } }))).toEqual([
      { name: 'kinds', value: 'secret_server_key' }, { name: 'fields', value: 'config, allow_localhost' },
    ]);
    expect(eventTone('sign_in.failed')).toBe('red');
    expect(eventTone('sign_in.locked_out')).toBe('orange');
    expect(eventTone('sign_in.succeeded')).toBe('gray');
  });
});
