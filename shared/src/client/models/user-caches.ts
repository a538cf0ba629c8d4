// The server's user reads by id and by page. Apart from the user model (server-user.ts) because the connected-account
// reads also look a user up: with these here, neither needs the other at run time.
import { hasCode } from '../known-error-catalogue.ts';
import { query, type ServerContext } from './common.ts';
import type { ServerUserJson, ServerUserPageJson } from '../wire.ts';

export function serverUserCache(ctx: ServerContext) {
  return ctx.core.cache(`server-user:${ctx.access}`, async ([userId]: [string]): Promise<ServerUserJson | null> => {
    try {
      return await ctx.core.json<ServerUserJson>(`/users/${encodeURIComponent(userId)}`, {}, null, ctx.access);
    } catch (err) {
      if (hasCode('USER_NOT_FOUND')(err)) return null;
      throw err;
    }
  });
}

/** Gatehouse's filters of the user list and its CSV export (not in Stack Auth's SDK). */
export type UserFilterOptions = { emailVerified?: boolean; hasPassword?: boolean; hasMfa?: boolean; signedInWithinDays?: number };

export type ListUsersOptions = { cursor?: string; limit?: number; orderBy?: 'signedUpAt'; desc?: boolean; query?: string } & UserFilterOptions;

/** The filters as the service's query parameters. */
export function userFilterQuery(o: UserFilterOptions = {}) {
  return { email_verified: o.emailVerified, has_password: o.hasPassword, has_mfa: o.hasMfa, signed_in_within_days: o.signedInWithinDays };
}

// The filters are separate values of the key: the cache compares objects by identity, values by value.
type UsersListKey = [
  cursor: string | undefined, limit: number | undefined, orderBy: string | undefined, desc: boolean | undefined, query: string | undefined,
  emailVerified?: boolean, hasPassword?: boolean, hasMfa?: boolean, signedInWithinDays?: number,
];

export function usersListKey(o: ListUsersOptions = {}): UsersListKey {
  return [o.cursor, o.limit, o.orderBy, o.desc, o.query, o.emailVerified, o.hasPassword, o.hasMfa, o.signedInWithinDays];
}

export function usersListCache(ctx: ServerContext) {
  return ctx.core.cache(`server-users:${ctx.access}`, ([cursor, limit, orderBy, desc, q, emailVerified, hasPassword, hasMfa, signedInWithinDays]: UsersListKey) =>
    ctx.core.json<ServerUserPageJson>(
      `/users${query({ cursor, limit, desc, order_by: orderBy === 'signedUpAt' ? 'signed_up_at' : orderBy, query: q, ...userFilterQuery({ emailVerified, hasPassword, hasMfa, signedInWithinDays }) })}`,
      {},
      null,
      ctx.access,
    ),
  );
}
