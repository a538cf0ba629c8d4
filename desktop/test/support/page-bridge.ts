// Bundled by desktop-bridge-in-page.ts into the page under test: the real preload bridge (createBridge), its IPC
// calls going to functions the test exposes (the real main-process handlers behind a fake ipcMain), its events
// coming from the test (what the main process would send to the window).
import { createBridge } from '../../src/preload/bridge';

const page = window as unknown as {
  __ipcInvoke(channel: string, args: unknown[]): Promise<unknown>;
  __mainEvent(event: string, ...args: unknown[]): void;
  gatehouseConsole: unknown;
};
const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
page.__mainEvent = (event, ...args) => listeners.get(event)?.forEach((listener) => listener(...args));
page.gatehouseConsole = createBridge(
  (channel, ...args) => page.__ipcInvoke(channel, args),
  (event, listener) => {
    const set = listeners.get(event) ?? new Set();
    listeners.set(event, set.add(listener));
    return () => void set.delete(listener);
  },
);
