// The preload's bridge: one named IPC channel per call (no generic invoke), frozen, and the renderer's fetch over it.
import { describe, expect, test } from 'bun:test';
import { createBridge } from '../src/preload/bridge';
import { CHANNELS, EVENTS } from '../src/shared/bridge';
import { bridgeFetch } from '../src/renderer/lib/bridge-fetch';

describe('preload bridge', () => {
  test('each method invokes its own channel with its arguments; nothing else is exposed', async () => {
    const calls: unknown[][] = [];
    const listeners: [string, (...args: unknown[]) => void][] = [];
    const bridge = createBridge(async (...args) => { calls.push(args); return 'r'; }, (event, listener) => {
      listeners.push([event, listener]);
      return () => void listeners.splice(listeners.findIndex(([, l]) => l === listener), 1);
    });
    expect(Object.isFrozen(bridge)).toBe(true);
    expect(Object.keys(bridge).sort()).toEqual([
      'allowWeakSecretStorage', 'listConnections', 'loadSessionToken', 'onSignInReturn', 'openExternal', 'platform', 'removeConnection', 'request', 'saveConnection',
      'secretStorage', 'signInReturnBase', 'storeSecret',
    ]);
    await bridge.listConnections();
    await bridge.saveConnection({ kind: 'owner', serviceUrl: 'http://x', label: 'x' });
    await bridge.removeConnection('a');
    await bridge.storeSecret('a', 's');
    await bridge.loadSessionToken('a');
    await bridge.openExternal('https://e.example');
    await bridge.signInReturnBase();
    expect(calls).toEqual([
      [CHANNELS.listConnections],
      [CHANNELS.saveConnection, { kind: 'owner', serviceUrl: 'http://x', label: 'x' }],
      [CHANNELS.removeConnection, 'a'],
      [CHANNELS.storeSecret, 'a', 's'],
      [CHANNELS.loadSessionToken, 'a'],
      [CHANNELS.openExternal, 'https://e.example'],
      [CHANNELS.signInReturnBase],
    ]);
    // The sign-in return: the page's listener gets the address as a string, and can stop listening.
    const seen: string[] = [];
    const stop = bridge.onSignInReturn((url) => seen.push(url));
    expect(listeners.map(([event]) => event)).toEqual([EVENTS.signInReturn]);
    listeners[0]![1]('http://127.0.0.1:5000/gatehouse-console/oauth?code=c&state=s');
    expect(seen).toEqual(['http://127.0.0.1:5000/gatehouse-console/oauth?code=c&state=s']);
    stop();
    expect(listeners).toEqual([]);
    expect((bridge as any).invoke).toBeUndefined();
    expect((bridge as any).ipcRenderer).toBeUndefined();
  });

  test('the client library\'s fetch goes through the bridge and gets a real Response back', async () => {
    let seen: any;
    const fetch = bridgeFetch({ request: async (r) => { seen = r; return { status: 200, headers: { 'x-stack-actual-status': '401' }, body: '{"code":"X"}' }; } }, 'conn-1');
    const res = await fetch('http://localhost:8102/api/v1/users/me', { method: 'POST', headers: { 'X-Stack-Access-Type': 'client' }, body: '{}' });
    expect(seen).toEqual({ connectionId: 'conn-1', url: 'http://localhost:8102/api/v1/users/me', method: 'POST', headers: { 'x-stack-access-type': 'client' }, body: '{}' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-stack-actual-status')).toBe('401');
    expect(await res.json()).toEqual({ code: 'X' });
  });
});
