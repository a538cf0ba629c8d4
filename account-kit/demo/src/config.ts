// Which project the demo is an app of: the one the service wrote into the page (in development the demo project,
// else the internal project), or one chosen through the URL (?project_id=…&publishable_client_key=…), remembered in
// this browser so that every page of the demo stays on it. Tests use that to open the demo for any project.
import { REFRESH_COOKIE_MAX_AGE_SECONDS, REFRESH_COOKIE_PREFIX } from '@gatehouse/shared/constants';

export interface DemoConfig {
  projectId: string;
  publishableClientKey: string | null;
  lang: string;
}

const STORAGE_KEY = 'gatehouse-demo-project';

/** The project the service wrote into the page: a JSON data element (the page's policy allows no inline script). */
function servedConfig(): { projectId?: string; publishableClientKey?: string | null } | null {
  const text = document.getElementById('gatehouse-demo-config')?.textContent;
  if (!text) return null;
  try { return JSON.parse(text) as { projectId?: string; publishableClientKey?: string | null }; } catch { return null; }
}

export function loadDemoConfig(): DemoConfig {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('project_id');
  if (fromUrl) {
    const chosen = { projectId: fromUrl, publishableClientKey: url.searchParams.get('publishable_client_key'), lang: url.searchParams.get('lang') ?? 'en' };
    localStorage.setItem(STORAGE_KEY, JSON.stringify(chosen));
    for (const p of ['project_id', 'publishable_client_key', 'lang']) url.searchParams.delete(p);
    history.replaceState(null, '', url.pathname + url.search + url.hash);
    return chosen;
  }
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored) {
    try { return JSON.parse(stored) as DemoConfig; } catch { localStorage.removeItem(STORAGE_KEY); }
  }
  const served = servedConfig();
  return { projectId: served?.projectId ?? 'internal', publishableClientKey: served?.publishableClientKey ?? null, lang: 'en' };
}

/**
 * The console's "Impersonate" opens the demo with an impersonation session's refresh token in the fragment (never
 * sent to a server): it becomes the project's refresh cookie, as a sign-in would leave it, and leaves the address.
 */
export function takeImpersonationToken(projectId: string): boolean {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const token = fragment.get('impersonation_refresh_token');
  if (token) {
    document.cookie = `${REFRESH_COOKIE_PREFIX}${encodeURIComponent(projectId)}=${encodeURIComponent(token)}; path=/; max-age=${REFRESH_COOKIE_MAX_AGE_SECONDS}; samesite=lax`;
    history.replaceState(null, '', window.location.pathname + window.location.search);
    // The session looks like any other to the user (their listings hide it): this tab labels it itself.
    sessionStorage.setItem(IMPERSONATING_KEY, projectId);
  }
  return sessionStorage.getItem(IMPERSONATING_KEY) === projectId;
}

const IMPERSONATING_KEY = 'gatehouse-demo-impersonating';

export function forgetDemoConfig() {
  localStorage.removeItem(STORAGE_KEY);
}
