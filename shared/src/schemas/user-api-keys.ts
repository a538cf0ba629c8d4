// User and team API keys (protocol-resources §11.2). `value` is the full secret in the creation response only;
// every later read carries `{last_four}`.
import { Type, type Static } from '@sinclair/typebox';
import { DescriptionText, Millis, Nullable, Strict, UserIdOrMe, Uuid } from './common.ts';

const LastFour = Strict({ last_four: Type.String() });
// Bounded to what a Date (and a Postgres timestamp) can hold.
const ExpiresAt = () => Nullable(Type.Number({ minimum: 0, maximum: 8_640_000_000_000_000 }));

const common = {
  created_at_millis: Millis(),
  description: Type.String(),
  expires_at_millis: Type.Optional(Millis()),
  id: Uuid(),
  is_public: Type.Boolean(),
  manually_revoked_at_millis: Type.Optional(Millis()),
};

export const UserApiKey = Strict({ ...common, type: Type.Literal('user'), user_id: Uuid(), value: LastFour });
export const UserApiKeyFirstView = Strict({ ...common, type: Type.Literal('user'), user_id: Uuid(), value: Type.String() });
export const TeamApiKey = Strict({ ...common, type: Type.Literal('team'), team_id: Uuid(), value: LastFour });
export const TeamApiKeyFirstView = Strict({ ...common, type: Type.Literal('team'), team_id: Uuid(), value: Type.String() });
export type UserApiKey = Static<typeof UserApiKey>;
export type TeamApiKey = Static<typeof TeamApiKey>;

const createCommon = {
  description: DescriptionText(),
  /** null or omitted: the key never expires. */
  expires_at_millis: Type.Optional(ExpiresAt()),
  is_public: Type.Optional(Type.Boolean()),
};
export const UserApiKeyCreate = Strict({ ...createCommon, user_id: UserIdOrMe() });
export const TeamApiKeyCreate = Strict({ ...createCommon, team_id: Uuid() });

/** Clients may rename or revoke (one way); servers may also move the expiry. */
export const ApiKeyClientUpdate = Strict({
  description: Type.Optional(DescriptionText()),
  revoked: Type.Optional(Type.Literal(true)),
});
export const ApiKeyServerUpdate = Strict({
  description: Type.Optional(DescriptionText()),
  expires_at_millis: Type.Optional(ExpiresAt()),
  revoked: Type.Optional(Type.Literal(true)),
});

export const UserApiKeyQuery = Strict({ user_id: Type.Optional(UserIdOrMe()) });
export const TeamApiKeyQuery = Strict({ team_id: Type.Optional(Uuid()) });
export const ApiKeyParams = Strict({ api_key_id: Uuid() });
export const ApiKeyCheck = Strict({ api_key: Type.String() });
