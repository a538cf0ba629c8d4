// Per-project ES256 signing keys, from the service's key records (repo/signing-keys.ts): a record's seed and the
// project id derive the project's key of that record (HKDF-SHA256), so one record serves every project and each
// project keeps its own keys and JWKS (protocol-auth §2.2). The `current` record signs; `next`, `current` and
// `previous` are published and verify; a token names its key by `kid` = "<record id>.<project key fingerprint>".
//
// A `server-secret` record (a database upgraded with tokens in circulation) derives as before records existed:
// d = HMAC-SHA256(secret, "access-token-key:" + projectId), kid = fingerprint alone; during a rotation of the server
// secret the keys of the previous secrets verify too and are published beside it.
//
// The records are held in memory: loaded at start, again when any instance rotates (NOTIFY, services.ts), every
// half minute (background.ts), and at most once a second when a token names a record this instance does not know.
import { createECDH, createHash, createHmac, hkdfSync } from 'node:crypto';
import { importJWK, type CryptoKey } from 'jose';
import { LRUCache } from 'lru-cache';
import type { PublicJwk } from '@gatehouse/shared/schemas/projects';
import type { DB } from '../db';
import * as records from '../repo/signing-keys';

export interface ProjectKey { kid: string; privateKey: CryptoKey; publicKey: CryptoKey; publicJwk: PublicJwk }
type LiveRecord = records.SigningKeyRecord & { state: 'next' | 'current' | 'previous' };

// Order of the P-256 group; a derived scalar must be in [1, n-1].
const P256_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

/** Derived keys kept: the busiest projects' (deriving one again costs well under a millisecond). */
const KEPT_KEYS = 1_000;
/** A token naming an unknown record reloads the records at most this often. */
const UNKNOWN_KID_RELOAD_MS = 1_000;
const PUBLISHED_ORDER = { current: 0, next: 1, previous: 2 } as const;

export class SigningKeys {
  // Bounded, least recently used first out: only known projects reach it (tokens/access-tokens.ts), but projects come
  // and go and none should stay in memory for good.
  private cache = new LRUCache<string, Promise<ProjectKey>>({ max: KEPT_KEYS });
  private live: LiveRecord[] = [];
  private loading: Promise<void> | null = null;
  private lastUnknownReload = 0;
  private listeners: (() => void)[] = [];

  /** `broadcast`: tells the other instances to reload (services.ts, NOTIFY); absent on the embedded database. */
  constructor(private readonly db: DB, private readonly secret: string, private readonly previous: readonly string[] = [], private readonly broadcast?: () => void) {}

  /** At start: the current and next records are made if missing (a new database), then loaded. */
  async start(): Promise<void> {
    await records.ensureCurrentAndNext(this.db);
    await this.reload();
  }

  /** After this instance changed the records: reloads them here, and at once on the other instances. */
  async changed(): Promise<void> {
    await this.reload();
    this.broadcast?.();
  }

