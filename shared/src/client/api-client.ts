// The network layer (client-library §4): request composition, the retry loop, status rewriting, known-error
// decoding, the refresh-token grant and the diagnostics error after the last attempt.
import { KnownError, isKnownErrorInFamily, type KnownErrorJson } from '../known-errors/base.ts';
import { hasCode, loadKnownErrors } from './known-error-catalogue.ts';
import { encodeCrockfordBase32, randomBytes } from '../rules/codes.ts';
import {
  API_PREFIX,
  CLIENT_VERSION_HEADER,
  IDEMPOTENT_HTTP_METHODS,
  NETWORK_RETRY_ATTEMPTS,
  NETWORK_RETRY_BASE_DELAY_MS,
  NETWORK_RETRY_JITTER_MIN,
  ACCESS_TOKEN_MIN_REMAINING_MS,
  type AccessType,
} from './constants.ts';
import { currentNavigator, type BrowserEnvironment } from './environment.ts';
import type { InternalSession } from './session.ts';
import type { ClientTimers } from './timers.ts';
import { STACK_HEADERS } from '../constants.ts';

export type { AccessType };

export interface RequestInitLite {
  method?: string;
  /** JSON-encoded with `content-type: application/json` when not undefined. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** The subset of `fetch` the library calls. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface Logger {
  warn(...args: unknown[]): void;
}

export interface ApiClientOptions {
  baseUrl: string;
  projectId: string;
  publishableClientKey?: string;
  secretServerKey?: string;
  superSecretAdminKey?: string;
  /** Owner-session admin apps: a session of the internal project whose access token is the admin credential. */
  projectOwnerSession?: InternalSession;
  extraRequestHeaders?: Record<string, string>;
  fetch?: FetchLike;
  timers: ClientTimers;
  browser: BrowserEnvironment | null;
  logger?: Logger;
}

/** Thrown after the last failed attempt: the service could not be reached (or kept refusing). */
export class NetworkError extends Error {
  constructor(message: string, readonly diagnostics?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NetworkError';
  }
}

/** A non-2xx answer that is not a known error (plain-text status errors, 500s, …). */
export class HttpError extends Error {
  constructor(readonly url: string, readonly status: number, readonly body: string) {
    super(`Failed to send request to ${url}: ${status} ${body}`);
    this.name = 'HttpError';
  }
}

type Attempt = { kind: 'ok'; response: Response } | { kind: 'retry'; error: unknown };

/** 45 lowercase Crockford base32 characters: defeats framework fetch caches. */
export function randomNonce(): string {
  return encodeCrockfordBase32(randomBytes(29)).slice(0, 45);
}

export class ApiClient {
  readonly options: ApiClientOptions;
  readonly #fetch: FetchLike;
  readonly #logger: Logger;

  constructor(options: ApiClientOptions) {
    this.options = options;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#logger = options.logger ?? console;
  }

  get projectId(): string {
    return this.options.projectId;
  }

  get apiRoot(): string {
    return this.options.baseUrl.replace(/\/$/, '') + API_PREFIX;
  }

  /** The service origin without `/api/v1` (the OAuth issuer). */
  get baseUrl(): string {
    return this.options.baseUrl.replace(/\/$/, '');
  }

  urlFor(path: string): string {
    return (this.apiRoot + path).replace(/\/$/, '');
  }

  /** Sends an API request with retries; resolves with a 2xx response, throws known errors and everything else. */
  async sendRequest(path: string, init: RequestInitLite, session: InternalSession | null, accessType: AccessType): Promise<Response> {
    const { timers } = this.options;
    let lastError: unknown;
    for (let attempt = 0; attempt < NETWORK_RETRY_ATTEMPTS; attempt++) {
      const result = await this.#attempt(path, init, session, accessType);
      if (result.kind === 'ok') return result.response;
      lastError = result.error;
      if (attempt < NETWORK_RETRY_ATTEMPTS - 1) {
        await timers.sleep((timers.random() + NETWORK_RETRY_JITTER_MIN) * NETWORK_RETRY_BASE_DELAY_MS * 2 ** attempt);
      }
    }
    throw await this.#giveUpError(lastError, session, accessType);
  }

