// Secrets (admin keys, owners' refresh tokens) encrypted with Electron's safeStorage in one file. When the OS
// offers no encryption the store refuses to keep anything: a secret is never written in clear. On Linux without a
// keyring, safeStorage still "encrypts", with a fixed key (the `basic_text` backend): as good as clear text to anyone
// who can read the file, so secrets are written there only once the owner has agreed after a warning (issue 30 §7),
// and that consent is remembered (for that backend).
import type { SecretStorageStatus } from '../shared/bridge';
import type { FilesLike, SafeStorageLike } from './ports';

export const SECRETS_FILE = 'secrets.bin';
export const WEAK_STORAGE_CONSENT_FILE = 'weak-secret-storage-consent.json';

/** A secret the store kept for this session only, without writing it (the caller is told why). */
export class SecretNotWrittenError extends Error {}

export class SecretStorageUnavailableError extends SecretNotWrittenError {
  constructor() {
    super('This system offers no encrypted storage; secrets are kept for this session only.');
  }
}

export class WeakSecretStorageError extends SecretNotWrittenError {
  constructor(backend: string) {
    super(`This system encrypts stored secrets with a fixed key (${backend}, no keyring); they are kept for this session only unless the owner agrees to store them so.`);
  }
}

export interface SecretStore {
  get(key: string): string | null;
  set(key: string, value: string | null): void;
  status(): SecretStorageStatus;
  /** The owner agreed to keep secrets under a weak storage: remembered, and this session's secrets are written. */
  allowWeakStorage(): void;
}

/** Linux password stores that are no keyring: `basic_text` (a fixed key), `unknown` (asked before the app was ready). */
const WEAK_BACKENDS = new Set(['basic_text', 'unknown']);

/** `platform`: process.platform (getSelectedStorageBackend exists on Linux only). */
export function createSecretStore(safeStorage: SafeStorageLike, files: FilesLike, platform: string): SecretStore {
  const backend = platform === 'linux' ? safeStorage.getSelectedStorageBackend() : 'os';
  const weak = WEAK_BACKENDS.has(backend);
  const consented = (): boolean => {
    const raw = files.read(WEAK_STORAGE_CONSENT_FILE);
    if (!raw) return false;
    try { return (JSON.parse(new TextDecoder().decode(raw)) as { backend?: string }).backend === backend; } catch { return false; }
  };
  let allowed = weak && consented();
  const status = (): SecretStorageStatus => ({
    kind: !safeStorage.isEncryptionAvailable() ? 'none' : weak ? 'weak' : 'os',
    backend,
    weakStorageAllowed: allowed,
  });

  // Secrets of this run stay in memory either way; the file is only written when it can be encrypted for real (or
  // the owner agreed to the weak encryption).
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
  const write = () => {
    const kind = status().kind;
    if (kind === 'none') throw new SecretStorageUnavailableError();
    if (kind === 'weak' && !allowed) throw new WeakSecretStorageError(backend);
    files.write(SECRETS_FILE, safeStorage.encryptString(JSON.stringify(load())));
  };
  return {
    get: (key) => load()[key] ?? null,
    set: (key, value) => {
      const all = load();
      if (value === null) delete all[key];
      else all[key] = value;
      write();
    },
    status,
    allowWeakStorage: () => {
      if (!weak) return;
      files.write(WEAK_STORAGE_CONSENT_FILE, JSON.stringify({ backend, allowedAt: new Date().toISOString() }));
      allowed = true;
      write();
    },
  };
}