  /** Reads the live records again (concurrent callers share one read). */
  reload(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const rows = (await records.listLive(this.db)) as LiveRecord[];
        const before = this.live.map((r) => `${r.id}:${r.state}`).join(',');
        this.live = rows.sort((a, b) => PUBLISHED_ORDER[a.state] - PUBLISHED_ORDER[b.state] || b.createdAt.getTime() - a.createdAt.getTime());
        // Keys of records gone from the live set must not linger: start the derived keys afresh on any change, and
        // tell those who remember what a key verified (tokens/access-tokens.ts).
        if (rows.map((r) => `${r.id}:${r.state}`).join(',') !== before) {
          this.cache.clear();
          for (const listener of this.listeners) listener();
        }
      } finally { this.loading = null; }
    })();
    return this.loading;
  }

  /** Calls `listener` whenever the live records change (a rotation, a retirement). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** The id of the record that signs now. */
  currentId(): string | undefined {
    return this.live.find((r) => r.state === 'current')?.id;
  }

  /** The live records as last loaded (current, next, then previous ones, newest first). */
  liveRecords(): readonly records.SigningKeyRecord[] {
    return this.live;
  }

  /** The key that signs the project's tokens now. */
  get(projectId: string): Promise<ProjectKey> {
    const current = this.live.find((r) => r.state === 'current');
    if (!current) throw new Error('Signing keys: no current key record (SigningKeys.reload was not called)');
    return this.keyOf(current, projectId, this.secret);
  }

  /** Every key the project's JWKS publishes (current first, then next, then the previous ones). */
  async verificationKeys(projectId: string): Promise<ProjectKey[]> {
    return Promise.all(this.live.flatMap((r) => this.keysOf(r, projectId)));
  }

  /** The project's key named `kid` (a token's header), or the current one when a token names none; null if none. */
  async forKid(projectId: string, kid: string | undefined): Promise<ProjectKey | null> {
    if (kid === undefined) return this.get(projectId);
    const recordId = recordIdOf(kid);
    let rec = this.live.find((r) => r.id === recordId);
    // Another instance may have rotated a moment ago and signed with the new key: read the records again, rarely.
    if (!rec && Date.now() - this.lastUnknownReload >= UNKNOWN_KID_RELOAD_MS) {
      this.lastUnknownReload = Date.now();
      await this.reload();
      rec = this.live.find((r) => r.id === recordId);
    }
    if (!rec) return null;
    for (const key of this.keysOf(rec, projectId)) {
      const k = await key;
      if (k.kid === kid) return k;
    }
    return null;
  }

  private keysOf(rec: records.SigningKeyRecord, projectId: string): Promise<ProjectKey>[] {
    if (rec.derivation === 'sealed-seed') return [this.keyOf(rec, projectId, this.secret)];
    return [this.secret, ...this.previous].map((secret) => this.keyOf(rec, projectId, secret));
  }

  private keyOf(rec: records.SigningKeyRecord, projectId: string, secret: string): Promise<ProjectKey> {
    // For `server-secret` records the secret's index, not the secret, keys the cache: 0 is the current one.
    const cacheKey = rec.derivation === 'sealed-seed' ? `${rec.id}:${projectId}` : `${rec.id}:${secret === this.secret ? 0 : 1 + this.previous.indexOf(secret)}:${projectId}`;
    let key = this.cache.get(cacheKey);
    if (!key) {
      key = rec.derivation === 'sealed-seed' ? deriveFromSeed(rec.id, rec.seed!, projectId) : deriveFromSecret(secret, projectId);
      this.cache.set(cacheKey, key);
    }
    return key;
  }
}

/** The record a kid names: "<record id>.<fingerprint>"; a kid without a dot is a `server-secret` record's. */
function recordIdOf(kid: string): string {
  const dot = kid.indexOf('.');
  return dot < 0 ? 'legacy' : kid.slice(0, dot);
}

function scalarFrom(next: (counter: number) => Buffer): Buffer {
  for (let counter = 0; ; counter++) {
    const d = next(counter);
    const n = BigInt(`0x${d.toString('hex')}`);
    if (n > 0n && n < P256_ORDER) return d;
  }
}

async function keyFromScalar(d: Buffer, kidOf: (fingerprint: string) => string): Promise<ProjectKey> {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const pub = ecdh.getPublicKey(); // 0x04 || x || y
  const x = pub.subarray(1, 33).toString('base64url');
  const y = pub.subarray(33, 65).toString('base64url');
  const kid = kidOf(createHash('sha256').update(pub).digest('base64url').slice(0, 12));
  const publicJwk: PublicJwk = { kty: 'EC', crv: 'P-256', x, y, alg: 'ES256', kid };
  const privateKey = (await importJWK({ ...publicJwk, d: d.toString('base64url') }, 'ES256')) as CryptoKey;
  const publicKey = (await importJWK(publicJwk, 'ES256')) as CryptoKey;
  return { kid, privateKey, publicKey, publicJwk };
}

/** A `sealed-seed` record's key of one project. */
export function deriveFromSeed(recordId: string, seed: Buffer, projectId: string): Promise<ProjectKey> {
  const d = scalarFrom((counter) => Buffer.from(hkdfSync('sha256', seed, 'gatehouse access-token key', `ES256 ${projectId} ${counter}`, 32)));
  return keyFromScalar(d, (fingerprint) => `${recordId}.${fingerprint}`);
}

/** The key derived from the server secret alone (every key before records existed; `server-secret` records). */
export function deriveFromSecret(secret: string, projectId: string): Promise<ProjectKey> {
  const d = scalarFrom((counter) => createHmac('sha256', secret).update(`access-token-key:${projectId}:${counter}`).digest());
  return keyFromScalar(d, (fingerprint) => fingerprint);
}

/** Derives a named 32-byte subkey (e.g. for AES-GCM encryption of provider tokens). */
export function deriveSubkey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`subkey:${purpose}`).digest();
}
