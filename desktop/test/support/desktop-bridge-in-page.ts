// The desktop app without Electron (its binary cannot run here): the console's renderer in Chromium with the real
// preload bridge, wired to the real main-process IPC handlers (fake ipcMain, in-memory files and safeStorage, the
// real fetch) and to a real loopback listener for sign-in returns. What Electron would do between them is what
// these few lines do: pass invoke calls through with the page's address as the sender, and send events to it.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { EVENTS } from '../../src/shared/bridge';
import { createConnectionsStore } from '../../src/main/connections-store';
import { registerIpcHandlers } from '../../src/main/ipc-handlers';
import { createSecretStore } from '../../src/main/secret-store';
import { createSignInReturns, deliverToWindow, type SignInReturns } from '../../src/main/sign-in-returns';
import { fakeFiles, fakeIpcMain, fakeSafeStorage, fakeShell } from './fake-electron';

let bundled: Promise<string> | undefined;
function pageBridgeScript(): Promise<string> {
  bundled ??= (async () => {
    const out = await Bun.build({ entrypoints: [join(import.meta.dir, 'page-bridge.ts')], format: 'iife', target: 'browser' });
    if (!out.success) throw new Error(out.logs.join('\n'));
    return out.outputs[0]!.text();
  })();
  return bundled;
}

export interface DesktopMain {
  /** Links the app opened in the system browser, in order. */
  opened: string[];
  /** How often the window was brought to the front by a sign-in return. */
  focused: number;
  returns: SignInReturns;
}

/** Installs the main process for `page` (before its first navigation); `appUrl` is the app's page. */
export async function installDesktopMain(page: Page, appUrl: string): Promise<DesktopMain> {
  const ipcMain = fakeIpcMain();
  const files = fakeFiles();
  const shell = fakeShell();
  const main: DesktopMain = { opened: shell.opened, focused: 0, returns: undefined as unknown as SignInReturns };
  main.returns = createSignInReturns((url) => deliverToWindow({
    isMinimized: () => false,
    restore: () => {},
    focus: () => void main.focused++,
    send: (address) => void page.evaluate(([event, a]) => (window as any).__mainEvent(event, a), [EVENTS.signInReturn, address] as const),
  }, url));
  registerIpcHandlers({
    ipcMain,
    connections: createConnectionsStore(files, () => crypto.randomUUID()),
    secrets: createSecretStore(fakeSafeStorage(), files, 'linux'),
    shell,
    fetch: (url, init) => fetch(url, init),
    appUrl: () => appUrl,
    signInReturns: main.returns,
  });
  await page.exposeFunction('__ipcInvoke', (channel: string, args: unknown[]) => ipcMain.invoke(channel, page.url(), ...args));
  await page.addInitScript({ content: await pageBridgeScript() });
  return main;
}
