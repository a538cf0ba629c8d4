// A member's team profile (protocol-resources §4): to clients the profile alone, to servers with the member's user.
import type { ClientTeamMemberProfile, ServerTeamMemberProfile } from '@gatehouse/shared/schemas/team-members';
import type { ProfileRow } from '../repo/team-members';
import type { UserRow } from '../repo/users';
import { serverUserView } from './users';

export function clientProfileView(p: ProfileRow): ClientTeamMemberProfile {
  return { team_id: p.teamId, user_id: p.userId, display_name: p.displayName, profile_image_url: p.profileImageUrl };
}

/**
 * With `user` (a server's view) the profile carries the member's user, `pendingActivity` applied; with `roster` (a
 * client's view) the member's primary email and direct team permissions.
 */
export function profileView(
  p: ProfileRow, user: UserRow | undefined, pendingActivity?: Date, roster?: { primaryEmail: string | null; permissionIds: string[] },
): ClientTeamMemberProfile | ServerTeamMemberProfile {
  if (user) return { ...clientProfileView(p), user: serverUserView(user, pendingActivity) };
  return roster ? { ...clientProfileView(p), primary_email: roster.primaryEmail, team_permission_ids: roster.permissionIds } : clientProfileView(p);
}
