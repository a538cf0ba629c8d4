// Which project the demo is an app of: the one the service wrote into the page (the internal project with the
// development keys), or one chosen through the URL (?project_id=…&publishable_client_key=…), remembered in
// this browser so that every page of the demo stays on it. Tests use that to open the demo for any project.
export interface DemoConfig {
  projectId: string;
  publishableClientKey: string | null;
  lang: string;
}

const STORAGE_KEY = 'gatehouse-demo-project';

declare global {
  interface Window { __GATEHOUSE_DEMO__?: { projectId: string; publishableClientKey: string | null } }
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
  const served = window.__GATEHOUSE_DEMO__;
  return { projectId: served?.projectId ?? 'internal', publishableClientKey: served?.publishableClientKey ?? null, lang: 'en' };
}

export function forgetDemoConfig() {
  localStorage.removeItem(STORAGE_KEY);
}
