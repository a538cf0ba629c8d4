import { describe, expect, test } from 'bun:test';
import { documentCookieJar, parseCookies, serializeBrowserCookie } from '../../src/client/cookies.ts';
import {
  TokenStore,
  createAdapterCookieStore,
  createBrowserCookieStore,
  readTokensFromRequest,
} from '../../src/client/token-store.ts';
import { GatehouseClientApp } from '../../src/client/index.ts';
import { fakeBrowser, fakeTimers, FakeCookieDocument, TEST_KEYS } from './support.ts';

const P = 'proj-1';

describe('browser cookie format', () => {
  test('sign-in writes the refresh cookie (1 year), the packed access cookie (1 day) and deletes the legacy cookie', () => {
    const ft = fakeTimers({ start: Date.UTC(2030, 0, 1) });
    const doc = new FakeCookieDocument(true, ft.now);
    const store = createBrowserCookieStore(documentCookieJar(doc, ft.timers), P, ft.timers);
    doc.writes.length = 0;
    store.set({ refreshToken: 'rt-1', accessToken: 'at-1' });
    expect(doc.writes).toEqual([
      'stack-refresh-proj-1=rt-1; path=/; expires=Wed, 01 Jan 2031 00:00:00 GMT',
      'stack-access=[%22rt-1%22%2C%22at-1%22]; path=/; expires=Wed, 02 Jan 2030 00:00:00 GMT',
      'stack-refresh=; path=/; expires=Mon, 31 Dec 2029 00:00:00 GMT',
    ]);
    expect(parseCookies(doc.cookie).get('stack-access')).toBe('["rt-1","at-1"]');
  });

  test('signing out deletes both cookies; no Domain, SameSite, HttpOnly or Max-Age anywhere', () => {
    const ft = fakeTimers();
    const doc = new FakeCookieDocument(true, ft.now);
    const store = createBrowserCookieStore(documentCookieJar(doc, ft.timers), P, ft.timers);
    store.set({ refreshToken: 'rt', accessToken: 'at' });
    store.set({ refreshToken: null, accessToken: null });
    expect(doc.jar.has('stack-refresh-proj-1')).toBe(false);
    expect(doc.jar.has('stack-access')).toBe(false);
    for (const w of doc.writes) expect(w).not.toMatch(/domain|samesite|httponly|max-age/i);
  });

  test('every read sets stack-is-https=true as a secure session cookie', () => {
    const ft = fakeTimers();
    const doc = new FakeCookieDocument(true, ft.now);
    createBrowserCookieStore(documentCookieJar(doc, ft.timers), P, ft.timers);
    expect(doc.writes[0]).toBe('stack-is-https=true; path=/; secure');
    ft.tickIntervals();
    expect(doc.writes.filter((w) => w.startsWith('stack-is-https')).length).toBe(2);
    // silently refused on http origins
    const insecure = new FakeCookieDocument(false, ft.now);
    createBrowserCookieStore(documentCookieJar(insecure, ft.timers), P, ft.timers);
    expect(insecure.jar.has('stack-is-https')).toBe(false);
  });

  test('js-cookie value encoding keeps readable characters and round-trips', () => {
    expect(serializeBrowserCookie('a', 'x y;z/@[]', {}, 0)).toBe('a=x%20y%3Bz/@[]; path=/');
    expect(parseCookies('a=x%20y%3Bz/@[]; b="quoted"').get('a')).toBe('x y;z/@[]');
    expect(parseCookies('b="quoted"').get('b')).toBe('quoted');
  });
});

