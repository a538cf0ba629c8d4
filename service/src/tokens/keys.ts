// Per-project ES256 signing keys, derived from the service secret so every instance derives the same keys
// without storing private keys: d = HMAC-SHA256(secret, "access-token-key:" + projectId). During a rotation of the
// server secret the keys of the previous secrets still verify (a token names its key by `kid`) and are published in
// the JWKS beside the current one; only the current one signs.
import { createECDH, createHash, createHmac } from 'node:crypto';
import { importJWK, type CryptoKey } from 'jose';
import { LRUCache } from 'lru-cache';
import type { PublicJwk } from '@gatehouse/shared/schemas/projects';

export interface ProjectKey { kid: string; privateKey: CryptoKey; publicKey: CryptoKey; publicJwk: PublicJwk }

// Order of the P-256 group; a derived scalar must be in [1, n-1].
const P256_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

/** Derived keys kept: the busiest projects' (deriving one again costs well under a millisecond). */
const KEPT_KEYS = 1_000;

export class SigningKeys {
  // Bounded, least recently used first out: only known projects reach it (tokens/access-tokens.ts), but projects come
  // and go and none should stay in memory for good.
  private cache = new LRUCache<string, Promise<ProjectKey>>({ max: KEPT_KEYS });
  constructor(private readonly secret: string, private readonly previous: readonly string[] = []) {}

  /** The key that signs the project's tokens now. */
  get(projectId: string): Promise<ProjectKey> {
    return this.keyOf(this.secret, projectId);
  }

  /** Every key a token of the project may verify with: the current one first, then the previous secrets'. */
  async verificationKeys(projectId: string): Promise<ProjectKey[]> {
    return Promise.all([this.secret, ...this.previous].map((secret) => this.keyOf(secret, projectId)));
  }

  /** The project's key named `kid` (a token's header), or the current one when a token names none. */
  async forKid(projectId: string, kid: string | undefined): Promise<ProjectKey | null> {
    if (kid === undefined || this.previous.length === 0) return this.get(projectId);
    return (await this.verificationKeys(projectId)).find((k) => k.kid === kid) ?? null;
  }

  private keyOf(secret: string, projectId: string): Promise<ProjectKey> {
    // The secret's index, not the secret, keys the cache: 0 is the current one.
    const cacheKey = `${secret === this.secret ? 0 : 1 + this.previous.indexOf(secret)}:${projectId}`;
    let key = this.cache.get(cacheKey);
    if (!key) {
      key = derive(secret, projectId);
      this.cache.set(cacheKey, key);
    }
    return key;
  }
}

async function derive(secret: string, projectId: string): Promise<ProjectKey> {
  let d: Buffer;
  for (let counter = 0; ; counter++) {
    d = createHmac('sha256', secret).update(`access-token-key:${projectId}:${counter}`).digest();
    const n = BigInt(`0x${d.toString('hex')}`);
    if (n > 0n && n < P256_ORDER) break;
  }
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const pub = ecdh.getPublicKey(); // 0x04 || x || y
  const x = pub.subarray(1, 33).toString('base64url');
  const y = pub.subarray(33, 65).toString('base64url');
  const kid = createHash('sha256').update(pub).digest('base64url').slice(0, 12);
  const publicJwk: PublicJwk = { kty: 'EC', crv: 'P-256', x, y, alg: 'ES256', kid };
  const privateKey = (await importJWK({ ...publicJwk, d: d.toString('base64url') }, 'ES256')) as CryptoKey;
  const publicKey = (await importJWK(publicJwk, 'ES256')) as CryptoKey;
  return { kid, privateKey, publicKey, publicJwk };
}

/** Derives a named 32-byte subkey (e.g. for AES-GCM encryption of provider tokens). */
export function deriveSubkey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`subkey:${purpose}`).digest();
}
