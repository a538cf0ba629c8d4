// Password hashing with argon2id (Bun.password), bounded so a burst of sign-ins cannot exhaust memory or queue
// without limit: each argon2id hash holds `memoryCost` KiB while it runs, at most `concurrency` are handed to Bun at
// once, and Bun runs them on its work pool (one thread per core): one hash per core runs at a time, and the others
// wait in the pool's queue holding no hash memory. The default concurrency (config.ts) keeps one hash queued per
// thread, so a thread that finishes a hash starts the next at once rather than when the JS thread gets to it.
// Imported bcrypt hashes are verified too.
import bcrypt from 'bcryptjs';
import { normalizePassword } from './common-passwords';
import { traced } from '../observability/tracing';

// OWASP's recommended argon2id parameters (19 MiB, 2 iterations, 1 lane).
const ARGON2 = { algorithm: 'argon2id', memoryCost: 19456, timeCost: 2 } as const;
const BCRYPT_HASH = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
/** The prefix of a hash made with today's parameters; others are replaced at the next successful sign-in. */
const CURRENT_PREFIX = `$argon2id$v=19$m=${ARGON2.memoryCost},t=${ARGON2.timeCost},p=1$`;

export function isBcryptHash(hash: string): boolean {
  const m = BCRYPT_HASH.exec(hash);
  return !!m && Number(m[1]) >= 4 && Number(m[1]) <= 16;
}

/** Admits at most `limit` runs at once; the others wait in arrival order (none is passed over). */
export class Semaphore {
  private waiting: (() => void)[] = [];
  private active = 0;
  constructor(private readonly limit: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try { return await fn(); } finally {
      const next = this.waiting.shift();
      if (next) next(); else this.active--;
    }
  }
}

export class Passwords {
  private readonly gate: Semaphore;
  private dummyHash?: Promise<string>;
  constructor(concurrency: number) { this.gate = new Semaphore(Math.max(1, concurrency)); }

  /** Hashes the NFKC form of the password (ASVS 2.1.4). */
  hash(password: string): Promise<string> {
    return this.gate.run(() => traced('password.hash', { 'gatehouse.password.algorithm': 'argon2id' }, () => Bun.password.hash(normalizePassword(password), ARGON2)));
  }

  /** Verifies the NFKC form, then the password as typed (hashes made before normalisation, imported hashes). */
  async verify(password: string, hash: string): Promise<boolean> {
    return (await this.check(password, hash)).ok;
  }

  /**
   * Verifies, and tells whether the stored hash should be replaced by a fresh one of the password (an imported
   * bcrypt hash, older argon2 parameters, or a hash of the un-normalised form): done at sign-in, the one moment the
   * service holds the password (transparent migration for operators moving from another system).
   */
  async check(password: string, hash: string): Promise<{ ok: boolean; rehash: boolean }> {
    const normalized = normalizePassword(password);
    if (await this.verifyOne(normalized, hash)) return { ok: true, rehash: !hash.startsWith(CURRENT_PREFIX) };
    if (normalized !== password && (await this.verifyOne(password, hash))) return { ok: true, rehash: true };
    return { ok: false, rehash: false };
  }

  private async verifyOne(password: string, hash: string): Promise<boolean> {
    return this.gate.run(() => traced('password.verify', { 'gatehouse.password.algorithm': isBcryptHash(hash) ? 'bcrypt' : 'argon2id' }, async () => {
      if (isBcryptHash(hash)) {
        // Bun pre-hashes bcrypt passwords over 72 bytes; hashes imported from other systems truncate instead.
        if (Buffer.byteLength(password) > 72) return bcrypt.compare(password, hash);
        return Bun.password.verify(password, hash, 'bcrypt');
      }
      try { return await Bun.password.verify(password, hash); } catch { return false; }
    }));
  }

  /** Spends the time of a real verification, so unknown accounts cannot be told apart by timing. */
  async verifyAgainstNothing(password: string): Promise<false> {
    this.dummyHash ??= Bun.password.hash('gatehouse-timing-equaliser', ARGON2);
    await this.verify(password, await this.dummyHash);
    return false;
  }
}
