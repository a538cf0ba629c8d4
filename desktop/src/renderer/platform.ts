// Where the console runs: the desktop app (a preload bridge to the main process) or the web build at /console
// (the service is the page's origin). Screens only see this interface.
import type { FetchLike } from '@gatehouse/shared/client';
import type { ConsoleBridge, SavedConnection, SavedConnectionInput } from '../shared/bridge';
import { bridgeFetch } from './lib/bridge-fetch';
import { askWeakStorageConsent, storageStep } from './lib/secret-storage';
import { parseConsoleConfig, type ConsoleConfig } from './lib/console-config';
import { WEB_CONNECTIONS_KEY, addWebConnection, readWebConnections, removeWebConnection, thisServiceConnection } from './lib/web-connections';

export interface Platform {
  kind: 'web' | 'desktop';
  /** Service URL proposed for a new connection. */
  defaultServiceUrl: string;
  /** The web build can only reach its own origin (CSP connect-src 'self'). */
  fixedServiceUrl: string | null;
  config: ConsoleConfig;
  listConnections(): Promise<SavedConnection[]>;
  saveConnection(c: SavedConnectionInput): Promise<SavedConnection>;
  removeConnection(id: string): Promise<void>;
  /** Keeps an admin key for a project connection (desktop: encrypted in the main process; web: this tab only). */
  keepAdminKey(connectionId: string, key: string): Promise<void>;
  /** The admin key the renderer sends; on the desktop it stays in the main process and this is "". */
  adminKeyFor(connectionId: string): string | null;
  /** Persists the owner's refresh token (desktop only; the web build keeps the session in cookies). */
  keepSessionToken(connectionId: string, refreshToken: string | null): Promise<void>;
  loadSessionToken(connectionId: string): Promise<string | null>;
  fetchFor(connectionId: string): FetchLike | undefined;
  openExternal(url: string): void;
  /** Desktop: the main process's loopback listener for owners' sign-in returns (null on the web: /console itself). */
  signInReturnBase(): Promise<string | null>;
  /** Desktop: called with each address the listener received; returns the unsubscribe. */
  onSignInReturn(listener: (url: string) => void): () => void;
}

declare global {
  interface Window {
    gatehouseConsole?: ConsoleBridge;
  }
}

export function detectPlatform(): Platform {
  const bridge = window.gatehouseConsole;
  return bridge ? desktopPlatform(bridge) : webPlatform();
}

function webPlatform(): Platform {
  const config = parseConsoleConfig(document.querySelector('meta[name="gatehouse-console-config"]')?.getAttribute('content') ?? null);
  const origin = window.location.origin;
  // Admin keys typed in the web build live in this tab's memory only: never in localStorage.
  const adminKeys = new Map<string, string>();
  const storage = window.localStorage;
  return {
    kind: 'web',
    defaultServiceUrl: origin,
    fixedServiceUrl: origin,
    config,
    listConnections: async () => [thisServiceConnection(origin, config), ...readWebConnections(storage.getItem(WEB_CONNECTIONS_KEY))],
    saveConnection: async (c) => {
      const { list, saved } = addWebConnection(readWebConnections(storage.getItem(WEB_CONNECTIONS_KEY)), c, () => crypto.randomUUID());
      storage.setItem(WEB_CONNECTIONS_KEY, JSON.stringify(list));
      return saved;
    },
    removeConnection: async (id) => {
      storage.setItem(WEB_CONNECTIONS_KEY, JSON.stringify(removeWebConnection(readWebConnections(storage.getItem(WEB_CONNECTIONS_KEY)), id)));
      adminKeys.delete(id);
    },
    keepAdminKey: async (id, key) => void adminKeys.set(id, key),
    adminKeyFor: (id) => adminKeys.get(id) ?? null,
    keepSessionToken: async () => {},
    loadSessionToken: async () => null,
    fetchFor: () => undefined,
    openExternal: (url) => void window.open(url, '_blank', 'noopener'),
    signInReturnBase: async () => null,
    onSignInReturn: () => () => {},
  };
}

function desktopPlatform(bridge: ConsoleBridge): Platform {
  const withKey = new Set<string>();
  let declinedWeakStorage = false;
  // A weak storage (Linux without a keyring) is agreed to, or declined for this session, before anything is stored.
  const keepSecret = async (id: string, secret: string | null) => {
    const status = secret === null ? null : await bridge.secretStorage();
    if (status && storageStep(status, declinedWeakStorage) === 'ask') {
      if (await askWeakStorageConsent(status.backend)) await bridge.allowWeakSecretStorage();
      else declinedWeakStorage = true;
    }
    await bridge.storeSecret(id, secret);
  };
  return {
    kind: 'desktop',
    defaultServiceUrl: 'http://localhost:8102',
    fixedServiceUrl: null,
    config: { publishableClientKey: null },
    listConnections: async () => {
      const list = await bridge.listConnections();
      // Project connections saved earlier have their key in the main process.
      list.forEach((c) => c.kind === 'project' && withKey.add(c.id));
      return list;
    },
    saveConnection: (c) => bridge.saveConnection(c),
    removeConnection: (id) => bridge.removeConnection(id),
    keepAdminKey: async (id, key) => {
      await keepSecret(id, key);
      withKey.add(id);
    },
    adminKeyFor: (id) => (withKey.has(id) ? '' : null),
    keepSessionToken: (id, token) => keepSecret(id, token),
    loadSessionToken: (id) => bridge.loadSessionToken(id),
    fetchFor: (id) => bridgeFetch(bridge, id),
    openExternal: (url) => void bridge.openExternal(url),
    signInReturnBase: () => bridge.signInReturnBase(),
    onSignInReturn: (listener) => bridge.onSignInReturn(listener),
  };
}
