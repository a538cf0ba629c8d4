// SCIM Groups of a team (issue 28): the identity provider pushes groups and their members; the owner maps each
// group to team permissions (server or admin API), which its members then hold (group-permissions.ts).
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { isSystemPermission } from '@gatehouse/shared/rules/permissions';
import type { DB } from '../db';
import type { Services } from '../services';
import * as scim from '../repo/scim';
import * as teams from '../repo/teams';
import { findDefinition } from '../repo/permission-definitions';
import { syncScimGrants } from './group-permissions';
import { applyMemberChanges, parseGroupPatch, parseGroupResource, type MemberChange } from './group-resource';
import { scimInvalidValue, scimNotFound, scimUniqueness } from './scim-error';
import { parseGroupFilter } from './filter';
import type { ScimCaller } from './tokens';
import type { ScimPage } from './users';
import { logProvisioning } from './provisioning-log';

export interface ScimGroupRecord { group: scim.ScimGroupRow; members: scim.GroupMember[] }

async function withMembers(db: DB, caller: ScimCaller, rows: scim.ScimGroupRow[]): Promise<ScimGroupRecord[]> {
  const members = await scim.membersOf(db, caller.project.id, caller.teamId, rows.map((r) => r.id));
  return rows.map((group) => ({ group, members: members.filter((m) => m.groupId === group.id) }));
}

/** Sets the group's members to `wanted` (provisioned users of the team only) and brings their grants along. */
async function setMembers(tx: DB, services: Services, caller: ScimCaller, groupId: string, current: string[], wanted: Set<string>) {
  const { project, teamId } = caller;
  const known = await scim.provisionedAmong(tx, project.id, teamId, [...wanted]);
  const unknown = [...wanted].filter((id) => !known.has(id) && !current.includes(id));
  if (unknown.length > 0) throw scimInvalidValue(`These members are not users of this team's SCIM: ${unknown.slice(0, 10).join(', ')}.`);
  const added = [...wanted].filter((id) => !current.includes(id));
  const removed = current.filter((id) => !wanted.has(id));
  await scim.addMembers(tx, project.id, teamId, groupId, added);
  await scim.removeMembers(tx, project.id, groupId, removed);
  for (const userId of [...added, ...removed]) await syncScimGrants(tx, services.events, project.id, teamId, userId);
}

export async function createScimGroup(services: Services, caller: ScimCaller, body: unknown): Promise<ScimGroupRecord> {
  const fields = parseGroupResource(body);
  const { project, teamId } = caller;
  const id = await services.db.transaction(async (tx) => {
    if (await scim.groupNameTaken(tx, project.id, teamId, fields.displayName)) throw scimUniqueness(`A group named ${fields.displayName} exists already.`);
    const group = await scim.insertGroup(tx, { projectId: project.id, teamId, displayName: fields.displayName, externalId: fields.externalId });
    if (!group) throw scimUniqueness(`A group named ${fields.displayName} or with this externalId exists already.`);
    await setMembers(tx, services, caller, group.id, [], new Set(fields.memberIds));
    return group.id;
  });
  logProvisioning(services, caller, 'scim.group_created', { target: id, details: { display_name: fields.displayName } });
  return getScimGroup(services, caller, id);
}

export async function getScimGroup(services: Services, caller: ScimCaller, groupId: string): Promise<ScimGroupRecord> {
  const group = await scim.findGroup(services.db, caller.project.id, caller.teamId, groupId);
  if (!group) throw scimNotFound('Group', groupId);
  return (await withMembers(services.db, caller, [group]))[0]!;
}

export async function listScimGroups(services: Services, caller: ScimCaller, input: { filter: string | null; page: ScimPage }) {
  const conditions = input.filter ? parseGroupFilter(input.filter) : [];
  const { total, rows } = await scim.listGroups(services.db, caller.project.id, caller.teamId, conditions as scim.GroupCondition[], {
    offset: input.page.startIndex - 1, limit: input.page.count,
  });
  return { total, records: await withMembers(services.db, caller, rows), startIndex: input.page.startIndex };
}

async function changeScimGroup(services: Services, caller: ScimCaller, groupId: string, change: { displayName?: string; externalId?: string | null; members: MemberChange[] }) {
  const { project, teamId } = caller;
  let renamed = false;
  let membersChanged = false;
  await services.db.transaction(async (tx) => {
    const group = await scim.findGroup(tx, project.id, teamId, groupId, 'update');
    if (!group) throw scimNotFound('Group', groupId);
    if (change.displayName !== undefined && change.displayName.toLowerCase() !== group.displayName.toLowerCase()
      && (await scim.groupNameTaken(tx, project.id, teamId, change.displayName, groupId))) {
      throw scimUniqueness(`A group named ${change.displayName} exists already.`);
    }
    if (change.displayName !== undefined || change.externalId !== undefined) {
      await scim.updateGroup(tx, group, { displayName: change.displayName, externalId: change.externalId });
      renamed = change.displayName !== undefined && change.displayName !== group.displayName;
    }
    if (change.members.length > 0) {
      const current = await scim.memberIdsOf(tx, project.id, groupId);
      const next = applyMemberChanges(current, change.members);
      membersChanged = next.size !== current.length || current.some((id) => !next.has(id));
      await setMembers(tx, services, caller, groupId, current, next);
    }
  });
  // What changed, so the log can say "renamed" or "members changed" rather than only "updated".
  const changed = [...(renamed ? ['display_name'] : []), ...(membersChanged ? ['members'] : [])];
  logProvisioning(services, caller, 'scim.group_updated', { target: groupId, details: { changed, ...(renamed ? { display_name: change.displayName } : {}) } });
  return getScimGroup(services, caller, groupId);
}

