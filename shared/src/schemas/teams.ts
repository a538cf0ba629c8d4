// Teams as returned in user objects and by /teams, and the /teams inputs (protocol-resources §2).
import { Type, type Static } from '@sinclair/typebox';
import { DisplayNameText, Json, MetadataInput, Millis, Nullable, Strict, Url, UserIdOrMe, Uuid, List } from './common.ts';

export const ClientTeam = Strict({
  id: Uuid(),
  display_name: Type.String(),
  profile_image_url: Nullable(Type.String()),
  client_metadata: Json(),
  client_read_only_metadata: Json(),
});
export const ClientTeamList = List(ClientTeam);
export type ClientTeam = Static<typeof ClientTeam>;

export const ServerTeam = Strict({
  id: Uuid(),
  display_name: Type.String(),
  profile_image_url: Nullable(Type.String()),
  client_metadata: Json(),
  client_read_only_metadata: Json(),
  server_metadata: Json(),
  created_at_millis: Millis(),
});
export const ServerTeamList = List(ServerTeam);
export type ServerTeam = Static<typeof ServerTeam>;

const ProfileImageUrl = () => Nullable(Url({ maxLength: 1_000_000 }));

/** Query of `GET /teams`. */
export const TeamListQuery = Strict({ user_id: Type.Optional(UserIdOrMe()) });
/** Deprecated query of `POST /teams` (use `creator_user_id` instead). */
export const TeamCreateQuery = Strict({ add_current_user: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])) });
export const TeamParams = Strict({ team_id: Uuid() });

const clientTeamWritable = {
  display_name: DisplayNameText(),
  profile_image_url: Type.Optional(ProfileImageUrl()),
  client_metadata: Type.Optional(MetadataInput()),
};
const serverTeamWritable = {
  ...clientTeamWritable,
  client_read_only_metadata: Type.Optional(MetadataInput()),
  server_metadata: Type.Optional(MetadataInput()),
};

export const ClientTeamCreate = Strict({ ...clientTeamWritable, creator_user_id: Type.Optional(UserIdOrMe()) });
export type ClientTeamCreate = Static<typeof ClientTeamCreate>;
export const ServerTeamCreate = Strict({ ...serverTeamWritable, creator_user_id: Type.Optional(UserIdOrMe()) });
export type ServerTeamCreate = Static<typeof ServerTeamCreate>;

export const ClientTeamUpdate = Strict({ ...clientTeamWritable, display_name: Type.Optional(DisplayNameText()) });
export type ClientTeamUpdate = Static<typeof ClientTeamUpdate>;
export const ServerTeamUpdate = Strict({ ...serverTeamWritable, display_name: Type.Optional(DisplayNameText()) });
export type ServerTeamUpdate = Static<typeof ServerTeamUpdate>;
