// Which parts of a team's settings page a member sees (client-library §7.7, seed §6), from their recursive
// permissions in that team. Pure: the table is unit-tested row by row.

export const TEAM_PERMISSIONS = ['$update_team', '$read_members', '$invite_members', '$remove_members', '$manage_api_keys'] as const;

export interface TeamSections {
  /** Every member: their own name in the team, and Leave Team. */
  teamUserName: true;
  leaveTeam: true;
  profileImage: boolean;
  displayName: boolean;
  members: boolean;
  /** The members table itself (the service lists members only with $read_members). */
  readMembers: boolean;
  invite: boolean;
  invitations: boolean;
  revokeInvitation: boolean;
  /** Remove another member from the members table. */
  removeMembers: boolean;
  apiKeys: boolean;
}

export function teamSections(permissionIds: readonly string[], o: { allowTeamApiKeys?: boolean } = {}): TeamSections {
  const has = (id: string) => permissionIds.includes(id);
  return {
    teamUserName: true,
    leaveTeam: true,
    profileImage: has('$update_team'),
    displayName: has('$update_team'),
    members: has('$read_members') || has('$invite_members'),
    readMembers: has('$read_members'),
    invite: has('$invite_members'),
    invitations: has('$invite_members') && has('$read_members'),
    revokeInvitation: has('$invite_members') && has('$read_members') && has('$remove_members'),
    removeMembers: has('$read_members') && has('$remove_members'),
    // The service refuses team keys when the project does not allow them: no point offering the section.
    apiKeys: has('$manage_api_keys') && (o.allowTeamApiKeys ?? true),
  };
}
