// The narrow contract between the console's renderer and the Electron main process: a handful of named calls,
// no generic ipcRenderer. The preload implements it over IPC; the web build works without it.

/** A saved place to manage: a service where an owner signs in, or one project reached with its admin key. */
export interface SavedConnection {
  id: string;
  /** Origin of the Gatehouse service, e.g. "https://auth.example.com". */
  serviceUrl: string;
  kind: 'owner' | 'project';
  /** For kind "project": the project managed with its super secret admin key. */
  projectId?: string;
  /** For kind "owner": the internal project's publishable client key, when the service did not provide one. */
  publishableClientKey?: string;
  label: string;
}

export type SavedConnectionInput = Omit<SavedConnection, 'id'> & { id?: string };

/** An HTTP request the main process makes for the renderer (only to a saved service). */
export interface BridgeRequest {
  connectionId: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

export interface BridgeResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * How the main process can keep secrets: `os`, encrypted with a key the operating system guards (Keychain, DPAPI, a
 * Linux keyring); `weak`, encrypted with a fixed key (Linux's `basic_text`, no keyring), as good as clear text, so
 * only written once the owner agreed (`weakStorageAllowed`); `none`, not at all (kept for the session only).
 */
export interface SecretStorageStatus {
  kind: 'os' | 'weak' | 'none';
  /** The Linux password store Electron chose (`basic_text`, `gnome_libsecret`, `kwallet6`, ...); `os` elsewhere. */
  backend: string;
  weakStorageAllowed: boolean;
}

export interface ConsoleBridge {
  readonly platform: 'desktop';
  listConnections(): Promise<SavedConnection[]>;
  saveConnection(connection: SavedConnectionInput): Promise<SavedConnection>;
  removeConnection(id: string): Promise<void>;
  /**
   * Keeps a connection's secret (admin key or the owner's refresh token), encrypted by the main process. `persisted`
   * false: kept for this session only (no OS encryption, or a weak one the owner has not agreed to).
   */
  storeSecret(connectionId: string, secret: string | null): Promise<{ persisted: boolean }>;
  /** How secrets would be kept (ask before storing one: a weak storage needs the owner's consent). */
  secretStorage(): Promise<SecretStorageStatus>;
  /** The owner agreed, after the warning, to keep secrets under a weak storage; remembered, and the session's written. */
  allowWeakSecretStorage(): Promise<void>;
  /** The owner's stored refresh token (never an admin key: those stay in the main process). */
  loadSessionToken(connectionId: string): Promise<string | null>;
  /** A request to the connection's service; the main process adds the stored admin key where one is due. */
  request(request: BridgeRequest): Promise<BridgeResponse>;
  openExternal(url: string): Promise<void>;
  /**
   * Where the system browser brings an owner's sign-in back (OAuth, magic link): `http://127.0.0.1:{port}` +
   * SIGN_IN_RETURN_PATH, a listener of the main process (RFC 8252 §7.3).
   */
  signInReturnBase(): Promise<string>;
  /** Called with the full address the browser came back to; returns the unsubscribe. */
  onSignInReturn(listener: (url: string) => void): () => void;
}

/**
 * The path of the loopback return; the service's internal project trusts exactly this prefix on the loopback IP
 * (shared/src/rules/urls.ts DESKTOP_CONSOLE_RETURN_PATH: the main process bundles nothing of shared/, a test keeps
 * the two equal).
 */
export const SIGN_IN_RETURN_PATH = '/gatehouse-console/';

/** Messages from the main process to the window. */
export const EVENTS = {
  signInReturn: 'console:sign-in-return',
} as const;

/** IPC channel names, one per bridge call. */
export const CHANNELS = {
  listConnections: 'console:connections:list',
  saveConnection: 'console:connections:save',
  removeConnection: 'console:connections:remove',
  storeSecret: 'console:secrets:store',
  secretStorageStatus: 'console:secrets:status',
  allowWeakSecretStorage: 'console:secrets:allow-weak',
  loadSessionToken: 'console:secrets:load-session',
  request: 'console:request',
  openExternal: 'console:open-external',
  signInReturnBase: 'console:sign-in-return-base',
} as const;

/** Header the renderer leaves empty and the main process fills with the stored admin key. */
export const ADMIN_KEY_HEADER = 'x-stack-super-secret-admin-key';
