// Team permissions from SCIM groups: a provisioned member holds the permissions their groups map to (set by the
// owner on each group). SCIM grants only what the member lacks and revokes only what it granted, so a permission
// an owner granted by hand is never taken away by a group change. Runs inside the caller's transaction, with the
// team_permission.* events.
import type { DB } from '../db';
import type { Events } from '../events';
import * as grants from '../repo/permissions';
import * as members from '../repo/team-members';
import * as scim from '../repo/scim';

export async function syncScimGrants(tx: DB, events: Events, projectId: string, teamId: string, userId: string): Promise<void> {
  // Only a member can hold team permissions: a deactivated user keeps their groups but no grants.
  const wanted = (await members.isMember(tx, projectId, teamId, userId)) ? await scim.mappedPermissions(tx, projectId, teamId, userId) : new Set<string>();
  const held = new Set(await scim.scimGrants(tx, projectId, teamId, userId));
  for (const id of wanted) {
    if (held.has(id)) continue;
    if (await grants.grantTeamPermission(tx, projectId, teamId, userId, id)) {
      await scim.recordScimGrant(tx, projectId, teamId, userId, id);
      await events.emit(tx, projectId, 'team_permission.created', { id, team_id: teamId, user_id: userId });
    }
  }
  for (const id of held) {
    if (wanted.has(id)) continue;
    // Deleting the grant deletes SCIM's record of it (foreign key, on delete cascade).
    if (await grants.revokeTeamPermission(tx, projectId, teamId, userId, id)) {
      await events.emit(tx, projectId, 'team_permission.deleted', { id, team_id: teamId, user_id: userId });
    }
  }
}
