// `GET /internal/metrics` (protocol-resources §12.4): the figures a console charts.
import { Type, type Static } from '@sinclair/typebox';
import { Strict } from './common.ts';
import { ServerUser } from './users.ts';

/** One day (UTC, "YYYY-MM-DD") of a 31-day series: 30 days ago … today. */
export const DailyPoint = Strict({ date: Type.String(), activity: Type.Integer() });

export const Metrics = Strict({
  total_users: Type.Integer(),
  /** Sign-ups per day. */
  daily_users: Type.Array(DailyPoint),
  /** Distinct users with activity (token issued or refreshed) per day. */
  daily_active_users: Type.Array(DailyPoint),
  /** Users per sign-in method: `password`, `otp`, `passkey` or the OAuth provider id (lower case). */
  login_methods: Type.Array(Strict({ method: Type.String(), count: Type.Integer() })),
  recently_registered: Type.Array(ServerUser),
  recently_active: Type.Array(ServerUser),
  /** ISO country code → users whose latest located activity was there. */
  users_by_country: Type.Record(Type.String(), Type.Integer()),
});
export type Metrics = Static<typeof Metrics>;
