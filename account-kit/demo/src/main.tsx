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
  const app = new GatehouseClientApp({
    projectId: config.projectId,
    publishableClientKey: config.publishableClientKey,
    baseUrl: window.location.origin,
    tokenStore: 'cookie',
    redirectMethod: 'window',
  });
  root.render(
    <StrictMode>
      <GatehouseProvider app={app} lang={config.lang}>
        <DemoApp impersonating={impersonating} />
      </GatehouseProvider>
    </StrictMode>,
  );
}
