// Sessions as listed by GET /auth/sessions (protocol-auth §2.8).
import { Type, type Static } from '@sinclair/typebox';
import { Millis, Nullable, Strict, Uuid } from './common.ts';

export const EndUserIpInfo = Strict({
  ip: Type.String(),
  countryCode: Nullable(Type.String()),
  regionCode: Nullable(Type.String()),
  cityName: Nullable(Type.String()),
  latitude: Nullable(Type.Number()),
  longitude: Nullable(Type.Number()),
  tzIdentifier: Nullable(Type.String()),
});

export const Session = Strict({
  id: Uuid(),
  user_id: Uuid(),
  created_at: Millis(),
  is_impersonation: Type.Boolean(),
  last_used_at: Type.Optional(Millis()),
  is_current_session: Type.Boolean(),
  last_used_at_end_user_ip_info: Type.Optional(EndUserIpInfo),
});
export type Session = Static<typeof Session>;
