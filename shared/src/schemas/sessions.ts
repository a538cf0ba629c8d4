// Sessions as listed by GET /auth/sessions (protocol-auth §2.8).
import { Type, type Static } from '@sinclair/typebox';
import { MAX_SERVER_SESSION_LIFETIME_MS } from '../constants.ts';
import { Millis, Nullable, Strict, UserIdOrMe, Uuid, List } from './common.ts';

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
  /** Gatehouse's addition to the protocol's shape: the user agent of the browser that signed in, when one did. */
  user_agent: Type.Optional(Type.String()),
});
export const SessionList = List(Session);
export type Session = Static<typeof Session>;

/** POST /auth/sessions (server side; impersonation). */
export const SessionCreateBody = Strict({
  user_id: UserIdOrMe(),
  expires_in_millis: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_SERVER_SESSION_LIFETIME_MS })),
  is_impersonation: Type.Optional(Type.Boolean()),
});
export const SessionTokens = Strict({ access_token: Type.String(), refresh_token: Type.String() });
export const RefreshedAccessToken = Strict({ access_token: Type.String() });
export const SessionListQuery = Strict({ user_id: UserIdOrMe() });
export const SessionParams = Strict({ id: Uuid() });
export const SessionDeleteQuery = Strict({ user_id: Type.Optional(UserIdOrMe()) });