  async sendJson<T>(path: string, init: RequestInitLite, session: InternalSession | null, accessType: AccessType): Promise<T> {
    const res = await this.sendRequest(path, init, session, accessType);
    const text = await res.text();
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  async #attempt(path: string, init: RequestInitLite, session: InternalSession | null, accessType: AccessType): Promise<Attempt> {
    const url = this.urlFor(path);
    const method = (init.method ?? 'GET').toUpperCase();
    const o = this.options;
    const tokens = session ? await session.getOrFetchLikelyValidTokens(ACCESS_TOKEN_MIN_REMAINING_MS) : null;
    const ownerTokens = o.projectOwnerSession
      ? await o.projectOwnerSession.getOrFetchLikelyValidTokens(ACCESS_TOKEN_MIN_REMAINING_MS)
      : null;

    const headers: Record<string, string> = {
      [STACK_HEADERS.overrideErrorStatus]: 'true',
      [STACK_HEADERS.projectId]: o.projectId,
      [STACK_HEADERS.accessType]: accessType,
      [STACK_HEADERS.clientVersion]: CLIENT_VERSION_HEADER,
      [STACK_HEADERS.randomNonce]: randomNonce(),
    };
    if (tokens) {
      headers[STACK_HEADERS.accessToken] = tokens.accessToken;
      if (tokens.refreshToken) headers[STACK_HEADERS.refreshToken] = tokens.refreshToken;
    }
    if (o.publishableClientKey) headers[STACK_HEADERS.publishableClientKey] = o.publishableClientKey;
    if (ownerTokens) headers[STACK_HEADERS.adminAccessToken] = ownerTokens.accessToken;
    if (accessType === 'server' || accessType === 'admin') headers[STACK_HEADERS.secretServerKey] = o.secretServerKey ?? '';
    if (accessType === 'admin') headers[STACK_HEADERS.superSecretAdminKey] = o.superSecretAdminKey ?? '';
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, o.extraRequestHeaders, init.headers);

    let raw: Response;
    try {
      raw = await this.#fetch(url, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        ...fetchSettings(),
      });
    } catch (err) {
      if (err instanceof TypeError) {
        if ((IDEMPOTENT_HTTP_METHODS as readonly string[]).includes(method)) return { kind: 'retry', error: err };
        throw new NetworkError(`Failed to send Stack network request to ${url}: ${err.message}`, undefined, { cause: err });
      }
      throw err;
    }
    const res = await applyActualStatus(raw);

    const knownError = await decodeKnownError(res);
    if (knownError) {
      if (isKnownErrorInFamily(knownError, 'INVALID_ACCESS_TOKEN')) {
        if (!tokens) throw new Error('Received invalid access token, but session is not logged in', { cause: knownError });
        session!.markAccessTokenExpired(tokens.accessToken);
        return { kind: 'retry', error: knownError };
      }
      if (
        ownerTokens &&
        (isKnownErrorInFamily(knownError, 'INVALID_ADMIN_ACCESS_TOKEN') || hasCode('API_KEY_NOT_FOUND')(knownError))
      ) {
        o.projectOwnerSession!.markAccessTokenExpired(ownerTokens.accessToken);
        return { kind: 'retry', error: knownError };
      }
      throw knownError;
    }

    if (res.status === 429) {
      const seconds = parseRetryAfter(res.headers.get('retry-after'));
      if (seconds !== undefined) {
        this.#logger.warn(`Rate limited while sending request to ${url}. Will retry after ${seconds} seconds...`);
        await o.timers.sleep(seconds * 1000);
      } else {
        this.#logger.warn(`Rate limited while sending request to ${url}, no retry-after header received. Retrying...`);
      }
      return { kind: 'retry', error: new HttpError(url, 429, await res.text()) };
    }
    if (!res.ok) {
      const text = await res.text();
      if (res.status === 508 && text.includes('INFINITE_LOOP_DETECTED')) return { kind: 'retry', error: new HttpError(url, 508, text) };
      throw new HttpError(url, res.status, text);
    }
    return { kind: 'ok', response: res };
  }

  async #giveUpError(cause: unknown, session: InternalSession | null, accessType: AccessType): Promise<Error> {
    const nav = currentNavigator(this.options.browser);
    if (nav && nav.onLine === false) {
      return new NetworkError(
        'Failed to send Stack network request. It seems like you are offline, please check your internet connection and try again. This is not an error with Stack Auth. (window.navigator.onLine is falsy)',
        undefined,
        { cause },
      );
    }
    const diagnostics = await this.#diagnose(session, accessType);
    return new NetworkError(
      [
        'Stack Auth is unable to connect to the server. Please check your internet connection and try again.',
        '',
        'If the problem persists, please contact support and provide a screenshot of your entire browser console.',
        '',
        String(cause instanceof Error ? `${cause.name}: ${cause.message}` : cause),
        '',
        JSON.stringify(diagnostics, null, 2),
      ].join('\n'),
      diagnostics,
      { cause },
    );
  }

  /** One attempt per probe, no retries. Third-party hosts are never probed from a self-hosted deployment. */
  async #diagnose(session: InternalSession | null, accessType: AccessType): Promise<Record<string, unknown>> {
    const probe = async (url: string, headers?: Record<string, string>) => {
      try {
        const res = await this.#fetch(url, { headers, ...fetchSettings() });
        return res.ok ? 'OK' : `${res.status} ${res.statusText}: ${await res.text()}`;
      } catch (err) {
        return String(err instanceof Error ? err.message : err);
      }
    };
    const tokens = session?.getAccessTokenIfNotExpiredYet(0);
    const apiHeaders: Record<string, string> = {
      [STACK_HEADERS.projectId]: this.options.projectId,
      [STACK_HEADERS.accessType]: accessType,
      ...(this.options.publishableClientKey ? { [STACK_HEADERS.publishableClientKey]: this.options.publishableClientKey } : {}),
      ...(tokens ? { [STACK_HEADERS.accessToken]: tokens } : {}),
    };
    const nav = currentNavigator(this.options.browser);
    return {
      'navigator?.onLine': nav?.onLine,
      cfTrace: 'Not tested',
      apiRoot: await probe(this.urlFor('/'), apiHeaders),
      baseUrlBackend: await probe(new URL('/health', this.apiRoot).toString()),
      prodDashboard: 'Not tested',
      prodBackend: 'Not tested',
    };
  }

  /**
   * Refresh-token grant (§3.4): form-encoded, no `x-stack-*` headers. Network failures are retried like any
   * request. Returns null when the server says the refresh token is dead.
   */
  async refreshAccessToken(refreshToken: string): Promise<string | null> {
    const o = this.options;
    if (!o.publishableClientKey) {
      throw new Error(
        'Admin session token is currently not supported for fetching new access token. Did you try to log in on a StackApp initiated with the admin session?',
      );
    }
    const res = await this.sendTokenRequest(
      { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: o.projectId, client_secret: o.publishableClientKey },
      true,
    );
    const knownError = await decodeKnownError(res);
    if (knownError) {
      if (isKnownErrorInFamily(knownError, 'REFRESH_TOKEN_ERROR')) return null;
      throw knownError;
    }
    const text = await res.text();
    const body = parseTokenAnswer(text);
    if (body && typeof body.error === 'string' && res.status >= 400) throw new Error('OAuth error', { cause: body });
    if (!res.ok) throw new Error(`Failed to send refresh token request: ${res.status} ${text}`);
    if (!body || typeof body.access_token !== 'string') throw new Error('Access token not found in token endpoint response');
    return body.access_token;
  }

  /** POST `/auth/oauth/token` with a form body; `retryNetworkErrors` as for the refresh grant. */
  async sendTokenRequest(form: Record<string, string>, retryNetworkErrors: boolean): Promise<Response> {
    const url = this.urlFor('/auth/oauth/token');
    const { timers } = this.options;
    let lastError: unknown;
    const attempts = retryNetworkErrors ? NETWORK_RETRY_ATTEMPTS : 1;
    for (let attempt = 0; attempt < attempts; attempt++) {
      try {
        return await this.#fetch(url, {
          method: 'POST',
          headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
          body: new URLSearchParams(form).toString(),
          ...fetchSettings(),
        });
      } catch (err) {
        if (!(err instanceof TypeError)) throw err;
        lastError = err;
        if (attempt < attempts - 1) {
          await timers.sleep((timers.random() + NETWORK_RETRY_JITTER_MIN) * NETWORK_RETRY_BASE_DELAY_MS * 2 ** attempt);
        }
      }
    }
    throw await this.#giveUpError(lastError, null, 'client');
  }
}

