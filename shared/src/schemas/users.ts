// Users: read shapes per access type, and the writable fields (protocol-resources §1).
import { Type, type Static } from '@sinclair/typebox';
import { Base64, DisplayNameText, Json, MetadataInput, Millis, NameText, Nullable, Strict, Url, UserIdOrMe, Uuid, Email, PaginatedList } from './common.ts';
import { ClientTeam, ServerTeam } from './teams.ts';

export const OAuthProviderLink = Strict({ id: Type.String(), account_id: Type.String(), email: Nullable(Type.String()) });

const clientUserFields = {
  id: Uuid(),
  display_name: Nullable(Type.String()),
  primary_email: Nullable(Type.String()),
  primary_email_verified: Type.Boolean(),
  profile_image_url: Nullable(Type.String()),
  signed_up_at_millis: Millis(),
  client_metadata: Json(),
  client_read_only_metadata: Json(),
  has_password: Type.Boolean(),
  auth_with_email: Type.Boolean(),
  otp_auth_enabled: Type.Boolean(),
  passkey_auth_enabled: Type.Boolean(),
  requires_totp_mfa: Type.Boolean(),
  is_anonymous: Type.Boolean(),
  oauth_providers: Type.Array(OAuthProviderLink),
  selected_team_id: Nullable(Uuid()),
};

export const ClientUser = Strict({ ...clientUserFields, selected_team: Nullable(ClientTeam) });
export type ClientUser = Static<typeof ClientUser>;

export const ServerUser = Strict({
  ...clientUserFields,
  selected_team: Nullable(ServerTeam),
  last_active_at_millis: Millis(),
  primary_email_auth_enabled: Type.Boolean(),
  server_metadata: Json(),
});
export const ServerUserPage = PaginatedList(ServerUser);
export type ServerUser = Static<typeof ServerUser>;

const ProfileImageUrl = () => Nullable(Url({ maxLength: 1_000_000 }));

const clientWritable = {
  display_name: Type.Optional(Nullable(DisplayNameText())),
  profile_image_url: Type.Optional(ProfileImageUrl()),
  client_metadata: Type.Optional(MetadataInput()),
  selected_team_id: Type.Optional(Nullable(Uuid())),
  totp_secret_base64: Type.Optional(Nullable(Base64())),
  otp_auth_enabled: Type.Optional(Type.Boolean()),
  passkey_auth_enabled: Type.Optional(Type.Boolean()),
};

export const ClientUserUpdate = Strict(clientWritable);
export type ClientUserUpdate = Static<typeof ClientUserUpdate>;

const serverWritable = {
  ...clientWritable,
  client_read_only_metadata: Type.Optional(MetadataInput()),
  server_metadata: Type.Optional(MetadataInput()),
  primary_email: Type.Optional(Nullable(NameText({ minLength: 1, emptyMessage: 'must not be empty', pattern: '^[^@\\s]+@[^@\\s]+$', patternMessage: 'must be a valid email' }))),
  primary_email_verified: Type.Optional(Type.Boolean()),
  primary_email_auth_enabled: Type.Optional(Type.Boolean()),
  password: Type.Optional(Nullable(Type.String({ maxLength: 70 }))),
  password_hash: Type.Optional(NameText()),
};

export const ServerUserUpdate = Strict({ ...serverWritable, is_anonymous: Type.Optional(Type.Literal(false)) });
export type ServerUserUpdate = Static<typeof ServerUserUpdate>;

export const ServerUserCreate = Strict({
  ...serverWritable,
  is_anonymous: Type.Optional(Type.Boolean()),
  oauth_providers: Type.Optional(Type.Array(Strict({ id: NameText(), account_id: NameText(), email: Type.Optional(Nullable(Email({ maxLength: 1_000 }))) }))),
});
export type ServerUserCreate = Static<typeof ServerUserCreate>;

/**
 * Gatehouse's filters of the user list and its CSV export (not in Stack Auth's API): whether the primary email is
 * verified, whether the user has a password, whether TOTP MFA is on, and whether they signed in (or refreshed a
 * session) within the last N days.
 */
export const UserFilters = {
  email_verified: Type.Optional(Type.Boolean()),
  has_password: Type.Optional(Type.Boolean()),
  has_mfa: Type.Optional(Type.Boolean()),
  signed_in_within_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 36_500 })),
};

export const UserListQuery = Strict({
  ...UserFilters,
  cursor: Type.Optional(Uuid()),
  // Above Number.MAX_SAFE_INTEGER the SQL LIMIT (limit + 1) would overflow bigint.
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
  order_by: Type.Optional(Type.Literal('signed_up_at')),
  desc: Type.Optional(Type.Boolean()),
  query: Type.Optional(NameText()),
  team_id: Type.Optional(Uuid()),
});
export type UserListQuery = Static<typeof UserListQuery>;

/** GET /internal/users/export.csv: the list's filters, search and order, every matching user (no pages). */
export const UserExportQuery = Strict({
  ...UserFilters,
  desc: Type.Optional(Type.Boolean()),
  query: Type.Optional(NameText()),
});
export type UserExportQuery = Static<typeof UserExportQuery>;

/** The export's columns, in order (the first line of the CSV). */
export const USER_EXPORT_COLUMNS = [
  'id', 'primary_email', 'primary_email_verified', 'display_name', 'has_password', 'has_mfa', 'signed_up_at', 'last_active_at',
] as const;

/** POST /users: every field optional, and the body itself may be omitted. */
export const ServerUserCreateBody = Type.Optional(ServerUserCreate);
export const UserParams = Strict({ user_id: UserIdOrMe() });
