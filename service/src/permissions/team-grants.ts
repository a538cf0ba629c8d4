// Team permissions of members (protocol-resources §6): listed directly or with everything contained, granted and
// revoked with their team_permission.* events in the same transaction.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { isSystemPermission } from '@gatehouse/shared/rules/permissions';
import type { DB } from '../db';
import type { Services } from '../services';
import { definitionGraph, findDefinition } from '../repo/permission-definitions';
import * as grants from '../repo/permissions';
import * as members from '../repo/team-members';
import * as users from '../repo/users';
import type { Caller } from '../auth/caller';
import { assertListable, cmp, expandByHolder } from './listing';

export interface TeamGrant { id: string; teamId: string; userId: string }

export async function listTeamPermissions(services: Services, input: { caller: Caller; teamId?: string; userId?: string; permissionId?: string; recursive: boolean }): Promise<TeamGrant[]> {
  const { caller, userId } = input;
  assertListable(caller, userId);
  const direct = await grants.listTeamGrants(services.db, caller.project.id, { teamId: input.teamId, userId });
  let items = direct.map((g) => ({ id: g.permissionId, teamId: g.teamId, userId: g.userId }));
  if (input.recursive && direct.length) {
    const graph = await definitionGraph(services.db, caller.project.id, 'team');
    items = expandByHolder(direct, graph, (g) => `${g.teamId}/${g.userId}`, (g, id) => ({ id, teamId: g.teamId, userId: g.userId }));
  }
  if (input.permissionId !== undefined) items = items.filter((i) => i.id === input.permissionId);
  return items.sort((a, b) => cmp(a.teamId, b.teamId) || cmp(a.userId, b.userId) || cmp(a.id, b.id));
}

/** USER_NOT_FOUND, then TEAM_MEMBERSHIP_NOT_FOUND. */
async function assertMember(db: DB, projectId: string, teamId: string, userId: string) {
  if (!(await users.exists(db, projectId, userId))) throw new KnownErrors.UserNotFound();
  if (!(await members.isMember(db, projectId, teamId, userId, 'share'))) throw new KnownErrors.TeamMembershipNotFound(teamId, userId);
}

export async function grantTeamPermission(services: Services, input: TeamGrant & { projectId: string }): Promise<void> {
  const { projectId, teamId, userId, id } = input;
  await services.db.transaction(async (tx) => {
    await assertMember(tx, projectId, teamId, userId);
    if (!isSystemPermission(id)) {
      const def = await findDefinition(tx, projectId, id, 'share');
      if (!def || def.scope !== 'team') throw new KnownErrors.PermissionNotFound(id);
    }
    if (await grants.grantTeamPermission(tx, projectId, teamId, userId, id)) {
      await services.events.emit(tx, projectId, 'team_permission.created', { id, team_id: teamId, user_id: userId });
    }
  });
}

export async function revokeTeamPermission(services: Services, input: TeamGrant & { projectId: string }): Promise<void> {
  const { projectId, teamId, userId, id } = input;
  await services.db.transaction(async (tx) => {
    await assertMember(tx, projectId, teamId, userId);
    if (!(await grants.revokeTeamPermission(tx, projectId, teamId, userId, id))) {
      throw new KnownErrors.TeamPermissionNotFound(teamId, userId, id);
    }
    await services.events.emit(tx, projectId, 'team_permission.deleted', { id, team_id: teamId, user_id: userId });
  });
}
