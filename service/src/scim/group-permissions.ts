// Team permissions from the identity provider's groups: a member holds the permissions their groups map to (set by
// the owner on each group). The groups come from SCIM (its group memberships) or, for a member SCIM did not
// provision, from the `groups` the SSO assertion or ID token names at each sign-in. Gatehouse grants only what the
// member lacks and revokes only what it granted this way, so a permission an owner granted by hand is never taken
// away by a group change. Runs inside the caller's transaction, with the team_permission.* events.
import type { DB } from '../db';
import type { Events } from '../events';
import * as grants from '../repo/permissions';
import * as members from '../repo/team-members';
import * as scim from '../repo/scim';

async function syncGroupGrants(tx: DB, events: Events, projectId: string, teamId: string, userId: string, mapped: Set<string>): Promise<void> {
  // Only a member can hold team permissions: a deactivated user keeps their groups but no grants.
  const wanted = (await members.isMember(tx, projectId, teamId, userId)) ? mapped : new Set<string>();
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
    // Deleting the grant deletes the record of it (foreign key, on delete cascade).
    if (await grants.revokeTeamPermission(tx, projectId, teamId, userId, id)) {
      await events.emit(tx, projectId, 'team_permission.deleted', { id, team_id: teamId, user_id: userId });
    }
  }
}

/** A SCIM-provisioned member: the permissions of the SCIM groups they are in. */
export async function syncScimGrants(tx: DB, events: Events, projectId: string, teamId: string, userId: string): Promise<void> {
  await syncGroupGrants(tx, events, projectId, teamId, userId, await scim.mappedPermissions(tx, projectId, teamId, userId));
}

/**
 * At an SSO sign-in: the permissions of the team's groups named in the assertion's (or ID token's) `groups`. A member
 * SCIM provisioned is left to SCIM, whose group memberships are the provider's own word on it.
 */
export async function syncSsoGroupGrants(tx: DB, events: Events, projectId: string, teamId: string, userId: string, groupNames: string[]): Promise<void> {
  if (await scim.isProvisioned(tx, projectId, teamId, userId)) return;
  await syncGroupGrants(tx, events, projectId, teamId, userId, await scim.permissionsOfGroupNames(tx, projectId, teamId, groupNames));
}