describe('browser cookie reading rules', () => {
  test('per-project refresh cookie, else the legacy one; access only when element 0 matches', () => {
    const ft = fakeTimers();
    const doc = new FakeCookieDocument(true, ft.now);
    doc.setRaw('stack-refresh', 'legacy-rt');
    doc.setRaw('stack-access', encodeURIComponent(JSON.stringify(['legacy-rt', 'at-legacy'])));
    let store = createBrowserCookieStore(documentCookieJar(doc, ft.timers), P, ft.timers);
    expect(store.get()).toEqual({ refreshToken: 'legacy-rt', accessToken: 'at-legacy' });

    const doc2 = new FakeCookieDocument(true, ft.now);
    doc2.setRaw('stack-refresh-proj-1', 'rt-A');
    doc2.setRaw('stack-refresh', 'legacy');
    doc2.setRaw('stack-access', encodeURIComponent(JSON.stringify(['other-rt', 'at-other'])));
    store = createBrowserCookieStore(documentCookieJar(doc2, ft.timers), P, ft.timers);
    expect(store.get()).toEqual({ refreshToken: 'rt-A', accessToken: null });

    const doc3 = new FakeCookieDocument(true, ft.now);
    doc3.setRaw('stack-refresh-proj-1', 'rt-A');
    doc3.setRaw('stack-access', 'not-json-at-all');
    store = createBrowserCookieStore(documentCookieJar(doc3, ft.timers), P, ft.timers);
    expect(store.get().accessToken).toBeNull();
  });

  test('tab sync: a change by another tab is picked up on the next 100 ms poll and notifies subscribers', () => {
    const ft = fakeTimers();
    const doc = new FakeCookieDocument(true, ft.now);
    const store = createBrowserCookieStore(documentCookieJar(doc, ft.timers), P, ft.timers);
    expect(ft.intervals.map((i) => i.ms)).toEqual([100]);
    const seen: unknown[] = [];
    store.onChange((v) => seen.push(v));
    ft.tickIntervals();
    expect(seen).toEqual([]); // nothing changed
    doc.setRaw('stack-refresh-proj-1', 'rt-other-tab');
    doc.setRaw('stack-access', encodeURIComponent(JSON.stringify(['rt-other-tab', 'at-other-tab'])));
    ft.tickIntervals();
    expect(seen).toEqual([{ refreshToken: 'rt-other-tab', accessToken: 'at-other-tab' }]);
    // sign-out in the other tab
    doc.jar.delete('stack-refresh-proj-1');
    doc.jar.delete('stack-access');
    ft.tickIntervals();
    expect(store.get()).toEqual({ refreshToken: null, accessToken: null });
  });

  test('the access token in memory survives when the access cookie disappears but the refresh token is unchanged', () => {
    const ft = fakeTimers();
    const doc = new FakeCookieDocument(true, ft.now);
    const store = createBrowserCookieStore(documentCookieJar(doc, ft.timers), P, ft.timers);
    store.set({ refreshToken: 'rt', accessToken: 'at' });
    doc.jar.delete('stack-access');
    ft.tickIntervals();
    expect(store.get()).toEqual({ refreshToken: 'rt', accessToken: 'at' });
  });
});

