// The browser the client library sees in the desktop app. The window shows only the app's own pages (file://), so:
// Chromium keeps no cookies for file: pages, and the library's OAuth verifier cookie goes to a cookie jar over the
// window's sessionStorage instead; leaving the page (the OAuth provider) opens the system browser; and an OAuth return
// that reached the main process's loopback listener is shown to the library as the page's address while it finishes.
import type { BrowserEnvironment } from '@gatehouse/shared/client';

const PREFIX = 'gatehouse-console-cookie:';

/** `document.cookie` semantics over a Storage: `name=value; path=/; expires=…` writes, an expired date deletes. */
export function storageCookieDocument(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>, now: () => number): { cookie: string } {
  const entries = (): [string, { value: string; expires: number | null }][] => {
    const out: [string, { value: string; expires: number | null }][] = [];
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (!key?.startsWith(PREFIX)) continue;
      try {
        out.push([key.slice(PREFIX.length), JSON.parse(storage.getItem(key) ?? '')]);
      } catch {
        storage.removeItem(key);
      }
    }
    return out;
  };
  return {
    get cookie() {
      return entries()
        .filter(([name, c]) => (c.expires === null || c.expires > now()) || (storage.removeItem(PREFIX + name), false))
        .map(([name, c]) => `${name}=${c.value}`)
        .join('; ');
    },
    set cookie(line: string) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair!.indexOf('=');
      if (eq <= 0) return;
      const name = pair!.slice(0, eq);
      const expiresAttr = attributes.find((a) => a.toLowerCase().startsWith('expires='));
      const expires = expiresAttr ? Date.parse(expiresAttr.slice('expires='.length)) : null;
      if (expires !== null && !(expires > now())) storage.removeItem(PREFIX + name);
      else storage.setItem(PREFIX + name, JSON.stringify({ value: pair!.slice(eq + 1), expires }));
    },
  };
}

export interface DesktopBrowser extends BrowserEnvironment {
  /** While a sign-in return finishes, the library reads this address (code, state) as the page's. */
  showAddress(url: string | null): void;
}

export function desktopBrowser(window: Pick<Window, 'location' | 'sessionStorage'>, openExternal: (url: string) => void): DesktopBrowser {
  let shown: string | null = null;
  const page = window.location;
  return {
    document: storageCookieDocument(window.sessionStorage, () => Date.now()),
    location: {
      get href() { return shown ?? page.href; },
      get hostname() { return new URL(shown ?? page.href).hostname; },
      // The library leaves the page only for another site (the OAuth provider): that is the system browser's job.
      assign: (url) => openExternal(url),
      replace: (url) => openExternal(url),
    },
    // The library tidies the address after reading the code; the shown address is dropped once finished instead.
    history: { replaceState: () => {} },
    showAddress: (url) => void (shown = url),
  };
}
