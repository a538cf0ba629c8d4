// The Electron main process's logic, with fakes of Electron's API: secrets encrypted with safeStorage, the saved
// connections, window state, the navigation policy, the IPC handlers (sender checks, admin keys kept in this
// process), the window's security settings and the single-instance lock.
import { describe, expect, test } from 'bun:test';
import { CHANNELS } from '../src/shared/bridge';
import { CONNECTIONS_FILE, createConnectionsStore } from '../src/main/connections-store';
import { registerIpcHandlers, requestTargetAllowed, secretKey } from '../src/main/ipc-handlers';
import { applyNavigationPolicy, decideNavigation } from '../src/main/navigation-policy';
import { CONTENT_SECURITY_POLICY, hardenSession, secureWebPreferences } from '../src/main/security';
import { SECRETS_FILE, SecretStorageUnavailableError, createSecretStore } from '../src/main/secret-store';
import { claimSingleInstance } from '../src/main/single-instance';
import { DEFAULT_WINDOW, MIN_WINDOW, WINDOW_STATE_FILE, restoreWindowState, saveWindowState } from '../src/main/window-state';
import { fakeFiles, fakeIpcMain, fakeSafeStorage, fakeShell } from './support/fake-electron';

const APP_URL = 'file:///opt/gatehouse/resources/out/renderer/index.html';
const text = (b: Uint8Array | null) => (b ? new TextDecoder().decode(b) : '');

describe('secret store', () => {
  test('secrets are written only encrypted, and read back', () => {
    const files = fakeFiles();
    const storage = fakeSafeStorage();
    const store = createSecretStore(storage, files, 'linux');
    store.set('connection:a', 'sak_admin-key-value');
    expect(text(files.read(SECRETS_FILE))).not.toContain('sak_admin-key-value');
    // A new process reads what the last one stored.
    expect(createSecretStore(storage, files, 'linux').get('connection:a')).toBe('sak_admin-key-value');
    store.set('connection:a', null);
    expect(createSecretStore(storage, files, 'linux').get('connection:a')).toBeNull();
  });

  test('without OS encryption nothing is written (the secret lives for this run only) and the caller is told', () => {
    const files = fakeFiles();
    const store = createSecretStore(fakeSafeStorage(false), files, 'linux');
    expect(() => store.set('connection:a', 'refresh-token')).toThrow(SecretStorageUnavailableError);
    expect(files.read(SECRETS_FILE)).toBeNull();
    expect(store.get('connection:a')).toBe('refresh-token');
  });

  test('a file it cannot decrypt counts as empty', () => {
    const files = fakeFiles({ [SECRETS_FILE]: 'garbage' });
    expect(createSecretStore(fakeSafeStorage(), files, 'linux').get('x')).toBeNull();
  });
});

describe('connections store', () => {
  test('keeps the origin only, no secret fields, replaces by id', () => {
    const files = fakeFiles();
    let n = 0;
    const store = createConnectionsStore(files, () => `id-${++n}`);
    const saved = store.save({ kind: 'project', serviceUrl: 'https://auth.example.com/some/path', projectId: 'p1', label: 'P1', ...({ adminKey: 'sak_x' } as object) });
    expect(saved).toEqual({ id: 'id-1', kind: 'project', serviceUrl: 'https://auth.example.com', projectId: 'p1', label: 'P1' });
    expect(text(files.read(CONNECTIONS_FILE))).not.toContain('sak_x');
    store.save({ ...saved, label: 'Renamed' });
    expect(store.list()).toEqual([{ ...saved, label: 'Renamed' }]);
    expect(() => store.save({ kind: 'owner', serviceUrl: 'javascript:alert(1)', label: 'x' })).toThrow();
    expect(() => store.save({ kind: 'project', serviceUrl: 'https://a.example', label: 'x' })).toThrow();
  });
});

describe('window state', () => {
  const displays = [{ x: 0, y: 0, width: 1920, height: 1080 }];
  test('defaults, then what was saved; never below the minimum size', () => {
    const files = fakeFiles();
    expect(restoreWindowState(files, displays)).toEqual({ ...DEFAULT_WINDOW, maximized: false });
    saveWindowState(files, { x: 100, y: 50, width: 1400, height: 900 }, true);
    expect(restoreWindowState(files, displays)).toEqual({ x: 100, y: 50, width: 1400, height: 900, maximized: true });
    saveWindowState(files, { x: 10, y: 10, width: 300, height: 200 }, false);
    expect(restoreWindowState(files, displays)).toMatchObject({ width: MIN_WINDOW.width, height: MIN_WINDOW.height });
  });
  test('a position on a display that is gone is dropped; a broken file gives the defaults', () => {
    const files = fakeFiles();
    saveWindowState(files, { x: 3000, y: 0, width: 1200, height: 800 }, false);
    expect(restoreWindowState(files, displays)).toEqual({ width: 1200, height: 800, maximized: false });
    files.write(WINDOW_STATE_FILE, '{not json');
    expect(restoreWindowState(files, displays)).toEqual({ ...DEFAULT_WINDOW, maximized: false });
  });
});

