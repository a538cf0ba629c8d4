// The client library's apps behind each connection, one per connection (and per project), kept for the life of
// the page so their caches are shared between screens.
import { GatehouseAdminApp, GatehouseClientApp, cachedReadsSymbol } from '@gatehouse/shared/client';
import type { SavedConnection } from '../../shared/bridge';
import type { Platform } from '../platform';
import { ADMIN_KEY_IN_MAIN_PROCESS } from './bridge-fetch';
import { MAGIC_LINK_CALLBACK_PATH, OAUTH_CALLBACK_PATH, desktopReturnUrls } from './owner-callback';
import { desktopBrowser, type DesktopBrowser } from './desktop-browser';

/**
 * The admin app's constructor insists on all three keys, yet admin requests are authenticated by the admin key
 * alone (protocol-auth §1.3): a project connected with its admin key sends this in the other two headers.
 * The screens here make admin requests only.
 */
export const UNUSED_KEY = 'unused-admin-only';

const ownerApps = new Map<string, Promise<GatehouseClientApp>>();
const keyApps = new Map<string, GatehouseAdminApp>();
const desktopBrowsers = new Map<string, DesktopBrowser>();

/**
 * Runs `finish` (the library's OAuth callback) with the desktop app's loopback address shown to the library as the
 * page's own: the code and state are read there. Elsewhere it just runs.
 */
export async function withReturnAddress<T>(connectionId: string, address: string | undefined, finish: () => Promise<T>): Promise<T> {
  const browser = address ? desktopBrowsers.get(connectionId) : undefined;
  browser?.showAddress(address!);
  try {
    return await finish();
  } finally {
    browser?.showAddress(null);
  }
}

export interface OwnerAppHooks {
  /** Called by the client library's redirects (sign-in ↔ sign-up links, after sign-in). */
  navigate(url: string): void;
}

export function ownerApp(platform: Platform, connection: SavedConnection, hooks: OwnerAppHooks): Promise<GatehouseClientApp> {
  let app = ownerApps.get(connection.id);
  if (!app) {
    app = (async () => {
      const stored = platform.kind === 'desktop' ? await platform.loadSessionToken(connection.id) : null;
      const returnBase = await platform.signInReturnBase();
      const service = connection.serviceUrl;
      const browser = platform.kind === 'desktop' ? desktopBrowser(window, (url) => platform.openExternal(url)) : undefined;
      if (browser) desktopBrowsers.set(connection.id, browser);
      const created = new GatehouseClientApp({
        projectId: 'internal',
        publishableClientKey: connection.publishableClientKey ?? platform.config.publishableClientKey ?? '',
        baseUrl: service,
        // The web build keeps the owner's session the way the library does in browsers (cookies); the desktop
        // app keeps the refresh token in the main process, encrypted.
        // (An explicit { accessToken, refreshToken } store would be read-only: a sign-in into it was kept nowhere, and
        // the desktop app's owners could not sign in at all.)
        tokenStore: platform.kind === 'web' ? 'cookie' : 'memory',
        // Pages the console does not have (email verification, OAuth callback…) are the service's own.
        urls: {
          handler: `${platform.kind === 'web' ? '' : service}/handler`,
          home: '/console/',
          afterSignIn: '/console/',
          afterSignUp: '/console/',
          // The console takes its owners' OAuth and magic-link returns itself (lib/owner-callback.ts): the service's
          // /handler pages are the demo app's. The desktop app's come back through the main process's listener.
          ...(returnBase ? desktopReturnUrls(returnBase, connection.id)
            : platform.kind === 'web' ? { oauthCallback: OAUTH_CALLBACK_PATH, magicLinkCallback: MAGIC_LINK_CALLBACK_PATH } : {}),
        },
        redirectMethod: { useNavigate: () => hooks.navigate, navigate: hooks.navigate },
        fetch: platform.fetchFor(connection.id),
        ...(browser ? { browser } : {}),
      });
      if (platform.kind === 'desktop') {
        if (stored) created[cachedReadsSymbol].restoreTokens({ accessToken: null, refreshToken: stored });
        created[cachedReadsSymbol].onTokensChange((tokens) => void platform.keepSessionToken(connection.id, tokens.refreshToken));
      }
      return created;
    })();
    ownerApps.set(connection.id, app);
  }
  return app;
}

/** The admin app of a project connected with its admin key, or null when the key is not known in this session. */
export function keyAdminApp(platform: Platform, connection: SavedConnection): GatehouseAdminApp | null {
  const key = platform.adminKeyFor(connection.id);
  if (key === null || !connection.projectId) return null;
  let app = keyApps.get(connection.id);
  if (!app) {
    app = new GatehouseAdminApp({
      projectId: connection.projectId,
      baseUrl: connection.serviceUrl,
      tokenStore: null,
      publishableClientKey: UNUSED_KEY,
      secretServerKey: UNUSED_KEY,
      superSecretAdminKey: key || ADMIN_KEY_IN_MAIN_PROCESS,
      fetch: platform.fetchFor(connection.id),
    });
    keyApps.set(connection.id, app);
  }
  return app;
}

export function forgetApps(connectionId: string): void {
  ownerApps.delete(connectionId);
  keyApps.delete(connectionId);
}
