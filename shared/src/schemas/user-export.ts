// GET /users/me/export (issue 30, ASVS 8.3.2; Gatehouse's own): what the service holds about the signed-in user, as
// the user may see it, in one JSON document: the profile, contact channels, live sessions, teams and connected OAuth
// accounts (never a provider token, password hash or TOTP secret).
import { Type, type Static } from '@sinclair/typebox';
import { Millis, Nullable, Strict } from './common.ts';
import { ClientUser } from './users.ts';
import { ContactChannel } from './contact-channels.ts';
import { Session } from './sessions.ts';
import { ClientTeam } from './teams.ts';

export const ExportedOAuthAccount = Strict({
  provider_id: Type.String(),
  account_id: Type.String(),
  email: Nullable(Type.String()),
  used_for_auth: Type.Boolean(),
  connected_at_millis: Millis(),
});

export const UserDataExport = Strict({
  exported_at_millis: Millis(),
  project_id: Type.String(),
  user: ClientUser,
  contact_channels: Type.Array(ContactChannel),
  sessions: Type.Array(Session),
  teams: Type.Array(ClientTeam),
  oauth_accounts: Type.Array(ExportedOAuthAccount),
});
export type UserDataExport = Static<typeof UserDataExport>;
