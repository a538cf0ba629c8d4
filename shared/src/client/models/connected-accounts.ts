// Connected OAuth accounts (client-library §1.7.6, §5.6).
import { KnownErrors } from '../../known-errors.ts';
import type { CachedRead } from '../cache.ts';
import { startOAuthFlow } from '../oauth.ts';
import type { InternalSession } from '../session.ts';
import { cachedReadsSymbol, type ClientContext, type ServerContext } from './common.ts';
import { serverUserCache } from './server-user.ts';

export type GetConnectedAccountOptions = { scopes?: string[]; or?: 'redirect' | 'throw' | 'return-null' };

export interface OAuthConnection {
  readonly id: string;
  getAccessToken(): Promise<{ accessToken: string }>;
  readonly [cachedReadsSymbol]: { accessToken(): CachedRead<{ accessToken: string }> };
}

export type ConnectionOwner = { kind: 'client'; ctx: ClientContext } | { kind: 'server'; server: ServerContext; userId: string };

function ownerKey(owner: ConnectionOwner): InternalSession | string {
  return owner.kind === 'client' ? owner.ctx.session : owner.userId;
}

function tokenCache(owner: ConnectionOwner) {
  const core = owner.kind === 'client' ? owner.ctx.core : owner.server.core;
  const access = owner.kind === 'client' ? 'client' : owner.server.access;
  return core.cache<[InternalSession | string, string, string]>(`oauth-token:${access}`, async ([who, provider, scope]) => {
    const userPart = typeof who === 'string' ? encodeURIComponent(who) : 'me';
    try {
      const json = await core.json(`/connected-accounts/${userPart}/${encodeURIComponent(provider)}/access-token`, {
        method: 'POST',
        body: { scope },
      }, typeof who === 'string' ? null : who, access);
      return { accessToken: json.access_token as string };
    } catch (err) {
      if (err instanceof KnownErrors.OAuthConnectionDoesNotHaveRequiredScope || err instanceof KnownErrors.OAuthConnectionNotConnectedToUser) {
        return null;
      }
      throw err;
    }
  });
}

function mergeScopes(...lists: (readonly string[] | undefined)[]): string {
  return [...new Set(lists.flatMap((l) => l ?? []).flatMap((s) => s.split(/\s+/)).filter(Boolean))].join(' ');
}

export function connectedAccountRead(owner: ConnectionOwner, provider: string, options?: GetConnectedAccountOptions): CachedRead<OAuthConnection | null> {
  const core = owner.kind === 'client' ? owner.ctx.core : owner.server.core;
  const scope = (options?.scopes ?? []).join(' ');
  const redirect = options?.or === 'redirect';
  const tokens = tokenCache(owner);
  const tokenKey: [InternalSession | string, string, string] = [ownerKey(owner), provider, scope];
  const connectionCache = core.cache<[InternalSession | string, string, string, boolean]>(
    `oauth-connection:${owner.kind}`,
    async ([who, p, s, shouldRedirect]) => {
      const userJson =
        owner.kind === 'client'
          ? await core.currentUserCache('client').refresh([owner.ctx.session])
          : await serverUserCache(owner.server).refresh([owner.userId]);
      let hasConnection = !!userJson?.oauth_providers?.some((o: { id: string }) => o.id === p);
      const token = await tokens.refresh([who, p, s]);
      if (!token) hasConnection = false;
      if (!hasConnection && shouldRedirect) {
        if (owner.kind === 'server') {
          throw new Error(
            "Cannot add new scopes to a user that is not a CurrentUser. Please ensure that you are calling this function on a CurrentUser object, or remove the 'or: redirect' option.",
          );
        }
        const providerScope = mergeScopes(options?.scopes, core.options.oauthScopesOnSignIn[p]);
        return startOAuthFlow(core, { type: 'link', provider: p, providerScope, session: owner.ctx.session });
      }
      return hasConnection ? p : null;
    },
  );
  const accessTokenRead = (): CachedRead<{ accessToken: string }> => {
    const h = tokens.handle(tokenKey, 'token', (t: { accessToken: string } | null) => t);
    const must = (t: { accessToken: string } | null) => {
      if (!t) throw new Error('No access token available');
      return t;
    };
    return {
      get: () => h.get().then(must),
      read: () => h.read().then(must),
      peek: () => h.peek() as ReturnType<CachedRead<{ accessToken: string }>['peek']>,
      subscribe: h.subscribe,
    };
  };
  return connectionCache.handle([ownerKey(owner), provider, scope, redirect], 'connection', (id: string | null) =>
    id === null
      ? null
      : Object.freeze({
          id,
          getAccessToken: () => accessTokenRead().read(),
          [cachedReadsSymbol]: { accessToken: accessTokenRead },
        }),
  );
}