/**
 * What the OAuth token endpoint may answer (RFC 6749 §5.1, §5.2): read field by field, as nothing guarantees its
 * shape (a proxy's error page, another server's answer). Undefined when the text is not a JSON object.
 */
export type TokenEndpointAnswer = {
  access_token?: unknown;
  refresh_token?: unknown;
  error?: unknown;
  code?: unknown;
  details?: { attempt_code?: unknown };
  [field: string]: unknown;
};

export function parseTokenAnswer(text: string): TokenEndpointAnswer | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as TokenEndpointAnswer) : undefined;
  } catch {
    return undefined;
  }
}

/** `credentials: "omit"` and `cache: "no-store"`, except on Cloudflare Workers which reject them. */
function fetchSettings(): RequestInit {
  if ('WebSocketPair' in globalThis) return {};
  return { credentials: 'omit', cache: 'no-store' };
}

/** §4.5 step 1: the server answered 200 with the real status in `x-stack-actual-status`. */
export async function applyActualStatus(res: Response): Promise<Response> {
  const actual = res.headers.get(STACK_HEADERS.actualStatus);
  if (!actual) return res;
  const status = Number(actual);
  if (!Number.isInteger(status) || status < 200 || status > 599 || status === res.status) return res;
  return new Response(await res.arrayBuffer(), { status, statusText: res.statusText, headers: res.headers });
}

/** §4.5 step 2: the typed error of a `x-stack-known-error` response, or undefined. Consumes the body if so. */
export async function decodeKnownError(res: Response): Promise<KnownError | undefined> {
  const header = res.headers.get(STACK_HEADERS.knownError);
  if (!header) return undefined;
  const body = (await res.json()) as KnownErrorJson;
  if (body?.code !== header) {
    throw new Error("Mismatch between x-stack-known-error header and error code in body; the server's response is invalid");
  }
  await loadKnownErrors();
  return KnownError.fromJSON(body);
}

/** Seconds to wait, or undefined when absent or not a non-negative number (then the plain back-off applies). */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}