describe('navigation policy', () => {
  test('the app stays in its page; web links go to the system browser; the rest is refused', () => {
    expect(decideNavigation(`${APP_URL}#/c/x/p/y/overview`, APP_URL)).toBe('allow');
    expect(decideNavigation('file:///etc/passwd', APP_URL)).toBe('deny');
    expect(decideNavigation('https://github.com/settings/developers', APP_URL)).toBe('external');
    expect(decideNavigation('mailto:someone@example.com', APP_URL)).toBe('external');
    expect(decideNavigation('javascript:alert(1)', APP_URL)).toBe('deny');
    expect(decideNavigation('smb://server/share', APP_URL)).toBe('deny');
    expect(decideNavigation('not a url', APP_URL)).toBe('deny');
    // The dev server case: same origin only.
    expect(decideNavigation('http://localhost:5173/#/', 'http://localhost:5173/')).toBe('allow');
    expect(decideNavigation('http://localhost:5174/', 'http://localhost:5173/')).toBe('external');
  });

  test('navigations and new windows are prevented; external ones opened with the shell', () => {
    const shell = fakeShell();
    const listeners: Record<string, (e: { preventDefault(): void }, url: string) => void> = {};
    let openHandler: ((d: { url: string }) => { action: string }) | undefined;
    applyNavigationPolicy({ on: (ev, l) => void (listeners[ev] = l), setWindowOpenHandler: (h) => void (openHandler = h) }, () => APP_URL, shell);
    let prevented = 0;
    const event = { preventDefault: () => void prevented++ };
    listeners['will-navigate']!(event, `${APP_URL}#/`);
    expect(prevented).toBe(0);
    listeners['will-navigate']!(event, 'https://example.com/docs');
    listeners['will-redirect']!(event, 'file:///tmp/x.html');
    expect(prevented).toBe(2);
    expect(openHandler!({ url: 'https://example.com/new' })).toEqual({ action: 'deny' });
    expect(openHandler!({ url: 'file:///x' })).toEqual({ action: 'deny' });
    expect(shell.opened).toEqual(['https://example.com/docs', 'https://example.com/new']);
  });
});

