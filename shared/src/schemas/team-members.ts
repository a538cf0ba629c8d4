// Team memberships and per-team member profiles (protocol-resources §3, §4).
import { Type, type Static } from '@sinclair/typebox';
import { DisplayNameText, Nullable, Strict, Url, UserIdOrMe, Uuid, List } from './common.ts';
import { ServerUser } from './users.ts';

export const TeamMembershipParams = Strict({ team_id: Uuid(), user_id: UserIdOrMe() });
export const TeamMembership = Strict({ team_id: Uuid(), user_id: Uuid() });
export type TeamMembership = Static<typeof TeamMembership>;
/** `POST /team-memberships/...` takes an empty object (or no body). */
export const TeamMembershipCreate = Type.Optional(Strict({}));

const profileFields = {
  team_id: Uuid(),
  user_id: Uuid(),
  display_name: Nullable(Type.String()),
  profile_image_url: Nullable(Type.String()),
};
export const ClientTeamMemberProfile = Strict(profileFields);
export const ClientTeamMemberProfileList = List(ClientTeamMemberProfile);
export type ClientTeamMemberProfile = Static<typeof ClientTeamMemberProfile>;
export const ServerTeamMemberProfile = Strict({ ...profileFields, user: ServerUser });
export const ServerTeamMemberProfileList = List(ServerTeamMemberProfile);
export type ServerTeamMemberProfile = Static<typeof ServerTeamMemberProfile>;

export const TeamMemberProfileListQuery = Strict({ team_id: Type.Optional(Uuid()), user_id: Type.Optional(UserIdOrMe()) });
export const TeamMemberProfileUpdate = Strict({
  display_name: Type.Optional(DisplayNameText()),
  profile_image_url: Type.Optional(Nullable(Url({ maxLength: 1_000_000 }))),
});
export type TeamMemberProfileUpdate = Static<typeof TeamMemberProfileUpdate>;
