// Electron main process of the Gatehouse console: one hardened window over the renderer, the bridge's IPC
// handlers, secrets in safeStorage, remembered window bounds, a single instance.
import { app, BrowserWindow, ipcMain, safeStorage, screen, session, shell } from 'electron';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createConnectionsStore } from './connections-store';
import { registerIpcHandlers } from './ipc-handlers';
import { applyNavigationPolicy } from './navigation-policy';
import type { FilesLike } from './ports';
import { hardenSession, secureWebPreferences } from './security';
import { createSecretStore } from './secret-store';
import { claimSingleInstance } from './single-instance';
import { EVENTS } from '../shared/bridge';
import { createSignInReturns, deliverToWindow } from './sign-in-returns';
import { MIN_WINDOW, restoreWindowState, saveWindowState } from './window-state';

const here = fileURLToPath(new URL('.', import.meta.url));
let mainWindow: BrowserWindow | null = null;

function userFiles(): FilesLike {
  const dir = app.getPath('userData');
  mkdirSync(dir, { recursive: true });
  return {
    read: (name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name)) : null),
    write: (name, data) => writeFileSync(join(dir, name), data, { mode: 0o600 }),
  };
}

const rendererUrl = () => process.env.ELECTRON_RENDERER_URL ?? pathToFileURL(join(here, '../renderer/index.html')).toString();

function createWindow(files: FilesLike) {
  const state = restoreWindowState(files, screen.getAllDisplays().map((d) => d.workArea));
  const win = new BrowserWindow({
    ...state,
    minWidth: MIN_WINDOW.width,
    minHeight: MIN_WINDOW.height,
    show: false,
    title: 'Gatehouse console',
    webPreferences: secureWebPreferences(join(here, '../preload/index.cjs')),
  });
  if (state.maximized) win.maximize();
  applyNavigationPolicy(win.webContents, rendererUrl, shell);
  const remember = () => {
    if (!win.isDestroyed()) saveWindowState(files, win.getNormalBounds(), win.isMaximized());
  };
  win.on('close', remember);
  win.on('resized', remember);
  win.on('moved', remember);
  win.once('ready-to-show', () => win.show());
  void win.loadURL(rendererUrl());
  mainWindow = win;
}

if (claimSingleInstance(app, () => mainWindow)) {
  app.whenReady().then(() => {
    const files = userFiles();
    hardenSession(session.defaultSession);
    const signInReturns = createSignInReturns((url) => {
      const win = mainWindow && !mainWindow.isDestroyed() ? mainWindow : null;
      deliverToWindow(win && {
        isMinimized: () => win.isMinimized(),
        restore: () => win.restore(),
        focus: () => win.focus(),
        send: (address) => win.webContents.send(EVENTS.signInReturn, address),
      }, url);
    });
    app.on('will-quit', () => void signInReturns.close());
    registerIpcHandlers({
      ipcMain,
      connections: createConnectionsStore(files, randomUUID),
      secrets: createSecretStore(safeStorage, files, process.platform),
      shell,
      fetch: (url, init) => fetch(url, init),
      appUrl: rendererUrl,
      signInReturns,
    });
    createWindow(files);
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createWindow(files);
    });
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