describe('window security', () => {
  test('sandboxed, isolated, no Node in the page; a strict CSP on every response; permissions refused', () => {
    const prefs = secureWebPreferences('/app/out/preload/index.cjs');
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
    let headers: Record<string, string[]> = {};
    let granted: boolean | undefined;
    hardenSession({
      webRequest: { onHeadersReceived: (l) => l({ responseHeaders: { 'x-a': ['1'] } }, (r) => void (headers = r.responseHeaders)) },
      setPermissionRequestHandler: (h) => h(null, 'geolocation', (g) => void (granted = g)),
    });
    expect(headers).toEqual({ 'x-a': ['1'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
    expect(granted).toBe(false);
  });
});

describe('single instance', () => {
  test('a second start quits; the first focuses its window when another start is attempted', () => {
    let quit = 0;
    let secondInstance: (() => void) | undefined;
    const focus: string[] = [];
    const win = { isMinimized: () => true, restore: () => void focus.push('restore'), focus: () => void focus.push('focus') };
    expect(claimSingleInstance({ requestSingleInstanceLock: () => true, quit: () => void quit++, on: (_e, l) => void (secondInstance = l) }, () => win)).toBe(true);
    secondInstance!();
    expect(focus).toEqual(['restore', 'focus']);
    expect(claimSingleInstance({ requestSingleInstanceLock: () => false, quit: () => void quit++, on: () => {} }, () => null)).toBe(false);
    expect(quit).toBe(1);
  });
});

describe('IPC handlers', () => {
  function setup() {
    const ipcMain = fakeIpcMain();
    const files = fakeFiles();
    let n = 0;
    const connections = createConnectionsStore(files, () => `c${++n}`);
    const secrets = createSecretStore(fakeSafeStorage(), files, 'linux');
    const shell = fakeShell();
    const sent: { url: string; init: any }[] = [];
    registerIpcHandlers({
      ipcMain, connections, secrets, shell, appUrl: () => APP_URL, signInReturns: { baseUrl: async () => 'http://127.0.0.1:1/gatehouse-console/' },
      fetch: async (url, init) => {
        sent.push({ url, init });
        return { status: 200, headers: new Headers({ 'content-type': 'application/json', 'x-stack-actual-status': '200' }), text: async () => '{"ok":true}' };
      },
    });
    return { ipcMain, secrets, shell, sent, files };
  }

  test('one handler per bridge call, and nothing else', () => {
    expect(setup().ipcMain.channels()).toEqual(Object.values(CHANNELS).sort());
  });

  test('calls from any page but the console are refused', async () => {
    const { ipcMain } = setup();
    await expect(ipcMain.invoke(CHANNELS.listConnections, 'https://evil.example/')).rejects.toThrow('not the console');
    await expect(ipcMain.invoke(CHANNELS.listConnections, null)).rejects.toThrow('not the console');
    expect(await ipcMain.invoke(CHANNELS.listConnections, APP_URL)).toEqual([]);
  });

  test('an admin key stays in the main process: stored encrypted, added to admin requests, never handed back', async () => {
    const { ipcMain, sent, files } = setup();
    const c = await ipcMain.invoke(CHANNELS.saveConnection, APP_URL, { kind: 'project', serviceUrl: 'http://localhost:8102', projectId: 'p1', label: 'p1' });
    await ipcMain.invoke(CHANNELS.storeSecret, APP_URL, c.id, 'sak_the-real-admin-key');
    expect(text(files.read(SECRETS_FILE))).not.toContain('sak_the-real-admin-key');
    expect(await ipcMain.invoke(CHANNELS.loadSessionToken, APP_URL, c.id)).toBeNull();

    const res = await ipcMain.invoke(CHANNELS.request, APP_URL, {
      connectionId: c.id, url: 'http://localhost:8102/api/v1/projects/current', method: 'get',
      headers: { 'X-Stack-Access-Type': 'admin', 'x-stack-super-secret-admin-key': 'kept-by-the-main-process' },
    });
    expect(res).toEqual({ status: 200, headers: { 'content-type': 'application/json', 'x-stack-actual-status': '200' }, body: '{"ok":true}' });
    expect(sent[0]!.init.method).toBe('GET');
    expect(sent[0]!.init.headers['x-stack-super-secret-admin-key']).toBe('sak_the-real-admin-key');

    // A client request never carries it.
    await ipcMain.invoke(CHANNELS.request, APP_URL, { connectionId: c.id, url: 'http://localhost:8102/api/v1/projects/current', method: 'GET', headers: { 'x-stack-access-type': 'client' } });
    expect(sent[1]!.init.headers['x-stack-super-secret-admin-key']).toBeUndefined();
  });

  test('requests go only to the connection\'s own service API', async () => {
    const { ipcMain, sent } = setup();
    const c = await ipcMain.invoke(CHANNELS.saveConnection, APP_URL, { kind: 'project', serviceUrl: 'http://localhost:8102', projectId: 'p1', label: 'p1' });
    await ipcMain.invoke(CHANNELS.storeSecret, APP_URL, c.id, 'sak_k');
    for (const url of ['https://attacker.example/api/v1/x', 'http://localhost:8102/handler/sign-in', 'file:///etc/passwd']) {
      await expect(ipcMain.invoke(CHANNELS.request, APP_URL, { connectionId: c.id, url, method: 'GET', headers: { 'x-stack-access-type': 'admin' } })).rejects.toThrow();
    }
    await expect(ipcMain.invoke(CHANNELS.request, APP_URL, { connectionId: 'nope', url: 'http://localhost:8102/api/v1/x', method: 'GET', headers: {} })).rejects.toThrow('Unknown connection');
    expect(sent).toEqual([]);
    expect(requestTargetAllowed('http://localhost:8102/api/v1/users', 'http://localhost:8102')).toBe(true);
  });

  test('an owner\'s refresh token is kept encrypted and given back to the page; removing the connection forgets it', async () => {
    const { ipcMain, secrets } = setup();
    const c = await ipcMain.invoke(CHANNELS.saveConnection, APP_URL, { kind: 'owner', serviceUrl: 'http://localhost:8102', label: 'local' });
    await ipcMain.invoke(CHANNELS.storeSecret, APP_URL, c.id, 'refresh-token-1');
    expect(await ipcMain.invoke(CHANNELS.loadSessionToken, APP_URL, c.id)).toBe('refresh-token-1');
    await ipcMain.invoke(CHANNELS.removeConnection, APP_URL, c.id);
    expect(secrets.get(secretKey(c.id))).toBeNull();
    expect(await ipcMain.invoke(CHANNELS.listConnections, APP_URL)).toEqual([]);
    await expect(ipcMain.invoke(CHANNELS.storeSecret, APP_URL, c.id, 'x')).rejects.toThrow('Unknown connection');
  });

  test('external links open in the system browser; other URLs are refused', async () => {
    const { ipcMain, shell } = setup();
    await ipcMain.invoke(CHANNELS.openExternal, APP_URL, 'https://docs.example.com/');
    await expect(ipcMain.invoke(CHANNELS.openExternal, APP_URL, 'file:///bin/sh')).rejects.toThrow();
    await expect(ipcMain.invoke(CHANNELS.openExternal, APP_URL, APP_URL)).rejects.toThrow();
    expect(shell.opened).toEqual(['https://docs.example.com/']);
  });
});
