// Project API key sets (protocol-resources §11.1).
import { Type, type Static } from '@sinclair/typebox';
import { DescriptionText, Millis, Strict, Uuid, List } from './common.ts';

const LastFour = Strict({ last_four: Type.String() });

export const ApiKeySet = Strict({
  id: Uuid(),
  description: Type.String(),
  expires_at_millis: Millis(),
  manually_revoked_at_millis: Type.Optional(Millis()),
  created_at_millis: Millis(),
  publishable_client_key: Type.Optional(LastFour),
  secret_server_key: Type.Optional(LastFour),
  super_secret_admin_key: Type.Optional(LastFour),
});
export const ApiKeySetList = List(ApiKeySet);
export type ApiKeySet = Static<typeof ApiKeySet>;

export const ApiKeySetFirstView = Strict({
  id: Uuid(),
  description: Type.String(),
  expires_at_millis: Millis(),
  created_at_millis: Millis(),
  publishable_client_key: Type.Optional(Type.String()),
  secret_server_key: Type.Optional(Type.String()),
  super_secret_admin_key: Type.Optional(Type.String()),
});
export type ApiKeySetFirstView = Static<typeof ApiKeySetFirstView>;

export const ApiKeySetCreate = Strict({
  description: DescriptionText(),
  // Bounded to what a Date (and a Postgres timestamp) can hold.
  expires_at_millis: Type.Number({ minimum: 0, maximum: 8_640_000_000_000_000 }),
  has_publishable_client_key: Type.Boolean(),
  has_secret_server_key: Type.Boolean(),
  has_super_secret_admin_key: Type.Boolean(),
});

export const ApiKeySetUpdate = Strict({
  description: Type.Optional(DescriptionText()),
  revoked: Type.Optional(Type.Literal(true)),
});

export const ApiKeySetParams = Strict({ api_key_id: Uuid() });
