// The team as the API shows it to clients, and to servers and admins (also the data of the team.* webhook events).
import type { ClientTeam, ServerTeam } from '@gatehouse/shared/schemas/teams';
import type { TeamRow } from '../repo/teams';

export function clientTeamView(row: TeamRow): ClientTeam {
  return {
    id: row.id,
    display_name: row.displayName,
    profile_image_url: row.profileImageUrl,
    client_metadata: row.clientMetadata ?? null,
    client_read_only_metadata: row.clientReadOnlyMetadata ?? null,
  };
}

export function serverTeamView(row: TeamRow): ServerTeam {
  return { ...clientTeamView(row), created_at_millis: row.createdAt.getTime(), server_metadata: row.serverMetadata ?? null };
}

/** The team as the caller's access type sees it. */
export function teamViewFor(type: 'client' | 'server' | 'admin', row: TeamRow): ClientTeam | ServerTeam {
  return type === 'client' ? clientTeamView(row) : serverTeamView(row);
}
