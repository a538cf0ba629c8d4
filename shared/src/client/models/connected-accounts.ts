// Connected OAuth accounts (client-library §1.7.6, §5.6).
import { hasCode } from '../known-error-catalogue.ts';
import type { CachedRead } from '../cache.ts';
import type { ClientCore } from '../core.ts';
import type { InternalSession } from '../session.ts';
import { cachedReadsSymbol, type ClientContext, type ServerContext } from './common.ts';
import { serverUserCache } from './user-caches.ts';
import type { ConnectedAccountTokenBody, ConnectedAccountTokenJson } from '../wire.ts';

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

function ownerCore(owner: ConnectionOwner) {
  return owner.kind === 'client' ? owner.ctx.core : owner.server.core;
}

function ownerAccess(owner: ConnectionOwner): 'client' | 'server' | 'admin' {
  return owner.kind === 'client' ? 'client' : owner.server.access;
}

type ConnectionKey = [who: InternalSession | string, provider: string, scope: string, redirect: boolean];

// A named cache keeps the fetcher of its first caller, so fetchers here read the user, provider and scopes from
// the key (and only the core and access type, which the cache name pins, from the closure).
function tokenCache(core: ClientCore, access: 'client' | 'server' | 'admin') {
  type TokenKey = [who: InternalSession | string, provider: string, scope: string];
  return core.cache(`oauth-token:${access}`, async ([who, provider, scope]: TokenKey): Promise<{ accessToken: string } | null> => {
    const userPart = typeof who === 'string' ? encodeURIComponent(who) : 'me';
    try {
      const json = await core.json<ConnectedAccountTokenJson, ConnectedAccountTokenBody>(`/connected-accounts/${userPart}/${encodeURIComponent(provider)}/access-token`, {
        method: 'POST',
        body: { scope },
      }, typeof who === 'string' ? null : who, access);
      return { accessToken: json.access_token };
    } catch (err) {
      if (hasCode('OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE', 'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER')(err)) {
        return null;
      }
      throw err;
    }
  });
}

function connectionCache(core: ClientCore, access: 'client' | 'server' | 'admin') {
  return core.cache(`oauth-connection:${access}`, async ([who, provider, scope, shouldRedirect]: ConnectionKey): Promise<string | null> => {
    const userJson =
      typeof who === 'string'
        ? await serverUserCache({ core, access: access as 'server' | 'admin' }).refresh([who])
        : await core.currentUserCache(access).refresh([who]);
    let hasConnection = !!userJson?.oauth_providers?.some((o) => o.id === provider);
    const token = await tokenCache(core, access).refresh([who, provider, scope]);
    if (!token) hasConnection = false;
    if (!hasConnection && shouldRedirect) {
      if (typeof who === 'string') {
        throw new Error(
          "Cannot add new scopes to a user that is not a CurrentUser. Please ensure that you are calling this function on a CurrentUser object, or remove the 'or: redirect' option.",
        );
      }
      const providerScope = mergeScopes([scope], core.options.oauthScopesOnSignIn[provider]);
      const { startOAuthFlow } = await import('../oauth.ts');
      return startOAuthFlow(core, { type: 'link', provider, providerScope, session: who });
    }
    return hasConnection ? provider : null;
  });
}

function mergeScopes(...lists: (readonly string[] | undefined)[]): string {
  return [...new Set(lists.flatMap((l) => l ?? []).flatMap((s) => s.split(/\s+/)).filter(Boolean))].join(' ');
}

export function connectedAccountRead(owner: ConnectionOwner, provider: string, options?: GetConnectedAccountOptions): CachedRead<OAuthConnection | null> {
  const core = ownerCore(owner);
  const access = ownerAccess(owner);
  const scope = (options?.scopes ?? []).join(' ');
  const redirect = options?.or === 'redirect';
  const tokens = tokenCache(core, access);
  const tokenKey: [InternalSession | string, string, string] = [ownerKey(owner), provider, scope];
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
  return connectionCache(core, access).handle([ownerKey(owner), provider, scope, redirect], 'connection', (id: string | null) =>
    id === null
      ? null
      : Object.freeze({
          id,
          getAccessToken: () => accessTokenRead().read(),
          [cachedReadsSymbol]: { accessToken: accessTokenRead },
        }),
  );
}
