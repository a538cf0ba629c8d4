// The Enterprise SSO tab's provisioning log: a team's `scim.*` audit entries put into words (a catalogue key), the
// user or group each concerns and the SCIM token that made the change. Pure: the screen looks names up.
import type { AuditLogEntry, AuditLogFilter } from '@gatehouse/shared/client';

/** The log's page size: the latest changes at a glance, more on request. */
export const PROVISIONING_PAGE = 10;

/** The audit-log filter for one team's SCIM changes. */
export function provisioningFilter(teamId: string): AuditLogFilter {
  return { events: ['scim'], teamId, limit: PROVISIONING_PAGE };
}

export type ProvisioningKey =
  | 'enterprise.log.userProvisioned' | 'enterprise.log.userUpdated' | 'enterprise.log.userDeactivated'
  | 'enterprise.log.userReactivated' | 'enterprise.log.userDeleted' | 'enterprise.log.groupPushed'
  | 'enterprise.log.groupRenamed' | 'enterprise.log.groupMembersChanged' | 'enterprise.log.groupRenamedAndMembers'
  | 'enterprise.log.groupUpdated' | 'enterprise.log.groupDeleted' | 'enterprise.log.other';

export interface ProvisioningWords {
  key: ProvisioningKey;
  /** The user concerned (provisioned, changed or deleted), for a label; null for a group. */
  userId: string | null;
  /** What the identity provider called the user when it was provisioned (a deleted user has no other name). */
  userName: string | null;
  /** The group concerned; null for a user. */
  groupId: string | null;
  /** The group's name as this entry gives it (pushed or renamed to); else null. */
  groupName: string | null;
  /** The SCIM token that made the change (older entries name none). */
  tokenId: string | null;
}

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

const USER_KEYS: Record<string, ProvisioningKey> = {
  'scim.user_provisioned': 'enterprise.log.userProvisioned',
  'scim.user_updated': 'enterprise.log.userUpdated',
  'scim.user_deactivated': 'enterprise.log.userDeactivated',
  'scim.user_reactivated': 'enterprise.log.userReactivated',
  'scim.user_deleted': 'enterprise.log.userDeleted',
};

function groupKey(e: Pick<AuditLogEntry, 'event' | 'details'>): ProvisioningKey {
  if (e.event === 'scim.group_created') return 'enterprise.log.groupPushed';
  if (e.event === 'scim.group_deleted') return 'enterprise.log.groupDeleted';
  const changed = Array.isArray(e.details.changed) ? e.details.changed : [];
  const renamed = changed.includes('display_name');
  const members = changed.includes('members');
  if (renamed && members) return 'enterprise.log.groupRenamedAndMembers';
  if (renamed) return 'enterprise.log.groupRenamed';
  if (members) return 'enterprise.log.groupMembersChanged';
  return 'enterprise.log.groupUpdated';
}

export function provisioningWords(e: Pick<AuditLogEntry, 'event' | 'userId' | 'target' | 'details'>): ProvisioningWords {
  const tokenId = text(e.details.scim_token_id);
  if (e.event.startsWith('scim.user_')) {
    return { key: USER_KEYS[e.event] ?? 'enterprise.log.other', userId: e.userId ?? e.target, userName: text(e.details.user_name), groupId: null, groupName: null, tokenId };
  }
  if (e.event.startsWith('scim.group_')) {
    return { key: groupKey(e), userId: null, userName: null, groupId: e.target, groupName: text(e.details.display_name), tokenId };
  }
  return { key: 'enterprise.log.other', userId: e.userId, userName: null, groupId: e.target, groupName: null, tokenId };
}

/**
 * What to call each group the entries name: its current name if the team still has it, else the newest name an
 * entry gave it (a deleted group), else nothing (the screen shows its id).
 */
export function groupNames(entries: readonly Pick<AuditLogEntry, 'event' | 'userId' | 'target' | 'details'>[], current: readonly { id: string; displayName: string }[]): Map<string, string> {
  const names = new Map<string, string>();
  // Entries are newest first: the first name seen for a group is its latest.
  for (const e of entries) {
    const w = provisioningWords(e);
    if (w.groupId && w.groupName && !names.has(w.groupId)) names.set(w.groupId, w.groupName);
  }
  for (const g of current) names.set(g.id, g.displayName);
  return names;
}

/** Every user id the entries name, for their labels. */
export function provisionedUserIds(entries: readonly Pick<AuditLogEntry, 'event' | 'userId' | 'target' | 'details'>[]): string[] {
  return entries.map((e) => provisioningWords(e).userId).filter((id): id is string => !!id);
}

/**
 * The name an entry's words carry: a user's label (undefined while labels load, null for a deleted user), else the
 * name the provider gave them; a pushed or renamed group as it was called then, another by its name now, else its id.
 */
export function subjectName(w: ProvisioningWords, userLabel: string | null | undefined, groups: ReadonlyMap<string, string>): { text: string } | { key: 'enterprise.logDeletedUser' | 'enterprise.logLoading' } {
  if (w.userId !== null) {
    const text = userLabel ?? w.userName;
    if (text) return { text };
    return { key: userLabel === null ? 'enterprise.logDeletedUser' : 'enterprise.logLoading' };
  }
  return { text: w.groupName ?? (w.groupId ? groups.get(w.groupId) ?? w.groupId : '') };
}

/** The token an entry names: its description, or why none can be shown (revoked since, or an older entry). */
export function tokenName(tokenId: string | null, tokens: readonly { id: string; description: string }[]): { text: string } | { key: 'enterprise.logTokenUnknown' | 'enterprise.logTokenRevoked' | 'enterprise.untitled' } {
  if (tokenId === null) return { key: 'enterprise.logTokenUnknown' };
  const token = tokens.find((tok) => tok.id === tokenId);
  if (!token) return { key: 'enterprise.logTokenRevoked' };
  return token.description ? { text: token.description } : { key: 'enterprise.untitled' };
}
