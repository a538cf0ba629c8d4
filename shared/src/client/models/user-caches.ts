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

export type ListUsersOptions = { cursor?: string; limit?: number; orderBy?: 'signedUpAt'; desc?: boolean; query?: string };

type UsersListKey = [cursor: string | undefined, limit: number | undefined, orderBy: string | undefined, desc: boolean | undefined, query: string | undefined];

export function usersListCache(ctx: ServerContext) {
  return ctx.core.cache(`server-users:${ctx.access}`, ([cursor, limit, orderBy, desc, q]: UsersListKey) =>
    ctx.core.json<ServerUserPageJson>(
      `/users${query({ cursor, limit, desc, order_by: orderBy === 'signedUpAt' ? 'signed_up_at' : orderBy, query: q })}`,
      {},
      null,
      ctx.access,
    ),
  );
}
