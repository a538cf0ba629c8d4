// Secrets (admin keys, owners' refresh tokens) encrypted with Electron's safeStorage in one file. When the OS
// offers no encryption the store refuses to keep anything: a secret is never written in clear.
import type { FilesLike, SafeStorageLike } from './ports';

export const SECRETS_FILE = 'secrets.bin';

export class SecretStorageUnavailableError extends Error {
  constructor() {
    super('This system offers no encrypted storage; secrets are kept for this session only.');
  }
}

export interface SecretStore {
  get(key: string): string | null;
  set(key: string, value: string | null): void;
}

export function createSecretStore(safeStorage: SafeStorageLike, files: FilesLike): SecretStore {
  // Secrets of this run stay in memory either way; the file is only written when it can be encrypted.
  let cache: Record<string, string> | null = null;
  const load = (): Record<string, string> => {
    if (cache) return cache;
    const raw = files.read(SECRETS_FILE);
    cache = {};
    if (raw && safeStorage.isEncryptionAvailable()) {
      try {
        cache = JSON.parse(safeStorage.decryptString(raw));
      } catch {
        // An unreadable file (another OS user, a changed keychain) is as good as none.
        cache = {};
      }
    }
    return cache!;
  };
  return {
    get: (key) => load()[key] ?? null,
    set: (key, value) => {
      const all = load();
      if (value === null) delete all[key];
      else all[key] = value;
      if (!safeStorage.isEncryptionAvailable()) throw new SecretStorageUnavailableError();
      files.write(SECRETS_FILE, safeStorage.encryptString(JSON.stringify(all)));
    },
  };
}
