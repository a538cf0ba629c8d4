// Where the console's window may go: nowhere but its own pages. Links to http(s) pages open in the system
// browser; everything else (file:, javascript:, custom schemes, new windows) is refused.
import type { ShellLike } from './ports';

export type NavigationDecision = 'allow' | 'external' | 'deny';

export function decideNavigation(target: string, appUrl: string): NavigationDecision {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return 'deny';
  }
  const app = new URL(appUrl);
  // Within the app: the same file (the renderer routes with the hash) or the dev server's origin.
  if (app.protocol === 'file:' ? url.protocol === 'file:' && url.pathname === app.pathname : url.origin === app.origin) return 'allow';
  if (url.protocol === 'https:' || url.protocol === 'http:' || url.protocol === 'mailto:') return 'external';
  return 'deny';
}

export interface WebContentsLike {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: { preventDefault(): void; url?: string }, url: string) => void): void;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' | 'allow' }): void;
}

export function applyNavigationPolicy(contents: WebContentsLike, appUrl: () => string, shell: ShellLike): void {
  const guard = (event: { preventDefault(): void }, url: string) => {
    const decision = decideNavigation(url, appUrl());
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'external') void shell.openExternal(url);
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.setWindowOpenHandler(({ url }) => {
    if (decideNavigation(url, appUrl()) !== 'deny') void shell.openExternal(url);
    return { action: 'deny' };
  });
}
