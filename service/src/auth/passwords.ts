// Password hashing with argon2id (Bun.password), bounded so a burst of sign-ins cannot exhaust memory:
// each argon2id hash holds `memoryCost` KiB while it runs, and at most `concurrency` run at once.
// Imported bcrypt hashes are verified too.
import bcrypt from 'bcryptjs';

// OWASP's recommended argon2id parameters (19 MiB, 2 iterations, 1 lane).
const ARGON2 = { algorithm: 'argon2id', memoryCost: 19456, timeCost: 2 } as const;
const BCRYPT_HASH = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;

export function isBcryptHash(hash: string): boolean {
  const m = BCRYPT_HASH.exec(hash);
  return !!m && Number(m[1]) >= 4 && Number(m[1]) <= 16;
}

class Semaphore {
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

  hash(password: string): Promise<string> {
    return this.gate.run(() => Bun.password.hash(password, ARGON2));
  }

  async verify(password: string, hash: string): Promise<boolean> {
    return this.gate.run(async () => {
      if (isBcryptHash(hash)) {
        // Bun pre-hashes bcrypt passwords over 72 bytes; hashes imported from other systems truncate instead.
        if (Buffer.byteLength(password) > 72) return bcrypt.compare(password, hash);
        return Bun.password.verify(password, hash, 'bcrypt');
      }
      try { return await Bun.password.verify(password, hash); } catch { return false; }
    });
  }

  /** Spends the time of a real verification, so unknown accounts cannot be told apart by timing. */
  async verifyAgainstNothing(password: string): Promise<false> {
    this.dummyHash ??= Bun.password.hash('gatehouse-timing-equaliser', ARGON2);
    await this.verify(password, await this.dummyHash);
    return false;
  }
}