/** PUT: the name, external id and member list replaced. */
export function replaceScimGroup(services: Services, caller: ScimCaller, groupId: string, body: unknown) {
  const fields = parseGroupResource(body);
  return changeScimGroup(services, caller, groupId, { displayName: fields.displayName, externalId: fields.externalId, members: [{ kind: 'replace', ids: fields.memberIds }] });
}

export function patchScimGroup(services: Services, caller: ScimCaller, groupId: string, body: unknown) {
  return changeScimGroup(services, caller, groupId, parseGroupPatch(body));
}

export async function deleteScimGroup(services: Services, caller: ScimCaller, groupId: string): Promise<void> {
  const { project, teamId } = caller;
  await services.db.transaction(async (tx) => {
    const members = await scim.memberIdsOf(tx, project.id, groupId);
    if (!(await scim.deleteGroup(tx, project.id, teamId, groupId))) throw scimNotFound('Group', groupId);
    for (const userId of members) await syncScimGrants(tx, services.events, project.id, teamId, userId);
  });
  logProvisioning(services, caller, 'scim.group_deleted', { target: groupId });
}

// ---- The owner's side (server or admin API)

export interface OwnerGroupView { group: scim.ScimGroupRow; memberCount: number }

export async function listTeamScimGroups(services: Services, input: { projectId: string; teamId: string }): Promise<OwnerGroupView[]> {
  if (!(await teams.findTeam(services.db, input.projectId, input.teamId))) throw new KnownErrors.TeamNotFound(input.teamId);
  const [{ rows }, counts] = await Promise.all([
    scim.listGroups(services.db, input.projectId, input.teamId, [], { offset: 0, limit: 10_000 }),
    scim.memberCounts(services.db, input.projectId, input.teamId),
  ]);
  return rows.map((group) => ({ group, memberCount: counts.get(group.id) ?? 0 }));
}

/** The team permissions a group's members hold (PERMISSION_NOT_FOUND for an id that is no team permission). */
export async function setScimGroupPermissions(services: Services, input: { projectId: string; teamId: string; groupId: string; permissionIds: string[] }): Promise<OwnerGroupView> {
  const { projectId, teamId, groupId } = input;
  const permissionIds = [...new Set(input.permissionIds)];
  const group = await services.db.transaction(async (tx) => {
    const row = await scim.findGroup(tx, projectId, teamId, groupId, 'update');
    if (!row) throw new KnownErrors.ScimGroupNotFound(groupId);
    await assertTeamPermissions(tx, projectId, permissionIds);
    const updated = await scim.updateGroup(tx, row, { permissionIds });
    for (const userId of await scim.memberIdsOf(tx, projectId, groupId)) await syncScimGrants(tx, services.events, projectId, teamId, userId);
    return updated;
  });
  const counts = await scim.memberCounts(services.db, projectId, teamId);
  return { group, memberCount: counts.get(group.id) ?? 0 };
}

/**
 * A group the owner names before any provider pushes it (GET/POST /teams/{team}/scim-groups): an SSO-only
 * organization's groups, matched by name against the `groups` its assertions carry. A provider that pushes a group of
 * the same name later is told it exists (409), as SCIM says, and finds it by its name.
 */
export async function createTeamGroup(services: Services, input: { projectId: string; teamId: string; displayName: string; permissionIds: string[] }): Promise<OwnerGroupView> {
  const { projectId, teamId } = input;
  if (!(await teams.findTeam(services.db, projectId, teamId))) throw new KnownErrors.TeamNotFound(teamId);
  const permissionIds = [...new Set(input.permissionIds)];
  const group = await services.db.transaction(async (tx) => {
    await assertTeamPermissions(tx, projectId, permissionIds);
    if (await scim.groupNameTaken(tx, projectId, teamId, input.displayName)) throw new KnownErrors.ScimGroupNameTaken(input.displayName);
    const row = await scim.insertGroup(tx, { projectId, teamId, displayName: input.displayName, externalId: null });
    if (!row) throw new KnownErrors.ScimGroupNameTaken(input.displayName);
    return permissionIds.length ? scim.updateGroup(tx, row, { permissionIds }) : row;
  });
  return { group, memberCount: 0 };
}

async function assertTeamPermissions(tx: DB, projectId: string, permissionIds: string[]) {
  for (const id of permissionIds) {
    if (isSystemPermission(id)) continue;
    const def = await findDefinition(tx, projectId, id, 'share');
    if (!def || def.scope !== 'team') throw new KnownErrors.PermissionNotFound(id);
  }
}
