// The few Electron (and file system) capabilities the main-process logic uses, as small interfaces: index.ts
// passes the real ones, the unit tests pass fakes (Electron's binary cannot run on CI machines).

export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Uint8Array;
  decryptString(encrypted: Uint8Array): string;
  /** Linux only: the password store the key comes from (`basic_text`: a fixed key, no keyring). */
  getSelectedStorageBackend(): string;
}

/** Files under the app's user-data directory. */
export interface FilesLike {
  read(name: string): Uint8Array | null;
  write(name: string, data: Uint8Array | string): void;
}

export interface IpcEventLike {
  senderFrame: { url: string } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: any[]) => unknown): void;
}

export interface ShellLike {
  openExternal(url: string): Promise<void>;
}

export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<{
  status: number;
  headers: { forEach(cb: (value: string, key: string) => void): void };
  text(): Promise<string>;
}>;

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}
