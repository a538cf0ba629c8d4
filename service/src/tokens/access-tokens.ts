// ES256 access tokens with the protocol's claims (protocol-auth §2.2), and the custom claims a project maps from user
// metadata into them (its OpenID provider's settings, issue 27). Verified tokens are cached
// (ES256 verification costs ~0.2 ms of CPU), with expiry re-checked on every use.
import { SignJWT, decodeJwt, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { ACCESS_TOKEN_ISSUER } from '@gatehouse/shared/constants';
import type { SigningKeys } from './keys';

export interface AccessTokenClaims { sub: string; aud: string; iat: number; exp: number; branchId: string; refreshTokenId: string }

const CACHE_LIMIT = 50_000;

export class AccessTokens {
  private verified = new Map<string, AccessTokenClaims>();
  /**
   * `isKnownProject`: whether a token's `aud` names a project (the service's cached project lookup). A token naming
   * none is refused before any key is derived for it: an unsigned token's claims must not make the service derive and
   * keep anything (issue 30 §2).
   */
  constructor(private readonly keys: SigningKeys, private readonly lifetimeSeconds: number, private readonly isKnownProject: (id: string) => Promise<boolean>) {
    // A token verified with a key since retired must be refused: what was verified is forgotten when keys change.
    keys.onChange(() => this.verified.clear());
  }

  /** `custom`: the project's custom claims for this user (auth/session-tokens.ts); never one of the names above. */
  async mint(projectId: string, userId: string, sessionId: string, custom: Record<string, unknown> = {}): Promise<string> {
    const key = await this.keys.get(projectId);
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ ...custom, branchId: 'main', refreshTokenId: sessionId })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid })
      .setSubject(userId)
      .setAudience(projectId)
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setIssuedAt(now)
      .setExpirationTime(now + this.lifetimeSeconds)
      .sign(key.privateKey);
  }

  /**
   * Decodes and verifies a token. Throws UNPARSABLE_ACCESS_TOKEN or ACCESS_TOKEN_EXPIRED
   * (or the admin variants when `admin` is set).
   */
  async verify(token: string, opts: { admin?: boolean } = {}): Promise<AccessTokenClaims> {
    const cached = this.verified.get(token);
    if (cached) {
      if (cached.exp * 1000 <= Date.now()) {
        this.verified.delete(token);
        throw this.expiredError(new Date(cached.exp * 1000), opts.admin);
      }
      return cached;
    }
    const unparsable = () => (opts.admin ? new KnownErrors.UnparsableAdminAccessToken() : new KnownErrors.UnparsableAccessToken());
    let aud: unknown;
    let kid: string | undefined;
    try {
      const header = decodeProtectedHeader(token);
      if (header.alg !== 'ES256') throw unparsable();
      kid = header.kid;
      aud = decodeJwt(token).aud;
    } catch {
      throw unparsable();
    }
    if (typeof aud !== 'string' || !(await this.isKnownProject(aud))) throw unparsable();
    let claims: AccessTokenClaims;
    try {
      // The key the token names: the next, current or a previous key record's (tokens/keys.ts); a retired one's is none.
      const key = await this.keys.forKid(aud, kid);
      if (!key) throw unparsable();
      const { payload } = await jwtVerify(token, key.publicKey, { algorithms: ['ES256'], issuer: ACCESS_TOKEN_ISSUER, clockTolerance: 0 });
      claims = payload as unknown as AccessTokenClaims;
    } catch (err) {
      if (err instanceof errors.JWTExpired) {
        const exp = Number((err.payload as { exp?: number }).exp);
        throw this.expiredError(Number.isFinite(exp) ? new Date(exp * 1000) : null, opts.admin);
      }
      throw unparsable();
    }
    if (typeof claims.sub !== 'string' || typeof claims.refreshTokenId !== 'string') throw unparsable();
    if (this.verified.size >= CACHE_LIMIT) this.verified.clear();
    this.verified.set(token, claims);
    return claims;
  }

  private expiredError(at: Date | null, admin?: boolean) {
    return admin ? new KnownErrors.AdminAccessTokenExpired(at) : new KnownErrors.AccessTokenExpired(at);
  }
}