describe('server-side token sources', () => {
  const req = (headers: Record<string, string>) => new Request('http://x/', { headers });

  test('x-stack-auth header wins and must be a JSON object', () => {
    expect(readTokensFromRequest(req({ 'x-stack-auth': '{"accessToken":"a","refreshToken":"r"}', cookie: 'stack-refresh-proj-1=c' }), P).tokens)
      .toEqual({ accessToken: 'a', refreshToken: 'r' });
    expect(readTokensFromRequest(req({ 'x-stack-auth': '{}' }), P).tokens).toEqual({ accessToken: null, refreshToken: null });
    expect(() => readTokensFromRequest(req({ 'x-stack-auth': 'nope' }), P)).toThrow('Invalid x-stack-auth header: nope');
    try {
      readTokensFromRequest(req({ 'x-stack-auth': 'null' }), P);
      throw new Error('expected a throw');
    } catch (err) {
      expect((err as Error).message).toBe('Invalid x-stack-auth header: null');
      expect(((err as Error).cause as Error).message).toBe('x-stack-auth header must not be null');
    }
    let thrown: unknown;
    try {
      readTokensFromRequest(req({ 'x-stack-auth': '"str"' }), P);
    } catch (err) {
      thrown = err;
    }
    // Asserted outside the catch: a read that does not throw fails here instead of passing silently.
    expect(thrown).toBeInstanceOf(Error);
    expect(((thrown as Error).cause as Error).message).toBe('x-stack-auth header must be a JSON object');
  });

  test('cookies of a request: the packed access cookie is unpacked like in the browser', () => {
    const access = encodeURIComponent(JSON.stringify(['rt', 'at']));
    expect(readTokensFromRequest(req({ cookie: `stack-refresh-proj-1=rt; stack-access=${access}` }), P).tokens).toEqual({ refreshToken: 'rt', accessToken: 'at' });
    expect(readTokensFromRequest(req({ cookie: `stack-refresh=legacy` }), P).tokens).toEqual({ refreshToken: 'legacy', accessToken: null });
  });

  test('framework cookie adapter: reads, writes with Max-Age and Secure, and skips refused writes', () => {
    const cookies = new Map<string, string>([['stack-refresh-proj-1', 'rt0'], ['stack-is-https', 'true']]);
    const writes: unknown[] = [];
    let refuse = false;
    const adapter = {
      get: (n: string) => cookies.get(n),
      set: (n: string, v: string, o: { maxAge?: number; secure: boolean }) => {
        if (refuse) throw new Error('Cookies can only be modified in a Server Action or Route Handler');
        writes.push([n, v, o]);
      },
      delete: (n: string) => {
        if (refuse) throw new Error('read-only');
        writes.push(['delete', n]);
      },
    };
    const store = createAdapterCookieStore(adapter, P);
    expect(store.get()).toEqual({ refreshToken: 'rt0', accessToken: null });
    writes.length = 0;
    store.set({ refreshToken: 'rt1', accessToken: 'at1' });
    expect(writes).toEqual([
      ['stack-refresh-proj-1', 'rt1', { maxAge: 31536000, secure: true }],
      ['stack-access', '["rt1","at1"]', { maxAge: 86400, secure: true }],
      ['delete', 'stack-refresh'],
    ]);
    refuse = true;
    expect(() => store.set({ refreshToken: null, accessToken: null })).not.toThrow();
  });

  test("the string 'undefined' is rejected as a token", () => {
    expect(() => new TokenStore({ accessToken: 'undefined', refreshToken: null })).toThrow(
      "Access token is the string 'undefined'; it's unlikely this is the correct value. They're supposed to be unguessable!",
    );
    expect(() => new TokenStore({ accessToken: null, refreshToken: 'undefined' })).toThrow("Refresh token is the string 'undefined'");
  });
});

describe('token store modes on an app', () => {
  const make = (tokenStore: any, browser: any = null) =>
    new GatehouseClientApp({ ...TEST_KEYS, baseUrl: 'http://127.0.0.1:9', tokenStore, browser });

  test('cookie store outside a browser throws; memory is one store per app; null is always fresh and non-persistent', async () => {
    expect(() => make('cookie')._core.requireTokenStore()).toThrow('Cannot use cookie token store on the server!');
    const mem = make('memory');
    expect(mem._core.requireTokenStore()).toBe(mem._core.requireTokenStore());
    const none = make(null);
    expect(none._core.resolveTokenStore(null)).not.toBe(none._core.resolveTokenStore(null));
    await expect(none.getUser()).rejects.toThrow('Cannot call this function on a Stack app without a persistent token store.');
    expect(() => make('bogus')._core.requireTokenStore()).toThrow('Invalid token store');
  });

  test('a request object is cached per request (cookie path); explicit tokens give a new store per call', () => {
    const app = make('memory');
    const request = new Request('http://x/', { headers: { cookie: 'stack-refresh-proj-test=r' } });
    expect(app._core.resolveTokenStore(request)).toBe(app._core.resolveTokenStore(request));
    const tokens = { accessToken: null, refreshToken: 'r' };
    expect(app._core.resolveTokenStore(tokens)).not.toBe(app._core.resolveTokenStore(tokens));
  });

  test('cookie store in a (fake) browser: one per app, sessions are cached per store and key', () => {
    const browser = fakeBrowser();
    const app = make('cookie', browser);
    const store = app._core.requireTokenStore();
    expect(app._core.requireTokenStore()).toBe(store);
    store.set({ refreshToken: 'rt', accessToken: null });
    const s1 = app._core.getSession(store);
    expect(app._core.getSession(store)).toBe(s1);
    store.set({ refreshToken: 'rt2', accessToken: null });
    expect(app._core.getSession(store)).not.toBe(s1);
  });
});
