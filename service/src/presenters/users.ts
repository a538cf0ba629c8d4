// The user as the API shows it (protocol-resources §1.1): to clients, and to servers and admins (also the data of the
// user.* webhook events). Built from the repository's row (repo/users.ts `UserRow`).
import type { ClientUser, ServerUser } from '@gatehouse/shared/schemas/users';
import type { UserRow } from '../repo/users';

const millis = (v: Date | string | number) => (v instanceof Date ? v.getTime() : typeof v === 'number' ? v : new Date(v).getTime());
const parseJson = <T>(v: T | string): T => (typeof v === 'string' ? JSON.parse(v) : v);

export function clientUserView(u: UserRow): ClientUser {
  const team = u.selected_team ? parseJson(u.selected_team) : null;
  return {
    id: u.id,
    display_name: u.display_name,
    primary_email: u.primary_email,
    primary_email_verified: !!u.primary_email_verified,
    profile_image_url: u.profile_image_url,
    signed_up_at_millis: millis(u.created_at),
    client_metadata: u.client_metadata ?? null,
    client_read_only_metadata: u.client_read_only_metadata ?? null,
    has_password: u.has_password,
    auth_with_email: u.has_password || u.otp_auth_enabled,
    otp_auth_enabled: u.otp_auth_enabled,
    passkey_auth_enabled: u.passkey_auth_enabled,
    requires_totp_mfa: u.requires_totp_mfa,
    is_anonymous: u.is_anonymous,
    oauth_providers: parseJson(u.oauth_providers),
    selected_team_id: team?.id ?? null,
    selected_team: team && {
      id: team.id, display_name: team.display_name, profile_image_url: team.profile_image_url,
      client_metadata: team.client_metadata ?? null, client_read_only_metadata: team.client_read_only_metadata ?? null,
    },
  };
}

/** `pendingActivity`: last activity not yet written by the activity recorder. */
export function serverUserView(u: UserRow, pendingActivity?: Date): ServerUser {
  const base = clientUserView(u);
  const team = u.selected_team ? parseJson(u.selected_team) : null;
  const lastActive = Math.max(millis(u.last_active_at ?? u.created_at), pendingActivity?.getTime() ?? 0);
  return {
    ...base,
    selected_team: team && {
      ...base.selected_team!,
      server_metadata: team.server_metadata ?? null,
      created_at_millis: Number(team.created_at_millis),
    },
    last_active_at_millis: lastActive,
    primary_email_auth_enabled: !!u.primary_email_auth_enabled,
    server_metadata: u.server_metadata ?? null,
  };
}

/** The user as the caller's access type sees it. */
export function userViewFor(type: 'client' | 'server' | 'admin', u: UserRow, pendingActivity?: Date): ClientUser | ServerUser {
  return type === 'client' ? clientUserView(u) : serverUserView(u, pendingActivity);
}
