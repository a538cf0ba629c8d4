// One signed-in session (client-library §3): a fixed refresh token, a changing access token, a "known invalid"
// flag and at most one refresh in flight.
import { ACCESS_TOKEN_MAX_REQUIRED_REMAINING_MS } from './constants.ts';
import { getJwtExpiresAt } from './jwt.ts';

export type SessionTokens = { accessToken: string; refreshToken: string | null };

/** Fetches a new access token for a refresh token; null means the session is dead. */
export type RefreshCallback = (refreshToken: string) => Promise<string | null>;

let nextSessionId = 1;

export class InternalSession {
  /** Identity used in cache keys (§2.5 session key, plus a unique number per object). */
  readonly id = nextSessionId++;
  readonly refreshToken: string | null;
  #accessToken: string | null;
  #knownInvalid = false;
  #pendingRefresh: Promise<string | null> | null = null;
  #onInvalidate = new Set<() => void>();
  #onAccessToken = new Set<(token: string | null) => void>();
  readonly #refresh: RefreshCallback;
  readonly #now: () => number;

  constructor(opts: { refreshToken: string | null; accessToken: string | null; refresh: RefreshCallback; now: () => number }) {
    this.refreshToken = opts.refreshToken;
    this.#accessToken = opts.accessToken;
    this.#refresh = opts.refresh;
    this.#now = opts.now;
    if (opts.refreshToken === null && opts.accessToken === null) this.#knownInvalid = true;
  }

  static keyFor(tokens: { accessToken: string | null; refreshToken: string | null }): string {
    if (tokens.refreshToken) return `refresh-${tokens.refreshToken}`;
    if (tokens.accessToken) return `access-${tokens.accessToken}`;
    return 'not-logged-in';
  }

  get sessionKey(): string {
    return InternalSession.keyFor({ refreshToken: this.refreshToken, accessToken: this.#accessToken });
  }

  get accessToken(): string | null {
    return this.#accessToken;
  }

  isKnownToBeInvalid(): boolean {
    return this.#knownInvalid;
  }

  onInvalidate(cb: () => void): () => void {
    this.#onInvalidate.add(cb);
    return () => this.#onInvalidate.delete(cb);
  }

  onAccessTokenChange(cb: (token: string | null) => void): () => void {
    this.#onAccessToken.add(cb);
    return () => this.#onAccessToken.delete(cb);
  }

  /** Irreversible: clears the access token and tells listeners (the token store then wipes both tokens). */
  markInvalid(): void {
    if (this.#knownInvalid) return;
    this.#knownInvalid = true;
    this.#setAccessToken(null);
    for (const cb of [...this.#onInvalidate]) cb();
  }

  /** The server rejected `token`: forget it (only if it is still the current one) so the next call refreshes. */
  markAccessTokenExpired(token: string): void {
    if (this.#accessToken === token) this.#setAccessToken(null);
  }

  /** The access token, if present and not yet expired; null otherwise. */
  getAccessTokenIfNotExpiredYet(minMillisUntilExpiration: number): string | null {
    if (!this.refreshToken || this.#knownInvalid || !this.#accessToken) return null;
    return getJwtExpiresAt(this.#accessToken) - this.#now() >= minMillisUntilExpiration ? this.#accessToken : null;
  }

  /** §3.3: tokens whose access token has at least `minMillis` left, refreshing if needed; null = signed out. */
  async getOrFetchLikelyValidTokens(minMillis: number): Promise<SessionTokens | null> {
    if (minMillis >= ACCESS_TOKEN_MAX_REQUIRED_REMAINING_MS) {
      throw new Error(
        `Required access token expiry ${minMillis}ms is too long; access tokens are too short to be used for more than 60s`,
      );
    }
    const cached = this.getAccessTokenIfNotExpiredYet(minMillis);
    if (cached) return { accessToken: cached, refreshToken: this.refreshToken };
    const fresh = await this.fetchNewTokens();
    if (!fresh) return null;
    const lifetime = getJwtExpiresAt(fresh) - this.#now();
    if (lifetime && lifetime < minMillis) {
      throw new Error(`Required access token expiry ${minMillis}ms is too long; access tokens are too short when they're generated (${lifetime}ms)`);
    }
    return { accessToken: fresh, refreshToken: this.refreshToken };
  }

  /** §3.4: single-flight refresh. Concurrent callers share one request. */
  fetchNewTokens(): Promise<string | null> {
    if (!this.refreshToken || this.#knownInvalid) return Promise.resolve(null);
    if (this.#pendingRefresh) return this.#pendingRefresh;
    const promise: Promise<string | null> = this.#refresh(this.refreshToken).then(
      (token) => {
        if (this.#pendingRefresh === promise) {
          this.#pendingRefresh = null;
          if (token) this.#setAccessToken(token);
          else this.markInvalid();
        }
        return token;
      },
      (err) => {
        if (this.#pendingRefresh === promise) this.#pendingRefresh = null;
        throw err;
      },
    );
    this.#pendingRefresh = promise;
    return promise;
  }

  #setAccessToken(token: string | null): void {
    if (this.#accessToken === token) return;
    this.#accessToken = token;
    for (const cb of [...this.#onAccessToken]) cb(token);
  }
}
