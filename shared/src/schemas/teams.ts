// Teams as returned in user objects and by /teams (protocol-resources §2.1).
import { Type, type Static } from '@sinclair/typebox';
import { Json, Millis, Nullable, Strict, Uuid } from './common.ts';

export const ClientTeam = Strict({
  id: Uuid(),
  display_name: Type.String(),
  profile_image_url: Nullable(Type.String()),
  client_metadata: Json(),
  client_read_only_metadata: Json(),
});
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
export type ServerTeam = Static<typeof ServerTeam>;
