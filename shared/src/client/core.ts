// Shared state of one app instance: network client, token stores, sessions, caches and redirects. Models get a
// reference to it; the app classes are thin public wrappers.
import { ApiClient, type AccessType } from './api-client.ts';
import { AsyncCache } from './cache.ts';
import { hasCode } from './known-error-catalogue.ts';
import { PERSISTENT_TOKEN_STORE_ERROR } from './constants.ts';
import { documentCookieJar, type CookieAdapter } from './cookies.ts';
import type { BrowserEnvironment } from './environment.ts';
import { Redirector, type HandlerUrls } from './redirects.ts';
import { InternalSession } from './session.ts';
import type { ClientTimers } from './timers.ts';
import type { WebAuthnCeremonies } from './passkey.ts';
import type { ClientUserJson, ServerUserJson } from './wire.ts';
import {
  TokenStore,
  EMPTY_TOKENS,
  createAdapterCookieStore,
  createBrowserCookieStore,
  isCookieAdapterStore,
  isExplicitTokens,
  isRequestLike,
  readTokensFromRequest,
  type RequestLike,
  type TokenStoreInit,
} from './token-store.ts';

/**
 * A request of the library. `Body` is the request schema's type (wire.ts), named at the call: it is never inferred
 * from the value, and a call that gives none may send no body, so an untyped body does not compile.
 */
export interface TypedRequest<Body> {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: NoInfer<Body>;
  headers?: Record<string, string>;
}

/** The current user's JSON for an access type: the client view, or the server view (server and admin). */
export type CurrentUserJson<A extends AccessType> = A extends 'client' ? ClientUserJson : ServerUserJson;

/**
 * What a TOTP prompt learns. `verify` (optional to use) sends a code for this attempt and tells how it went: a prompt
 * that calls it can keep its dialog open after a wrong code ('invalid') and let the person try again while the
 * attempt code lives; 'ok' means signed in (the prompt then answers anything), 'failed' means the attempt is over
 * (expired, used up: sign in again) and the prompt should answer null.
 */
export type MfaPromptInfo = { attemptCode: string; verify?: (totp: string) => Promise<'ok' | 'invalid' | 'failed'> };
export type MfaPrompt = (info: MfaPromptInfo) => Promise<string | null | undefined> | string | null | undefined;

export interface CoreOptions {
  api: ApiClient;
  timers: ClientTimers;
  browser: BrowserEnvironment | null;
  redirector: Redirector;
  urls: () => HandlerUrls;
  tokenStore: TokenStoreInit;
  oauthScopesOnSignIn: Partial<Record<string, string[]>>;
  cookieAdapter?: () => CookieAdapter;
  mfaPrompt?: MfaPrompt;
  webauthn?: WebAuthnCeremonies;
}

export class ClientCore {
  readonly api: ApiClient;
  readonly timers: ClientTimers;
  readonly browser: BrowserEnvironment | null;
  readonly redirector: Redirector;
  readonly options: CoreOptions;
  /** A prompt a UI layer installs (the account kit's TOTP dialog); the `mfaPrompt` option still wins. */
  uiMfaPrompt: MfaPrompt | undefined;
  /**
   * Loads the code that builds user objects from the current-user JSON (the client app's is a chunk of its own). The
   * current-user cache takes a user's JSON only once it has loaded, so building the object stays synchronous.
   */
  loadUserModel: () => Promise<unknown> = async () => {};
  #memoryStore?: TokenStore;
  #cookieStore?: TokenStore;
  #requestStores = new WeakMap<object, TokenStore>();
  #sessions = new WeakMap<TokenStore, Map<string, InternalSession>>();
  // Each name's cache keeps the key and value types of its first `cache()` call (see `cache`).
  #caches = new Map<string, unknown>();

  constructor(options: CoreOptions) {
    this.options = options;
    this.api = options.api;
    this.timers = options.timers;
    this.browser = options.browser;
    this.redirector = options.redirector;
  }

  get projectId(): string {
    return this.api.projectId;
  }

  get urls(): HandlerUrls {
    return this.options.urls();
  }

