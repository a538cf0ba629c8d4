// The bridge object the preload exposes: one function per named channel, arguments passed through as data.
import { CHANNELS, EVENTS, type ConsoleBridge } from '../shared/bridge';

export type Invoke = (channel: string, ...args: unknown[]) => Promise<any>;
/** Listens to one event of the main process; returns the unsubscribe. */
export type Subscribe = (event: string, listener: (...args: unknown[]) => void) => () => void;

export function createBridge(invoke: Invoke, subscribe: Subscribe): ConsoleBridge {
  const bridge: ConsoleBridge = {
    platform: 'desktop' as const,
    listConnections: () => invoke(CHANNELS.listConnections),
    saveConnection: (c) => invoke(CHANNELS.saveConnection, c),
    removeConnection: (id) => invoke(CHANNELS.removeConnection, id),
    storeSecret: (id, secret) => invoke(CHANNELS.storeSecret, id, secret),
    secretStorage: () => invoke(CHANNELS.secretStorageStatus),
    allowWeakSecretStorage: () => invoke(CHANNELS.allowWeakSecretStorage),
    loadSessionToken: (id) => invoke(CHANNELS.loadSessionToken, id),
    request: (r) => invoke(CHANNELS.request, r),
    openExternal: (url) => invoke(CHANNELS.openExternal, url),
    signInReturnBase: () => invoke(CHANNELS.signInReturnBase),
    // Only the address goes to the page, never the IPC event object.
    onSignInReturn: (listener) => subscribe(EVENTS.signInReturn, (url) => listener(String(url))),
  };
  return Object.freeze(bridge);
}
