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
/**
 * Gatehouse's additions for a client that may read the team's members ($read_members, or its own profile): the
 * member's primary email (so a roster shows who someone is when they set no name: they were invited by that
 * address) and the team permissions granted to them directly (shown read-only: granting is a server's action).
 */
export const ClientTeamMemberProfile = Strict({
  ...profileFields,
  primary_email: Type.Optional(Nullable(Type.String())),
  team_permission_ids: Type.Optional(Type.Array(Type.String())),
});
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
