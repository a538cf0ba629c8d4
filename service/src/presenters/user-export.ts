// The export document of GET /users/me/export: the client views of each part; OAuth accounts without tokens.
import type { UserDataExport } from '@gatehouse/shared/schemas/user-export';
import type { UserRow } from '../repo/users';
import type { ChannelRow } from '../repo/contact-channels';
import type { TeamRow } from '../repo/teams';
import type { OAuthAccountRow } from '../repo/oauth-accounts';
import type { SessionRow } from '../repo/sessions';
import type { IpInfo } from '../repo/activity';
import { clientUserView } from './users';
import { contactChannelView } from './contact-channels';
import { sessionView } from './sessions';
import { clientTeamView } from './teams';

export function userExportView(e: {
  projectId: string; user: UserRow; channels: ChannelRow[]; teams: TeamRow[]; oauth: OAuthAccountRow[]; exportedAt: Date;
  sessions: { row: SessionRow; lastUsedAt: Date | null; ipInfo: IpInfo | null }[]; currentSessionId?: string;
}): UserDataExport {
  return {
    exported_at_millis: e.exportedAt.getTime(),
    project_id: e.projectId,
    user: clientUserView(e.user),
    contact_channels: e.channels.map(contactChannelView),
    sessions: e.sessions.map((s) => sessionView(s.row, s.lastUsedAt, s.ipInfo as never, e.currentSessionId)),
    teams: e.teams.map(clientTeamView),
    oauth_accounts: e.oauth.map((a) => ({
      provider_id: a.providerId, account_id: a.providerAccountId, email: a.email, used_for_auth: a.usedForAuth, connected_at_millis: a.createdAt.getTime(),
    })),
  };
}
