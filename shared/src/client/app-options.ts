// Constructor options shared by the three apps and their environment-variable defaults (client-library §1.2, §4.1).
import { ApiClient, type FetchLike, type Logger } from './api-client.ts';
import { DEFAULT_BASE_URL } from './constants.ts';
import type { CookieAdapter } from './cookies.ts';
import { ClientCore, type MfaPrompt } from './core.ts';
import { detectBrowser, readEnv, type BrowserEnvironment } from './environment.ts';
import type { WebAuthnCeremonies } from './passkey.ts';
import { Redirector, resolveHandlerUrls, type HandlerUrls, type RedirectMethod } from './redirects.ts';
import type { InternalSession } from './session.ts';
import { resolveTimers, type ClientTimers } from './timers.ts';
import type { TokenStoreInit } from './token-store.ts';

export type GatehouseClientAppOptions = {
  /** Default: env `NEXT_PUBLIC_STACK_PROJECT_ID`. */
  projectId?: string;
  /** Default: env `NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY`. */
  publishableClientKey?: string;
  tokenStore: TokenStoreInit;
  /** A string, or one URL for browsers and one for servers. Default: env variables, then the local service. */
  baseUrl?: string | { browser: string; server: string };
  urls?: Partial<HandlerUrls>;
  /** Default `"none"`. */
  redirectMethod?: RedirectMethod;
  oauthScopesOnSignIn?: Partial<Record<string, string[]>>;
  extraRequestHeaders?: Record<string, string>;
  /** Accepted for compatibility; nothing is prefetched. */
  noAutomaticPrefetch?: boolean;
  // ── Gatehouse extensions ──
  /** The fetch implementation (default: global fetch). */
  fetch?: FetchLike;
  /** Clock, sleep, randomness and timers (default: the real ones). */
  timers?: Partial<ClientTimers>;
  /** Browser globals (default: detected from globalThis; `null` forces non-browser behaviour). */
  browser?: BrowserEnvironment | null;
  /** Server-side cookie jar for `tokenStore: "nextjs-cookie"` (one adapter per call, e.g. over the framework's cookies()). */
  cookieAdapter?: () => CookieAdapter;
  /** Asks for the TOTP code during sign-in (default: the browser's `prompt`). */
  mfaPrompt?: MfaPrompt;
  /** WebAuthn ceremonies (default: @simplewebauthn/browser). */
  webauthn?: WebAuthnCeremonies;
  logger?: Logger;
};

export type GatehouseServerAppOptions = GatehouseClientAppOptions & {
  /** Default: env `STACK_SECRET_SERVER_KEY`. */
  secretServerKey?: string;
};

export type ProjectOwnerSession = InternalSession | { readonly _internalSession: InternalSession };

export type GatehouseAdminAppOptions =
  | (GatehouseServerAppOptions & { superSecretAdminKey?: string; projectOwnerSession?: undefined })
  | (Omit<GatehouseServerAppOptions, 'publishableClientKey' | 'secretServerKey'> & {
      projectOwnerSession: ProjectOwnerSession;
      publishableClientKey?: undefined;
      secretServerKey?: undefined;
      superSecretAdminKey?: undefined;
    });

const welcome = (what: string, env: string) =>
  `Welcome to Stack Auth! It seems that you haven't provided a ${what}. Please create a project on the Stack dashboard at https://app.stack-auth.com and put it in the ${env} environment variable.`;

export function requireProjectId(given: string | undefined): string {
  const id = given ?? readEnv('NEXT_PUBLIC_STACK_PROJECT_ID');
  if (!id) throw new Error(welcome('project ID', 'NEXT_PUBLIC_STACK_PROJECT_ID'));
  return id;
}

export function requirePublishableKey(given: string | undefined): string {
  const key = given ?? readEnv('NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY');
  if (!key) throw new Error(welcome('publishable client key', 'NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY'));
  return key;
}

export function requireSecretServerKey(given: string | undefined): string {
  const key = given ?? readEnv('STACK_SECRET_SERVER_KEY');
  if (!key) {
    throw new Error('No secret server key provided. Please copy your key from the Stack dashboard and put it in the STACK_SECRET_SERVER_KEY environment variable.');
  }
  return key;
}

export function requireSuperSecretAdminKey(given: string | undefined): string {
  const key = given ?? readEnv('STACK_SUPER_SECRET_ADMIN_KEY');
  if (!key) {
    throw new Error('No super secret admin key provided. Please copy your key from the Stack dashboard and put it in the STACK_SUPER_SECRET_ADMIN_KEY environment variable.');
  }
  return key;
}

export function resolveBaseUrl(option: GatehouseClientAppOptions['baseUrl'], isBrowser: boolean): string {
  const chosen =
    typeof option === 'string'
      ? option
      : option
        ? isBrowser ? option.browser : option.server
        : (isBrowser ? readEnv('NEXT_PUBLIC_BROWSER_STACK_API_URL') : readEnv('NEXT_PUBLIC_SERVER_STACK_API_URL')) ??
          readEnv('NEXT_PUBLIC_STACK_API_URL') ??
          readEnv('NEXT_PUBLIC_STACK_URL') ??
          DEFAULT_BASE_URL;
  return chosen.replace(/\/$/, '');
}

export function defaultClientExtraHeaders(): Record<string, string> {
  const raw = readEnv('NEXT_PUBLIC_STACK_EXTRA_REQUEST_HEADERS');
  return raw ? JSON.parse(raw) : {};
}

/** Builds the core of an app from resolved keys. */
export function buildCore(
  options: GatehouseClientAppOptions,
  keys: { projectId: string; publishableClientKey?: string; secretServerKey?: string; superSecretAdminKey?: string; projectOwnerSession?: InternalSession },
  extraRequestHeaders: Record<string, string>,
): ClientCore {
  const browser = options.browser === undefined ? detectBrowser() : options.browser;
  const timers = resolveTimers(options.timers);
  const urls = () => resolveHandlerUrls(options.urls);
  const api = new ApiClient({
    baseUrl: resolveBaseUrl(options.baseUrl, browser !== null),
    ...keys,
    extraRequestHeaders,
    fetch: options.fetch,
    timers,
    browser,
    logger: options.logger,
  });
  const core = new ClientCore({
    api,
    timers,
    browser,
    redirector: new Redirector(options.redirectMethod ?? 'none', browser, timers, urls),
    urls,
    tokenStore: options.tokenStore,
    oauthScopesOnSignIn: options.oauthScopesOnSignIn ?? {},
    cookieAdapter: options.cookieAdapter,
    mfaPrompt: options.mfaPrompt,
    webauthn: options.webauthn,
  });
  return core;
}