  /** The store for `init` (§2.1); throws for an unknown token store value. */
  resolveTokenStore(init: TokenStoreInit): TokenStore {
    if (init === null) return new TokenStore(EMPTY_TOKENS);
    if (init === 'memory') return (this.#memoryStore ??= new TokenStore(EMPTY_TOKENS));
    if (init === 'cookie' || init === 'nextjs-cookie') {
      if (this.browser) {
        return (this.#cookieStore ??= createBrowserCookieStore(documentCookieJar(this.browser.document, this.timers), this.projectId, this.timers));
      }
      if (init === 'nextjs-cookie' && this.options.cookieAdapter) return createAdapterCookieStore(this.options.cookieAdapter(), this.projectId);
      throw new Error('Cannot use cookie token store on the server!');
    }
    if (typeof init === 'string') throw new Error(`Invalid token store ${JSON.stringify(init)}`);
    if (isCookieAdapterStore(init)) return createAdapterCookieStore(init.cookieAdapter, this.projectId);
    if (isRequestLike(init)) return this.#requestStore(init);
    if (isExplicitTokens(init)) {
      return new TokenStore({ accessToken: init.accessToken ?? null, refreshToken: init.refreshToken ?? null });
    }
    throw new Error(`Invalid token store ${String(init)}`);
  }

  #requestStore(request: RequestLike): TokenStore {
    const cached = this.#requestStores.get(request);
    if (cached) return cached;
    const { tokens, fromHeader } = readTokensFromRequest(request, this.projectId);
    const store = new TokenStore(tokens);
    if (!fromHeader) this.#requestStores.set(request, store);
    return store;
  }

  /** The app's own store, or a per-call override; throws the "persistent token store" error when neither exists. */
  requireTokenStore(override?: TokenStoreInit): TokenStore {
    const init = override ?? this.options.tokenStore;
    if (init === null || init === undefined) throw new Error(PERSISTENT_TOKEN_STORE_ERROR);
    return this.resolveTokenStore(init);
  }

  hasPersistentTokenStore(): boolean {
    return this.options.tokenStore !== null && this.options.tokenStore !== undefined;
  }

  /** §2.5: one session object per (store, session key); it writes refreshed tokens back and wipes the store when invalid. */
  getSession(store: TokenStore): InternalSession {
    let byKey = this.#sessions.get(store);
    if (!byKey) this.#sessions.set(store, (byKey = new Map()));
    const tokens = store.get();
    const key = InternalSession.keyFor(tokens);
    const existing = byKey.get(key);
    if (existing) return existing;
    const session = new InternalSession({
      refreshToken: tokens.refreshToken,
      accessToken: tokens.accessToken,
      refresh: (rt) => this.api.refreshAccessToken(rt),
      now: () => this.timers.now(),
    });
    const owns = () => InternalSession.keyFor(store.get()) === key || store.get().refreshToken === session.refreshToken;
    session.onAccessTokenChange((accessToken) => {
      if (session.refreshToken !== null && store.get().refreshToken === session.refreshToken && !session.isKnownToBeInvalid()) {
        if (store.get().accessToken !== accessToken) store.set({ refreshToken: session.refreshToken, accessToken });
      }
    });
    session.onInvalidate(() => {
      if (owns()) store.set(EMPTY_TOKENS);
    });
    byKey.set(key, session);
    return session;
  }

  /** Session of the app's store (or an empty one if the app has none): used for calls that work signed out too. */
  defaultSession(): InternalSession {
    return this.getSession(this.resolveTokenStore(this.options.tokenStore ?? null));
  }

  /** Stores freshly issued tokens in the app's persistent store (sign-in). */
  signInWithTokens(tokens: { accessToken: string; refreshToken: string }): void {
    this.requireTokenStore().set(tokens);
  }

  request<Body = never>(path: string, init: TypedRequest<Body>, session: InternalSession | null, type: AccessType): Promise<Response> {
    return this.api.sendRequest(path, init, session, type);
  }

  /** A call whose answer is read as `Res` (the response schema's type in wire.ts; `unknown` when it is not read). */
  json<Res = unknown, Body = never>(path: string, init: TypedRequest<Body>, session: InternalSession | null, type: AccessType): Promise<Res> {
    return this.api.sendJson<Res>(path, init, session, type);
  }

  /**
   * A named cache (created on first use). Entries whose first key element is a session refresh themselves when
   * that session becomes invalid, while subscribed.
   */
  cache<K extends readonly unknown[], V>(name: string, fetcher: (key: K) => Promise<V>): AsyncCache<K, V> {
    let cache = this.#caches.get(name) as AsyncCache<K, V> | undefined;
    if (!cache) {
      cache = new AsyncCache<K, V>(fetcher, {
        timers: this.timers,
        onFirstSubscribe: (key, refresh) => (key[0] instanceof InternalSession ? key[0].onInvalidate(refresh) : undefined),
      });
      this.#caches.set(name, cache);
    }
    return cache;
  }

  /** Current-user JSON for a session (client or server view): null without a request when the session is dead. */
  currentUserCache<A extends AccessType>(type: A): AsyncCache<[InternalSession], CurrentUserJson<A> | null> {
    return this.cache(`current-user:${type}`, async ([session]: [InternalSession]) => {
      if (session.isKnownToBeInvalid()) return null;
      try {
        const [json] = await Promise.all([this.json<CurrentUserJson<A>>('/users/me', {}, session, type), this.loadUserModel()]);
        return json;
      } catch (err) {
        if (hasCode('CANNOT_GET_OWN_USER_WITHOUT_USER')(err)) return null;
        throw err;
      }
    });
  }

  /** Refreshes every session-keyed current-user entry of `session` (both access views). */
  async refreshCurrentUser(session: InternalSession): Promise<void> {
    await Promise.all(
      (['client', 'server', 'admin'] as const).map((t) => this.currentUserCache(t).refreshWhere(([s]) => s === session)),
    );
  }
}
