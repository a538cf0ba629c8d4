// Fakes of the Electron capabilities the main-process logic uses (ports.ts): in-memory files, a safeStorage
// that really transforms the bytes (so a test can see nothing is stored in clear), an ipcMain that records
// handlers and lets a test invoke them as a given page, a shell that records what it opened.
import type { FilesLike, IpcEventLike, IpcMainLike, SafeStorageLike, ShellLike } from '../../src/main/ports';

export function fakeFiles(initial: Record<string, string> = {}): FilesLike & { data: Map<string, Uint8Array> } {
  const data = new Map<string, Uint8Array>(Object.entries(initial).map(([k, v]) => [k, new TextEncoder().encode(v)]));
  return {
    data,
    read: (name) => data.get(name) ?? null,
    write: (name, value) => void data.set(name, typeof value === 'string' ? new TextEncoder().encode(value) : value),
  };
}

/**
 * XOR with a key and a marker prefix: reversible, and no plain text survives. `backend`: what Linux's
 * getSelectedStorageBackend answers (`basic_text` on a system without a keyring).
 */
export function fakeSafeStorage(available = true, backend = 'gnome_libsecret'): SafeStorageLike & { available: boolean } {
  const key = 0x5a;
  const s = {
    available,
    getSelectedStorageBackend: () => backend,
    isEncryptionAvailable: () => s.available,
    encryptString: (plain: string) => {
      if (!s.available) throw new Error('encryption not available');
      const bytes = new TextEncoder().encode(plain);
      return Uint8Array.from([0x7f, ...bytes.map((b) => b ^ key)]);
    },
    decryptString: (enc: Uint8Array) => {
      if (enc[0] !== 0x7f) throw new Error('not encrypted by us');
      return new TextDecoder().decode(enc.slice(1).map((b) => b ^ key));
    },
  };
  return s;
}

export function fakeIpcMain(): IpcMainLike & { invoke(channel: string, senderUrl: string | null, ...args: unknown[]): Promise<any>; channels(): string[] } {
  const handlers = new Map<string, (event: IpcEventLike, ...args: any[]) => unknown>();
  return {
    handle: (channel, listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    invoke: async (channel, senderUrl, ...args) => {
      const h = handlers.get(channel);
      if (!h) throw new Error(`no handler for ${channel}`);
      return h({ senderFrame: senderUrl === null ? null : { url: senderUrl } }, ...args);
    },
    channels: () => [...handlers.keys()].sort(),
  };
}

export function fakeShell(): ShellLike & { opened: string[] } {
  const opened: string[] = [];
  return { opened, openExternal: async (url) => void opened.push(url) };
}
