import { StrictMode, Suspense, lazy } from 'react';
import { createRoot } from 'react-dom/client';
import { GatehouseClientApp, GatehouseProvider } from '@gatehouse/account-kit';
import '@gatehouse/account-kit/styles.css';
import { loadDemoConfig, takeImpersonationToken } from './config';
import { DemoApp } from './demo-app';
// Only shown when the service gave the demo no key: not part of the sign-in page's first load.
const ConnectProject = lazy(() => import('./connect-project').then((m) => ({ default: m.ConnectProject })));

const config = loadDemoConfig();
const root = createRoot(document.getElementById('root')!);

if (!config.publishableClientKey) {
  root.render(<StrictMode><Suspense fallback={null}><ConnectProject /></Suspense></StrictMode>);
} else {
  const impersonating = takeImpersonationToken(config.projectId);
  // The links in the mails this app asks for (verification, magic link, password reset, team invitation) lead back
  // to this project in any browser: they carry it as the demo's own links do (config.ts reads it), so an invitation
  // opened elsewhere does not land in the served default project (issue 25).
  const back = new URLSearchParams({ project_id: config.projectId, publishable_client_key: config.publishableClientKey });
  const toProject = (path: string) => `/handler/${path}?${back}`;
  const app = new GatehouseClientApp({
    projectId: config.projectId,
    publishableClientKey: config.publishableClientKey,
    baseUrl: window.location.origin,
    tokenStore: 'cookie',
    redirectMethod: 'window',
    urls: {
      emailVerification: toProject('email-verification'),
      passwordReset: toProject('password-reset'),
      magicLinkCallback: toProject('magic-link-callback'),
      teamInvitation: toProject('team-invitation'),
    },
  });
  root.render(
    <StrictMode>
      <GatehouseProvider app={app} lang={config.lang}>
        <DemoApp impersonating={impersonating} />
      </GatehouseProvider>
    </StrictMode>,
  );
}
